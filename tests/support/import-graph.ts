/**
 * The import graph of the project's own TypeScript and Vue files, and its cycles. Every import
 * counts: static, type-only, re-exports and `import()` (a type-only circle still ties two modules
 * together for the reader and the compiler). Specifiers are read by TypeScript's own scanner
 * (`ts.preProcessFile`); relative ones are resolved to files, package imports are outside the graph.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const EXTS = ['.ts', '.mts', '.vue', '.mjs', '.js'];

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name === 'dist' || e.name.startsWith('.')) return [];
    const p = join(dir, e.name);
    return e.isDirectory() ? filesUnder(p) : EXTS.some((x) => e.name.endsWith(x)) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** The source a scanner should read: a .vue file's <script> blocks, else the file. */
function sourceOf(file: string): string {
  const text = readFileSync(file, 'utf8');
  if (!file.endsWith('.vue')) return text;
  return [...text.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]).join('\n');
}

function resolveSpecifier(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  const candidates = [base, ...EXTS.map((x) => base + x), ...EXTS.map((x) => join(base, `index${x}`))];
  // `./x.js` written for a TypeScript file x.ts.
  if (/\.m?js$/.test(base)) candidates.push(base.replace(/\.(m?)js$/, '.$1ts'));
  return candidates.find((c) => existsSync(c) && statSync(c).isFile()) ?? null;
}

/** file → the project files it imports (absolute paths). */
export function importGraph(roots: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of roots.flatMap(filesUnder)) {
    const info = ts.preProcessFile(sourceOf(file), true, true);
    const deps = info.importedFiles.map((f) => resolveSpecifier(file, f.fileName)).filter((x): x is string => x !== null);
    graph.set(file, [...new Set(deps)]);
  }
  return graph;
}

/** Every strongly connected component with more than one file (or a file importing itself), as paths relative to `base`. */
export function importCycles(graph: Map<string, string[]>, base: string): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do { w = stack.pop()!; on.delete(w); scc.push(w); } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.map((f) => relative(base, f)).sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
