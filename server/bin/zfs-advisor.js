#!/usr/bin/env node
// The `zfs-advisor` command. It runs the esbuild bundle dist/cli.mjs when that is newer than every
// source (built by `npm ci` through the prepare script, by `npm start`, and in the .deb): plain
// JavaScript, no compiler in the process. Otherwise (a checkout whose sources changed since the
// build, or no build) it runs the TypeScript sources through tsx, as in development.
// ZFS_ADVISOR_TSX=1 forces the sources.
import { pathToFileURL } from 'node:url';

const fresh = process.env.ZFS_ADVISOR_TSX === '1'
  ? null
  : await import('../../scripts/build-server.mjs').then((m) => (m.bundleIsFresh() ? m.CLI_BUNDLE_FILE : null), () => null);

if (fresh) {
  await import(pathToFileURL(fresh).href);
} else {
  // `zfs-advisor … | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (err) => { if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0); else throw err; });
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/cli/main.ts');
  process.exitCode = await main(process.argv.slice(2));
}
