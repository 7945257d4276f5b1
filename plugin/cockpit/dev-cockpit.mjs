#!/usr/bin/env node
// `npm run cockpit`: the Cockpit page from this checkout, for the current user, in one command.
//   1. builds the UI when stale (scripts/ensure-ui.mjs) and the Cockpit package from it
//      (build-cockpit.mjs) into dist/cockpit/zfs-advisor;
//   2. registers it for this user: ~/.local/share/cockpit/zfs-advisor -> that directory (Cockpit
//      reads user packages there, $XDG_DATA_HOME/cockpit), and points the page at the server
//      `npm start` runs (its Unix socket, api.sock in the user's state directory, which `start`
//      listens on) through a config override, ~/.config/cockpit/zfs-advisor.override.json, naming
//      dist/cockpit/zfs-advisor.conf;
//   3. prints the URL.
// Options: --port N (the server's port), --force (replace a package or override this script did
// not write), --unregister (remove both again). Nothing outside the user's home and dist/ changes.
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, userInfo } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const args = process.argv.slice(2);
const flag = (n) => args.includes(n);
const value = (n) => { const i = args.indexOf(n); return i >= 0 ? args[i + 1] : undefined; };
const fail = (msg, code = 1) => { process.stderr.write(`npm run cockpit: ${msg}\n`); process.exit(code); };

const xdg = (name, fallback) => (process.env[name] && isAbsolute(process.env[name]) ? process.env[name] : join(homedir(), ...fallback));
const packageLink = join(xdg('XDG_DATA_HOME', ['.local', 'share']), 'cockpit', 'zfs-advisor');
const override = join(xdg('XDG_CONFIG_HOME', ['.config']), 'cockpit', 'zfs-advisor.override.json');
const out = join(root, 'dist', 'cockpit');
const pkg = join(out, 'zfs-advisor');
const conf = join(out, 'zfs-advisor.conf');
// `npm start` keeps its data in the user's state directory and listens on a Unix socket there;
// Cockpit's bridge runs as the user who logs in, who owns that socket.
const socket = join(xdg('XDG_STATE_HOME', ['.local', 'state']), 'zfs-advisor', 'api.sock');

/** Ours: a symlink into some checkout's dist/cockpit, or an override naming such a conf file. */
const isOurLink = (p) => lstatSync(p).isSymbolicLink() && /[/\\]dist[/\\]cockpit[/\\]zfs-advisor$/.test(readlinkSync(p));
const isOurOverride = (p) => {
  try { return /[/\\]dist[/\\]cockpit[/\\]zfs-advisor\.conf$/.test(JSON.parse(readFileSync(p, 'utf8'))?.config?.serverConf ?? ''); } catch { return false; }
};
const exists = (p) => { try { lstatSync(p); return true; } catch { return false; } };

if (flag('--unregister')) {
  if (exists(packageLink) && (isOurLink(packageLink) || flag('--force'))) rmSync(packageLink, { recursive: true, force: true });
  if (exists(override) && (isOurOverride(override) || flag('--force'))) rmSync(override, { force: true });
  process.stdout.write(`Removed the ZFS Advisor page from ${userInfo().username}'s Cockpit.\n`);
  process.exit(0);
}

const portText = value('--port') ?? process.env.ZFS_ADVISOR_PORT ?? '8080';
const port = Number(portText);
if (!Number.isInteger(port) || port < 1 || port > 65535) fail(`--port "${portText}" is not a TCP port from 1 to 65535`, 64);
if (exists(packageLink) && !isOurLink(packageLink) && !flag('--force')) fail(`${packageLink} exists and was not made by this script (a package installed there?); remove it or give --force`);
if (exists(override) && !isOurOverride(override) && !flag('--force')) fail(`${override} exists and was not written by this script; remove it or give --force`);

execFileSync(process.execPath, [join(root, 'scripts', 'ensure-ui.mjs')], { stdio: 'inherit' });
execFileSync(process.execPath, [join(here, 'build-cockpit.mjs'), '--out', pkg], { stdio: ['ignore', 'ignore', 'inherit'] });
writeFileSync(conf, [
  '# Written by `npm run cockpit`: the server the Cockpit page talks to (what `npm start` runs).',
  `ZFS_ADVISOR_SOCKET=${socket}`,
  `ZFS_ADVISOR_PORT=${port}`,
  'ZFS_ADVISOR_EXTRA_ARGS=',
  '',
].join('\n'));

mkdirSync(dirname(packageLink), { recursive: true });
rmSync(packageLink, { recursive: true, force: true });
symlinkSync(pkg, packageLink);
mkdirSync(dirname(override), { recursive: true });
writeFileSync(override, `${JSON.stringify({ config: { serverConf: conf } }, null, 2)}\n`);

const cockpitHere = existsSync('/usr/share/cockpit/base1') || existsSync('/usr/lib/cockpit/cockpit-ws') || existsSync('/usr/libexec/cockpit-ws');
process.stdout.write([
  `Registered the ZFS Advisor page for ${userInfo().username}: ${packageLink} -> ${pkg}`,
  `It talks to the server \`npm start\` runs through its socket ${socket} (${conf}); start it with: npm start${port === 8080 ? '' : ` (with ZFS_ADVISOR_PORT=${port})`}`,
  `Open https://localhost:9090/zfs-advisor and log in as ${userInfo().username} (Cockpit reads the page at login; log out and in again if it was open).`,
  ...(cockpitHere ? [] : ['Cockpit is not installed on this machine: apt install cockpit (Debian, Ubuntu, Proxmox VE), then open the URL.']),
  'Remove it again with: npm run cockpit -- --unregister',
  '',
].join('\n'));
