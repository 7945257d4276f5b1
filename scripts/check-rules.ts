/**
 * `npm run check:rules`: the catalog's contract, in the image of ESLint's `checkRuleFiles()`.
 * Fails when a rule file lacks `tests/rules/<id>.test.ts` or that test has no valid or no invalid
 * case, when `rules/index.ts` is stale, when an id differs from its file name or repeats, when
 * meta is incomplete, or when the README's rule list is stale.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ARTIFACT_NAMES } from '../server/src/model/artifacts.ts';
import { RuleCategory, Severity } from '../server/src/model/finding.ts';
import { renderIndex, ruleFiles } from './gen-rule-index.ts';
import { README, currentBlock, loadRules, renderRulesBlock, root } from './gen-rule-docs.ts';
import type { AnyRule } from '../rules/engine/types.ts';

/** The test's `valid: [` / `invalid: [` arrays hold at least one `{` case (ruleTester data). */
const HAS_VALID = /\bvalid:\s*\[\s*\{/;
const HAS_INVALID = /\binvalid:\s*\[\s*\{/;
const VERSION = /^\d+\.\d+(\.\d+)?$/;

/** Problems with one rule's meta (empty = complete). */
export function metaProblems(file: string, rule: AnyRule | undefined): string[] {
  const id = file.replace(/\.ts$/, '');
  if (!rule || typeof rule !== 'object' || !('meta' in rule)) return [`rules/${file}: no default export with meta`];
  const m = rule.meta;
  const p: string[] = [];
  const at = `rules/${file}`;
  if (m.id !== id) p.push(`${at}: meta.id "${m.id}" differs from the file name "${id}"`);
  if (!/^[a-z0-9]+(-[a-z0-9.]+)*$/.test(m.id)) p.push(`${at}: meta.id "${m.id}" is not kebab-case`);
  if (!m.title || m.title.trim().length < 6) p.push(`${at}: meta.title missing or too short`);
  if (!RuleCategory.safeParse(m.category).success) p.push(`${at}: meta.category "${String(m.category)}" is not one of ${RuleCategory.options.join('|')}`);
  if (!Severity.safeParse(m.defaultSeverity).success) p.push(`${at}: meta.defaultSeverity "${String(m.defaultSeverity)}" is invalid`);
  if (!m.description || m.description.trim().length < 40) p.push(`${at}: meta.description missing or shorter than 40 characters`);
  else if (!/learn more: \[[^\]]+\]\(docs\/kb\/[a-z-]+\.md#[\w-]+\)/i.test(m.description)) p.push(`${at}: meta.description lacks a "Learn more: [page](docs/kb/PAGE.md#section)" link`);
  if (!Array.isArray(m.citations) || m.citations.length === 0) p.push(`${at}: meta.citations is empty`);
  else m.citations.forEach((c, i) => {
    if (!c.source || c.source.trim() === '') p.push(`${at}: meta.citations[${i}] has no source`);
    if (!c.url) p.push(`${at}: meta.citations[${i}] (${c.source}) has no link`);
  });
  if (!Array.isArray(m.requiredArtifacts)) p.push(`${at}: meta.requiredArtifacts missing`);
  for (const a of [...(m.requiredArtifacts ?? []), ...(m.optionalArtifacts ?? [])]) {
    if (!(ARTIFACT_NAMES as readonly string[]).includes(a)) p.push(`${at}: unknown artifact "${a}"`);
  }
  if (!m.appliesTo) p.push(`${at}: meta.appliesTo missing`);
  else for (const v of [m.appliesTo.minVersion, m.appliesTo.maxVersion]) if (v !== null && !VERSION.test(v)) p.push(`${at}: appliesTo version "${v}" is not major.minor`);
  if (typeof rule.check !== 'function') p.push(`${at}: check() missing`);
  return p;
}

/** Problems with one rule's test file (empty = it exists and has valid and invalid cases). */
export function testProblems(id: string, testText: string | null): string[] {
  const at = `tests/rules/${id}.test.ts`;
  if (testText === null) return [`${at}: missing (every rule needs its RuleTester test)`];
  const p: string[] = [];
  if (!/\bruleTester\s*\(/.test(testText)) p.push(`${at}: does not call ruleTester()`);
  if (!HAS_VALID.test(testText)) p.push(`${at}: has no valid case`);
  if (!HAS_INVALID.test(testText)) p.push(`${at}: has no invalid case`);
  return p;
}

export async function checkRules(): Promise<string[]> {
  const files = ruleFiles();
  const problems: string[] = [];
  const indexPath = join(root, 'rules', 'index.ts');
  const index = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : '';
  if (index !== renderIndex(files)) problems.push('rules/index.ts is stale: run `npm run gen:rules`');

  const rules = await loadRules(files);
  const seen = new Map<string, string>();
  for (const { file, rule } of rules) {
    problems.push(...metaProblems(file, rule));
    const id = file.replace(/\.ts$/, '');
    const prev = rule?.meta?.id ? seen.get(rule.meta.id) : undefined;
    if (prev) problems.push(`rules/${file}: id "${rule!.meta.id}" already used by rules/${prev}`);
    if (rule?.meta?.id) seen.set(rule.meta.id, file);
    const testPath = join(root, 'tests', 'rules', `${id}.test.ts`);
    problems.push(...testProblems(id, existsSync(testPath) ? readFileSync(testPath, 'utf8') : null));
  }

  const readme = readFileSync(README, 'utf8');
  const block = currentBlock(readme);
  const metas = rules.flatMap((r) => (r.rule?.meta ? [r.rule.meta] : []));
  if (block === null) problems.push('README.md: rule list markers <!-- rules:start --> / <!-- rules:end --> missing');
  else if (block !== renderRulesBlock(metas)) {
    const missing = metas.filter((m) => !block.includes(`\`${m.id}\``)).map((m) => m.id);
    problems.push(`README.md: rule list is stale${missing.length ? ` (missing: ${missing.join(', ')})` : ''}: run \`npx tsx scripts/gen-rule-docs.ts\``);
  }
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = await checkRules();
  for (const p of problems) console.error(p);
  console.log(problems.length === 0 ? `check:rules: ${ruleFiles().length} rules OK` : `check:rules: ${problems.length} problem(s)`);
  process.exit(problems.length === 0 ? 0 : 1);
}
