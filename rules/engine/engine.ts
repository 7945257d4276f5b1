/**
 * Runs every rule over the artifacts. Each rule gets only what it declared; a missing required
 * artifact yields `needs-artifact` with how to get it; one rule throwing does not stop others.
 */
import { createHash } from 'node:crypto';
import { HOW_TO_GET, type ArtifactName, type Artifacts } from '../../server/src/model/artifacts.ts';
import {
  SEVERITY_ORDER, type Assessment, type Finding, type RuleResult, type RuleRun, type Severity,
} from '../../server/src/model/finding.ts';
import { compareVersions } from './version.ts';
import type { AnyRule, FindingDraft } from './types.ts';

export const RULE_CATALOG_VERSION = '1';

export function findingFingerprint(ruleId: string, f: Pick<FindingDraft, 'subject' | 'evidence'>): string {
  const payload = JSON.stringify([ruleId, f.subject.kind, f.subject.id, f.evidence.map((e) => [e.label, e.value])]);
  return createHash('sha256').update(payload).digest('hex').slice(0, 16);
}

function toFinding(rule: AnyRule, d: FindingDraft): Finding {
  return {
    ruleId: rule.meta.id,
    severity: d.severity ?? rule.meta.defaultSeverity,
    title: d.title,
    subject: { kind: d.subject.kind, id: d.subject.id, pool: d.subject.pool ?? null },
    evidence: d.evidence.map((e) => ({ label: e.label, value: e.value, unit: e.unit ?? null })),
    explanation: d.explanation,
    action: d.action,
    citations: (d.citations ?? rule.meta.citations).map((c) => ({ source: c.source, locator: c.locator ?? null, url: c.url ?? null })),
    confidence: d.confidence,
    fingerprint: findingFingerprint(rule.meta.id, d),
  };
}

function pick(artifacts: Artifacts, names: readonly ArtifactName[]): Artifacts {
  const out: Artifacts = {};
  for (const n of names) {
    if (artifacts[n] !== undefined) (out as Record<string, unknown>)[n] = artifacts[n];
  }
  return out;
}

/**
 * Is the host's OpenZFS version inside the rule's range? Unknown version → the rule runs. A bound names
 * a line ('2.3') or a release ('2.3.4'); an upper bound that names a line takes in its every release
 * (maxVersion '2.3' holds for 2.3.9: the real-OpenZFS lab found the 2.3-only rule silent on 2.3.9).
 */
function versionApplies(rule: AnyRule, artifacts: Artifacts): boolean {
  const v = artifacts.Host?.zfs.openzfs;
  if (!v) return true;
  const { minVersion, maxVersion } = rule.meta.appliesTo;
  if (minVersion && compareVersions(v, minVersion) < 0) return false;
  if (maxVersion && compareVersions(v.split(/[.-]/).slice(0, maxVersion.split(/[.-]/).length).join('.'), maxVersion) > 0) return false;
  return true;
}

export function runRule(rule: AnyRule, artifacts: Artifacts): RuleRun {
  const base = { ruleId: rule.meta.id, title: rule.meta.title, category: rule.meta.category };
  const missing = rule.meta.requiredArtifacts.filter((n) => artifacts[n] === undefined);
  if (missing.length > 0) {
    return {
      ...base, status: 'needs-artifact', findings: [],
      message: `Needs ${missing.join(', ')} to decide.`,
      missing: missing.map((artifact) => ({ artifact, howToGet: HOW_TO_GET[artifact] })),
    };
  }
  if (!versionApplies(rule, artifacts)) {
    const { minVersion, maxVersion } = rule.meta.appliesTo;
    return {
      ...base, status: 'not-applicable', findings: [], missing: [],
      message: `Applies to OpenZFS ${minVersion ?? 'any'}–${maxVersion ?? 'any'}; this host runs ${artifacts.Host?.zfs.openzfs}.`,
    };
  }
  try {
    const given = pick(artifacts, [...rule.meta.requiredArtifacts, ...(rule.meta.optionalArtifacts ?? [])]);
    const outcome = rule.check(given);
    if (outcome.status === 'fired') {
      return { ...base, status: 'fired', findings: outcome.findings.map((d) => toFinding(rule, d)), message: null, missing: [] };
    }
    return { ...base, status: outcome.status, findings: [], message: outcome.message, missing: [] };
  } catch (err) {
    return {
      ...base, status: 'error', findings: [], missing: [],
      message: `Rule failed: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

/** Stable order: severity, then pool, then rule id, then subject id. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    (a.subject.pool ?? '').localeCompare(b.subject.pool ?? '') ||
    a.ruleId.localeCompare(b.ruleId) ||
    a.subject.id.localeCompare(b.subject.id)
  );
}

const zeroCounts = (): Record<Severity, number> => ({ critical: 0, warning: 0, suggestion: 0, info: 0 });

export function runRules(rules: readonly AnyRule[], artifacts: Artifacts, now: Date = new Date()): Assessment {
  const runs = [...rules].sort((a, b) => a.meta.id.localeCompare(b.meta.id)).map((r) => runRule(r, artifacts));
  const findings = runs.flatMap((r) => r.findings).sort(compareFindings);
  const byRule = new Map<string, string[]>();
  for (const f of findings) (byRule.get(f.ruleId) ?? byRule.set(f.ruleId, []).get(f.ruleId)!).push(f.fingerprint);
  const results: RuleResult[] = runs.map(({ findings: _mine, ...r }) => ({ ...r, fingerprints: byRule.get(r.ruleId) ?? [] }));
  const counts = zeroCounts();
  const perPool = new Map<string, Record<Severity, number>>();
  for (const p of artifacts.Pools ?? []) perPool.set(p.name, zeroCounts());
  for (const f of findings) {
    counts[f.severity]++;
    if (f.subject.pool) {
      const c = perPool.get(f.subject.pool) ?? zeroCounts();
      c[f.severity]++;
      perPool.set(f.subject.pool, c);
    }
  }
  return {
    generatedAt: now.toISOString(),
    ruleCatalogVersion: RULE_CATALOG_VERSION,
    results,
    findings,
    summary: { counts, pools: [...perPool.entries()].map(([pool, c]) => ({ pool, counts: c })) },
  };
}
