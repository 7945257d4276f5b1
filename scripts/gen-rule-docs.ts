/**
 * Writes the README's rule list (between `<!-- rules:start -->` and `<!-- rules:end -->`) from each
 * rule's meta: one line per rule, `id` — title (category, default severity), then the first
 * sentence of its description. `npm run check:rules` fails when the block is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyRule, RuleMeta } from '../rules/engine/types.ts';
import type { ArtifactName } from '../server/src/model/artifacts.ts';
import { ruleFiles } from './gen-rule-index.ts';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const README = join(root, 'README.md');
export const START = '<!-- rules:start -->';
export const END = '<!-- rules:end -->';

type Meta = RuleMeta<ArtifactName, ArtifactName>;

/** Loads every rule file's default export, in file order. */
export async function loadRules(files: string[] = ruleFiles()): Promise<Array<{ file: string; rule: AnyRule | undefined }>> {
  const out: Array<{ file: string; rule: AnyRule | undefined }> = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(join(root, 'rules', file)).href)) as { default?: AnyRule };
    out.push({ file, rule: mod.default });
  }
  return out;
}

/** The description's first sentence (or the whole text), whitespace collapsed. */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  // A sentence ends at . ! ? followed by a space, except after abbreviations such as e.g. / i.e. / vs.
  const m = /^(.+?(?<!\be\.g|\bi\.e|\bvs)[.!?])(?=\s|$)/.exec(flat);
  return m ? m[1]! : flat;
}

export function ruleLine(meta: Meta): string {
  return `- \`${meta.id}\` — ${meta.title} (${meta.category}, ${meta.defaultSeverity}). ${firstSentence(meta.description)}`;
}

/** The full block, markers included, sorted by id. */
export function renderRulesBlock(metas: readonly Meta[]): string {
  const lines = [...metas].sort((a, b) => a.id.localeCompare(b.id)).map(ruleLine);
  return [START, ...lines, END].join('\n');
}

/** The README text with its block replaced; null when the markers are missing. */
export function replaceBlock(readme: string, block: string): string | null {
  const s = readme.indexOf(START);
  const e = readme.indexOf(END);
  if (s < 0 || e < s) return null;
  return readme.slice(0, s) + block + readme.slice(e + END.length);
}

/** The block as it stands in the README, or null. */
export function currentBlock(readme: string): string | null {
  const s = readme.indexOf(START);
  const e = readme.indexOf(END);
  return s < 0 || e < s ? null : readme.slice(s, e + END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const rules = await loadRules();
  const metas = rules.flatMap((r) => (r.rule ? [r.rule.meta] : []));
  const readme = readFileSync(README, 'utf8');
  const next = replaceBlock(readme, renderRulesBlock(metas));
  if (next === null) {
    console.error(`README.md: markers ${START} / ${END} not found`);
    process.exit(1);
  }
  if (next !== readme) writeFileSync(README, next);
  console.log(`README.md: ${metas.length} rules listed`);
}
