/**
 * `npm run bench`: runs every benchmark module in scripts/bench/*.ts and writes BENCHMARKS.md
 * with the machine and the command. Speed and memory targets live here, never in tests.
 * Each module default-exports `async () => string` returning one Markdown section.
 * `npm run bench -- sizing server` runs only the named modules; the lab's (lab-*) run only when named.
 */
import { readdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { cpus, totalmem, release, platform } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'scripts', 'bench');
const only = process.argv.slice(2);
// The lab's benchmarks (lab-*: a QEMU guest with real OpenZFS, root, about 15 minutes and more)
// run only when named: `npm run bench -- lab-advice-followed`.
const modules = readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => f.replace(/\.ts$/, ''))
  .filter((m) => (only.length === 0 ? !m.startsWith('lab-') : only.includes(m))).sort();

function machine(): string {
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  return `${cpus().length} × ${cpu}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${platform()} ${release()}, Node ${process.version}`;
}

const sections = new Map<string, string>();
// Keep sections of modules not run this time, so a partial run does not erase earlier results.
const out = join(root, 'BENCHMARKS.md');
if (existsSync(out)) {
  for (const m of readFileSync(out, 'utf8').matchAll(/<!-- bench:(\S+) -->\n([\s\S]*?)<!-- \/bench:\1 -->/g)) sections.set(m[1]!, m[2]!);
}
for (const m of modules) {
  process.stderr.write(`bench: ${m}…\n`);
  const mod = (await import(pathToFileURL(join(dir, `${m}.ts`)).href)) as { default: () => Promise<string> };
  try {
    const body = await mod.default();
    sections.set(m, `${body.trim()}\n\n_Measured ${new Date().toISOString()} on ${machine()}; command: \`npm run bench -- ${m}\`._\n`);
  } catch (err) {
    sections.set(m, `**${m}: failed** — ${err instanceof Error ? err.message : String(err)}\n`);
  }
}
const doc = [
  '# Benchmarks',
  '',
  'Written by `npm run bench` (all modules) or `npm run bench -- NAME` (one). Targets come from the issues; tests never assert timings.',
  '',
  ...[...sections.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, body]) => `<!-- bench:${name} -->\n${body.trimEnd()}\n<!-- /bench:${name} -->\n`),
].join('\n');
writeFileSync(out, doc);
process.stderr.write(`bench: wrote ${out}\n`);
