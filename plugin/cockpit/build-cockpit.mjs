#!/usr/bin/env node
// Builds the Cockpit package (the "ZFS Advisor" page in Cockpit's menu) from the built UI:
//   node plugin/cockpit/build-cockpit.mjs --out DIR [--ui ui/dist]
// DIR gets manifest.json, the UI's assets, and an index.html that loads Cockpit's own
// cockpit.js (../base1/cockpit.js) and the manifests (../manifests.js) before the app, so the
// app finds `window.cockpit` and talks to its server through Cockpit's bridge (ui/src/api/cockpit.ts).
// Installed as /usr/share/cockpit/zfs-advisor/ by the .deb; for one user, ~/.local/share/cockpit/zfs-advisor/.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] ? args[i + 1] : fallback;
};
const ui = resolve(opt('--ui', join(here, '..', '..', 'ui', 'dist')));
const out = opt('--out', null);
if (!out) {
  process.stderr.write('usage: build-cockpit.mjs --out DIR [--ui ui/dist]\n');
  process.exit(64);
}
const index = join(ui, 'index.html');
if (!existsSync(index)) {
  process.stderr.write(`build-cockpit.mjs: ${index} is missing: build the UI first (npm run build:ui)\n`);
  process.exit(1);
}

const html = readFileSync(index, 'utf8');
// Cockpit's scripts go first and are classic scripts: the app's module script runs after them.
const cockpitScripts = '<script src="../base1/cockpit.js"></script>\n    <script src="../manifests.js"></script>\n    ';
const at = html.search(/<script\b/);
if (at < 0) {
  process.stderr.write('build-cockpit.mjs: the UI index.html has no <script>\n');
  process.exit(1);
}
const page = html.slice(0, at) + cockpitScripts + html.slice(at);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
cpSync(ui, out, { recursive: true });
writeFileSync(join(out, 'index.html'), page);
cpSync(join(here, 'manifest.json'), join(out, 'manifest.json'));
process.stdout.write(`cockpit package in ${out}\n`);
