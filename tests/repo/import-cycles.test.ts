/**
 * No import cycles in server/, rules/, ui/ and scripts/ (issue 26 §9: the CLI's definitions and
 * handlers imported each other). Every import counts, type-only and dynamic ones too; the graph is
 * read with TypeScript's own scanner (tests/support/import-graph.ts). The detector is first shown
 * to find cycles in a small tree of its own, so a pass means something.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCycles, importGraph } from '../support/import-graph.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const tmp = mkdtempSync(join(tmpdir(), 'zfsa-cycles-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('import cycles', () => {
  it('the detector finds a type-only circle, a dynamic one and one through a .vue file', () => {
    mkdirSync(join(tmp, 'a', 'sub'), { recursive: true });
    writeFileSync(join(tmp, 'a', 'def.ts'), "export default { load: () => import('./sub/cmd.ts') };\n");
    writeFileSync(join(tmp, 'a', 'sub', 'cmd.ts'), "import type { X } from '../def.ts';\nexport const run = 1;\n");
    writeFileSync(join(tmp, 'a', 'View.vue'), "<script setup lang=\"ts\">\nimport { f } from './util.ts';\n</script>\n<template><p/></template>\n");
    writeFileSync(join(tmp, 'a', 'util.ts'), "import View from './View.vue';\nexport const f = View;\n");
    writeFileSync(join(tmp, 'a', 'free.ts'), "import { run } from './sub/cmd.ts';\nimport 'zod';\nexport const y = run;\n");
    expect(importCycles(importGraph([join(tmp, 'a')]), tmp)).toEqual([
      ['a/def.ts', 'a/sub/cmd.ts'],
      ['a/View.vue', 'a/util.ts'],
    ]);
  });

  it('there are none in the project', () => {
    const graph = importGraph(['server', 'rules', 'ui', 'scripts'].map((d) => join(ROOT, d)));
    expect(graph.size).toBeGreaterThan(300);
    expect(importCycles(graph, ROOT)).toEqual([]);
  });
});
