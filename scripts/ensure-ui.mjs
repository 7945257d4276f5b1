#!/usr/bin/env node
// `npm start`'s prestart: builds the UI when ui/dist/index.html is missing or older than any
// source under ui/ (index.html, vite.config.ts, src/**). Runs vite through its JS API: no shell.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ui = join(root, 'ui');
const built = join(ui, 'dist', 'index.html');

function newest(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let m = 0;
  for (const e of readdirSync(path)) m = Math.max(m, newest(join(path, e)));
  return m;
}

const sourcesTime = Math.max(newest(join(ui, 'src')), newest(join(ui, 'index.html')), newest(join(ui, 'vite.config.ts')));
if (existsSync(built) && statSync(built).mtimeMs >= sourcesTime) {
  process.exit(0);
}
process.stdout.write('Building the UI (ui/dist is missing or older than its sources)…\n');
try {
  const { build } = await import('vite');
  await build({ configFile: join(ui, 'vite.config.ts'), logLevel: 'warn' });
} catch (err) {
  process.stderr.write(`UI build failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
