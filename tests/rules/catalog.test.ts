/**
 * The rule catalog's contract (`npm run check:rules`), plus the checks themselves on inputs that
 * must fail, so a broken checker cannot pass silently.
 */
import { describe, expect, it } from 'vitest';
import { checkRules, metaProblems, testProblems } from '../../scripts/check-rules.ts';
import { currentBlock, firstSentence, renderRulesBlock, replaceBlock, START, END } from '../../scripts/gen-rule-docs.ts';
import type { AnyRule } from '../../rules/engine/types.ts';
import noRedundancy from '../../rules/no-redundancy.ts';

const good = noRedundancy as unknown as AnyRule;
const withMeta = (patch: Partial<AnyRule['meta']>): AnyRule => ({ ...good, meta: { ...good.meta, ...patch } });

describe('rule catalog', () => {
  it('every rule has its test, complete meta, a fresh index and a fresh README line', async () => {
    expect(await checkRules()).toEqual([]);
  });
});

describe('check-rules detects', () => {
  it('a complete rule as fine', () => {
    expect(metaProblems('no-redundancy.ts', good)).toEqual([]);
  });
  it('an id that differs from the file name', () => {
    expect(metaProblems('no-redundancy.ts', withMeta({ id: 'no-redundancy-2' }))[0]).toMatch(/differs from the file name/);
  });
  it('missing citations, description, category', () => {
    const p = metaProblems('no-redundancy.ts', withMeta({ citations: [], description: 'short', category: 'misc' as AnyRule['meta']['category'] }));
    expect(p.join('\n')).toMatch(/citations is empty/);
    expect(p.join('\n')).toMatch(/description missing or shorter/);
    expect(p.join('\n')).toMatch(/category "misc"/);
  });
  it('an unknown artifact name and a bad version bound', () => {
    const p = metaProblems('no-redundancy.ts', withMeta({ requiredArtifacts: ['Pools', 'Pool' as 'Pools'], appliesTo: { minVersion: 'two', maxVersion: null } }));
    expect(p.join('\n')).toMatch(/unknown artifact "Pool"/);
    expect(p.join('\n')).toMatch(/version "two"/);
  });
  it('a module without a rule', () => {
    expect(metaProblems('x.ts', undefined)[0]).toMatch(/no default export/);
  });
  it('a missing test, and tests without valid or invalid cases', () => {
    expect(testProblems('x', null)[0]).toMatch(/missing/);
    expect(testProblems('x', 'ruleTester(rule, { valid: [], invalid: [{ name: "a" }] })')).toEqual(['tests/rules/x.test.ts: has no valid case']);
    expect(testProblems('x', 'ruleTester(rule, { valid: [{ name: "a" }], invalid: [] })')).toEqual(['tests/rules/x.test.ts: has no invalid case']);
    expect(testProblems('x', 'it("works", () => {})').length).toBe(3);
  });
});

describe('README rule list', () => {
  const block = renderRulesBlock([good.meta]);
  it('has one line per rule: id — title (category, severity) + first sentence', () => {
    expect(block.split('\n')).toEqual([
      START,
      '- `no-redundancy` — Data vdevs without redundancy (redundancy, warning). A top-level data vdev made of a single disk or file survives no device failure, and a pool dies with its weakest top-level vdev: one failed disk loses every dataset in the pool.',
      END,
    ]);
  });
  it('replaces only the marked block, and reports missing markers', () => {
    const readme = `# X\n\n${START}\nold\n${END}\ntail\n`;
    const next = replaceBlock(readme, block)!;
    expect(next.startsWith('# X\n\n')).toBe(true);
    expect(next.endsWith('\ntail\n')).toBe(true);
    expect(currentBlock(next)).toBe(block);
    expect(replaceBlock('# no markers', block)).toBeNull();
  });
  it('cuts the first sentence, not at abbreviations or version numbers', () => {
    expect(firstSentence('Default 16K since 2.2. Learn more: x.')).toBe('Default 16K since 2.2.');
    expect(firstSentence('Use e.g. lz4 here. More.')).toBe('Use e.g. lz4 here.');
    expect(firstSentence('No period at all')).toBe('No period at all');
  });
});
