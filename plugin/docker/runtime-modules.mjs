#!/usr/bin/env node
// Copies the packages the server bundle leaves external (better-sqlite3, pdfkit: native code and
// font files) and everything they depend on from ./node_modules to OUT — all the runtime needs:
// the rest (express, zod, vue, tsx …) is inside dist/ or only builds the UI.
//   node plugin/docker/runtime-modules.mjs OUT better-sqlite3 pdfkit
import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const [out, ...roots] = process.argv.slice(2);
if (!out || roots.length === 0) { process.stderr.write('usage: runtime-modules.mjs OUT PACKAGE…\n'); process.exit(64); }
const seen = new Set();
const visit = (name) => {
  if (seen.has(name)) return;
  const dir = join('node_modules', name);
  if (!existsSync(join(dir, 'package.json'))) return; // an optional dependency not installed here
  seen.add(name);
  const p = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  for (const d of Object.keys({ ...p.dependencies, ...p.optionalDependencies })) visit(d);
};
for (const r of roots) {
  if (!existsSync(join('node_modules', r, 'package.json'))) { process.stderr.write(`runtime-modules.mjs: ${r} is not installed\n`); process.exit(1); }
  visit(r);
}
for (const name of seen) cpSync(join('node_modules', name), join(out, name), { recursive: true });
process.stdout.write(`${seen.size} packages to ${out}\n`);
