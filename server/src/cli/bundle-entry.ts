/**
 * Entry of the CLI bundle `dist/cli.mjs` (scripts/build-server.mjs): `node dist/cli.mjs COMMAND …`
 * is `zfs-advisor COMMAND …`. server/bin/zfs-advisor.js imports it when it is fresh.
 */
import { main } from './main.ts';

// `zfs-advisor … | head` closes the pipe early: that is not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
process.exitCode = await main(process.argv.slice(2));
