#!/usr/bin/env node
// The `zfs-advisor` command. The sources are TypeScript run through tsx's loader, so
// `npx zfs-advisor` works right after `npm ci` with no build step.
// `start` (what `npm start` runs) uses the esbuild bundle dist/server.mjs when `prestart` built it
// and it is newer than every source: same code, ~50 MB less memory than compiling through tsx.
import { pathToFileURL } from 'node:url';

if (process.argv[2] === 'start') {
  const { bundleIsFresh, BUNDLE_FILE } = await import('../../scripts/build-server.mjs').catch(() => ({ bundleIsFresh: () => false, BUNDLE_FILE: '' }));
  if (bundleIsFresh()) {
    await import(pathToFileURL(BUNDLE_FILE).href);
  } else {
    await runWithTsx();
  }
} else {
  await runWithTsx();
}

// `zfs-advisor … | head` closes the pipe early: that is not an error.
process.stdout.on('error', (err) => { if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0); else throw err; });

async function runWithTsx() {
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('../src/cli/main.ts');
  process.exitCode = await main(process.argv.slice(2));
}
