/**
 * The assessment pipeline in one place, reused by the CLI, the server and the reports:
 * inventory → artifacts (+ measured extras) → runRules → Optane verdict.
 */
import { ALL_RULES } from '../../../rules/index.ts';
import { runRules } from '../../../rules/engine/engine.ts';
import { artifactsFromInventory, type Artifacts } from '../model/artifacts.ts';
import type { Assessment } from '../model/finding.ts';
import type { Inventory } from '../model/inventory.ts';
import { buildOptaneVerdict, type OptaneVerdict } from '../optane/verdict.ts';
import { nativeWayForCommands } from '../planner/native-way.ts';

export interface AssessResult {
  assessment: Assessment;
  optane: OptaneVerdict;
  artifacts: Artifacts;
}

/**
 * `extra` adds artifacts the inventory does not carry (Workload, SizeHistograms, Benchmarks) or
 * overrides one; an explicit `undefined` value is ignored.
 */
export function assess(inventory: Inventory, extra: Partial<Artifacts> = {}, now: Date = new Date()): AssessResult {
  const artifacts: Artifacts = { ...artifactsFromInventory(inventory) };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) (artifacts as Record<string, unknown>)[k] = v;
  const assessment = runRules(ALL_RULES, artifacts, now);
  // Rules write zpool commands; on TrueNAS and Proxmox VE the platform's own way goes with them.
  for (const f of assessment.findings) {
    const native = f.action ? nativeWayForCommands(inventory.host, f.action.commands, inventory.drives, inventory.pools) : null;
    if (native) f.action!.native = native;
  }
  return { assessment, optane: buildOptaneVerdict(artifacts, assessment), artifacts };
}
