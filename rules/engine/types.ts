/**
 * What a rule is, in the image of a Lighthouse audit / ESLint rule: static `meta` and a pure
 * `check()` from the artifacts it declared to an outcome. The engine does the rest
 * (missing artifacts, exceptions, fingerprints, ordering).
 */
import type { ArtifactName, ArtifactMap } from '../../server/src/model/artifacts.ts';
import type { Action, Citation, Confidence, RuleCategory, Severity, Subject } from '../../server/src/model/finding.ts';

export interface RuleMeta<R extends ArtifactName = ArtifactName, O extends ArtifactName = never> {
  /** A noun phrase; equals the file name, the doc anchor and the test file name. */
  id: string;
  title: string;
  category: RuleCategory;
  defaultSeverity: Severity;
  /** The rule cannot decide without these: missing → `needs-artifact`. */
  requiredArtifacts: readonly R[];
  /** Used when present (e.g. a workload fingerprint sharpens the verdict). */
  optionalArtifacts?: readonly O[];
  /** Why the rule exists, then a "Learn more" pointer. */
  description: string;
  citations: Citation[];
  /** OpenZFS versions the rule's logic applies to (inclusive bounds, `major.minor`), null = any. */
  appliesTo: { minVersion: string | null; maxVersion: string | null };
}

/** A finding as a rule emits it; the engine adds ruleId and fingerprint. */
export interface FindingDraft {
  severity?: Severity; // defaults to meta.defaultSeverity
  title: string;
  subject: { kind: Subject['kind']; id: string; pool?: string | null };
  evidence: Array<{ label: string; value: string | number | boolean | null; unit?: string | null }>;
  explanation: string;
  action: Action | null;
  citations?: Array<{ source: string; locator?: string | null; url?: string | null }>;
  confidence: Confidence;
}

export type CheckOutcome =
  | { status: 'fired'; findings: FindingDraft[] }
  | { status: 'passed'; message: string }
  | { status: 'not-applicable'; message: string };

/** The artifacts a rule receives: required ones present, optional ones maybe. */
export type RuleArtifacts<R extends ArtifactName, O extends ArtifactName> = Pick<ArtifactMap, R> & Partial<Pick<ArtifactMap, O>>;

export interface Rule<R extends ArtifactName = ArtifactName, O extends ArtifactName = never> {
  meta: RuleMeta<R, O>;
  check(artifacts: RuleArtifacts<R, O>): CheckOutcome;
}

/** Lets each rule file be checked against its own declared artifacts. */
export function defineRule<R extends ArtifactName, O extends ArtifactName = never>(rule: Rule<R, O>): Rule<R, O> {
  return rule;
}

/** Erased form the engine iterates over. */
export interface AnyRule {
  meta: RuleMeta<ArtifactName, ArtifactName>;
  check(artifacts: Partial<ArtifactMap>): CheckOutcome;
}

/** Helpers for outcomes, so rule bodies read as sentences. */
export const fired = (findings: FindingDraft[]): CheckOutcome =>
  findings.length > 0 ? { status: 'fired', findings } : { status: 'passed', message: 'No finding.' };
export const passed = (message: string): CheckOutcome => ({ status: 'passed', message });
export const notApplicable = (message: string): CheckOutcome => ({ status: 'not-applicable', message });
