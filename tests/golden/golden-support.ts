/**
 * Shared pieces of the golden assessments: where the snapshots live, how an assessment is run
 * (at the snapshot's own capture time, so no rule can depend on the clock) and the compact,
 * readable projection that is committed as `<name>.golden.json`.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assess, type AssessResult } from '../../server/src/assess/assess.ts';
import { DEMO_DIR } from '../../server/src/gather/load.ts';
import { loadSnapshotInventory } from '../../server/src/gather/load.ts';
import type { RuleStatus } from '../../server/src/model/finding.ts';
import type { Inventory } from '../../server/src/model/inventory.ts';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const SNAPSHOTS_DIR = join(HERE, '..', 'fixtures', 'snapshots');

export const demoSnapshot = (name: string): string => join(DEMO_DIR, name);
export const referenceSnapshot = (name: string): string => join(SNAPSHOTS_DIR, name);

export async function loadAndAssess(dir: string, now?: Date): Promise<{ inventory: Inventory; result: AssessResult }> {
  const { inventory } = await loadSnapshotInventory(dir);
  const capturedAt = new Date(inventory.source.capturedAt);
  if (Number.isNaN(capturedAt.getTime())) throw new Error(`${dir}: meta.json has no usable capturedAt`);
  return { inventory, result: assess(inventory, {}, now ?? capturedAt) };
}

export interface GoldenFinding {
  ruleId: string;
  severity: string;
  subject: string;
  title: string;
  commands: string[];
  reversible: string | null;
  citations: number;
}

export interface Golden {
  label: string;
  findings: GoldenFinding[];
  /** Rule ids by status, so a rule that silently stops running shows up in the diff. */
  statuses: Partial<Record<RuleStatus, string[]>>;
  optane: { verdict: string; pool: string | null; headline: string; candidates: string[]; layout: string[] };
}

const STATUS_ORDER: readonly RuleStatus[] = ['fired', 'error', 'needs-artifact', 'not-applicable', 'passed'];

export function project(inventory: Inventory, r: AssessResult): Golden {
  const statuses: Partial<Record<RuleStatus, string[]>> = {};
  for (const status of STATUS_ORDER) {
    const ids = r.assessment.results.filter((res) => res.status === status).map((res) => res.ruleId).sort();
    if (ids.length > 0) statuses[status] = ids;
  }
  return {
    label: inventory.source.label,
    findings: r.assessment.findings.map((f) => ({
      ruleId: f.ruleId,
      severity: f.severity,
      subject: f.subject.id,
      title: f.title,
      commands: f.action?.commands ?? [],
      reversible: f.action?.reversible ?? null,
      citations: f.citations.length,
    })),
    statuses,
    optane: {
      verdict: r.optane.verdict,
      pool: r.optane.pool,
      headline: r.optane.headline,
      candidates: r.optane.candidates.map((c) => `${c.device} (${c.product}) as ${c.role}`),
      layout: r.optane.layout.commands,
    },
  };
}

export const goldenText = (g: Golden): string => `${JSON.stringify(g, null, 2)}\n`;
