/**
 * RuleTester in the image of ESLint's: for one rule, `valid` cases must not fire, `invalid`
 * cases must fire with the expected findings. A `needs-artifact` case is generated for every
 * required artifact, so no rule can silently guess when its evidence is missing.
 */
import { describe, expect, it } from 'vitest';
import type { Artifacts } from '../../server/src/model/artifacts.ts';
import type { Finding, RuleStatus, Severity } from '../../server/src/model/finding.ts';
import { runRule } from '../../rules/engine/engine.ts';
import type { AnyRule } from '../../rules/engine/types.ts';

export interface ValidCase {
  name: string;
  artifacts: Artifacts;
  /** passed (default) or not-applicable. */
  status?: Extract<RuleStatus, 'passed' | 'not-applicable'>;
}

export interface ExpectedFinding {
  severity?: Severity;
  subjectId?: string;
  /** Substrings that must appear in title + explanation. */
  mentions?: string[];
  /** Substrings that must appear in one of the action's commands. */
  commandIncludes?: string[];
  reversible?: 'yes' | 'no' | 'partly';
  check?: (f: Finding) => void;
}

export interface InvalidCase {
  name: string;
  artifacts: Artifacts;
  findings: ExpectedFinding[];
}

export function ruleTester(rule: { meta: AnyRule['meta'] }, cases: { valid: ValidCase[]; invalid: InvalidCase[] }): void {
  const r = rule as AnyRule;
  describe(`rule ${r.meta.id}`, () => {
    it('has complete meta', () => {
      expect(r.meta.id).toMatch(/^[a-z0-9]+(-[a-z0-9.]+)*$/);
      expect(r.meta.title.length).toBeGreaterThan(5);
      expect(r.meta.description.length).toBeGreaterThan(20);
      expect(r.meta.citations.length).toBeGreaterThan(0);
      expect(cases.valid.length).toBeGreaterThan(0);
      expect(cases.invalid.length).toBeGreaterThan(0);
    });
    for (const c of cases.valid) {
      it(`valid: ${c.name}`, () => {
        const res = runRule(r, c.artifacts);
        expect(res.message ?? '', `result was ${res.status}`).not.toMatch(/^Rule failed/);
        expect(res.findings).toEqual([]);
        expect(res.status).toBe(c.status ?? 'passed');
      });
    }
    for (const c of cases.invalid) {
      it(`invalid: ${c.name}`, () => {
        const res = runRule(r, c.artifacts);
        expect(res.status, res.message ?? '').toBe('fired');
        expect(res.findings).toHaveLength(c.findings.length);
        c.findings.forEach((exp, i) => {
          const f = res.findings[i]!;
          if (exp.severity) expect(f.severity).toBe(exp.severity);
          if (exp.subjectId) expect(f.subject.id).toBe(exp.subjectId);
          for (const m of exp.mentions ?? []) expect(`${f.title}\n${f.explanation}`).toContain(m);
          for (const m of exp.commandIncludes ?? []) expect(f.action?.commands.join('\n') ?? '').toContain(m);
          if (exp.reversible) expect(f.action?.reversible).toBe(exp.reversible);
          expect(f.citations.length).toBeGreaterThan(0);
          expect(f.evidence.length).toBeGreaterThan(0);
          exp.check?.(f);
        });
      });
    }
    // Generated: every required artifact, removed in turn from the first invalid case.
    const full = cases.invalid[0]?.artifacts ?? {};
    for (const name of r.meta.requiredArtifacts) {
      it(`needs-artifact: ${name}`, () => {
        const partial: Artifacts = { ...full };
        delete partial[name];
        const res = runRule(r, partial);
        expect(res.status).toBe('needs-artifact');
        expect(res.missing.map((m) => m.artifact)).toContain(name);
        expect(res.missing[0]!.howToGet.length).toBeGreaterThan(10);
      });
    }
  });
}
