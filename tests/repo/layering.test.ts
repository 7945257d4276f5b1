/**
 * Imports run one way between the work layer and the HTTP layer (issue 38 §6): no file under
 * server/src/jobs/ imports anything under server/src/api/ (type-only and dynamic imports count).
 * Jobs throw domain errors (model/jobs.ts) and take their types from model/; the routes map them
 * to status codes. The check is first shown to catch such an import in a small tree of its own.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importGraph } from '../support/import-graph.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'zfsa-layers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** "from -> to" for every import of a file under `fromDir` that lands under `toDir` (paths relative to `root`). */
function crossings(root: string, fromDir: string, toDir: string): string[] {
  const rel = (p: string) => relative(root, p).split(sep).join('/');
  const out: string[] = [];
  for (const [file, deps] of importGraph([join(root, fromDir)])) {
    if (!rel(file).startsWith(`${fromDir}/`)) continue;
    for (const d of deps) if (rel(d).startsWith(`${toDir}/`)) out.push(`${rel(file)} -> ${rel(d)}`);
  }
  return out.sort();
}

describe('layering: jobs/ speaks the domain, api/ speaks HTTP', () => {
  it('the check finds a type-only and a dynamic import from jobs into api', () => {
    mkdirSync(join(tmp, 'src', 'jobs'), { recursive: true });
    mkdirSync(join(tmp, 'src', 'api'), { recursive: true });
    mkdirSync(join(tmp, 'src', 'model'), { recursive: true });
    writeFileSync(join(tmp, 'src', 'api', 'errors.ts'), 'export class HttpError extends Error {}\n');
    writeFileSync(join(tmp, 'src', 'model', 'jobs.ts'), 'export class JobError extends Error {}\n');
    writeFileSync(join(tmp, 'src', 'jobs', 'a.ts'), "import type { HttpError } from '../api/errors.ts';\nimport { JobError } from '../model/jobs.ts';\nexport type X = HttpError | JobError;\n");
    writeFileSync(join(tmp, 'src', 'jobs', 'b.ts'), "export const load = () => import('../api/errors.ts');\n");
    writeFileSync(join(tmp, 'src', 'jobs', 'c.ts'), "import { JobError } from '../model/jobs.ts';\nexport const e = new JobError();\n");
    expect(crossings(tmp, 'src/jobs', 'src/api')).toEqual(['src/jobs/a.ts -> src/api/errors.ts', 'src/jobs/b.ts -> src/api/errors.ts']);
  });

  it('no file under server/src/jobs/ imports from server/src/api/', () => {
    expect(importGraph([join(ROOT, 'server', 'src', 'jobs')]).size).toBeGreaterThan(10);
    expect(crossings(ROOT, 'server/src/jobs', 'server/src/api')).toEqual([]);
  });
});
