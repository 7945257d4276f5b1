/**
 * Entry of the production bundle `dist/server.mjs` (built by `scripts/build-server.mjs`):
 * `node dist/server.mjs start|serve [options]` behaves exactly like `zfs-advisor start|serve`,
 * with the same exit codes (the same CLI main, so the same options and error messages).
 */
import { EXIT } from '../cli/command.ts';
import { main } from '../cli/main.ts';

const [name] = process.argv.slice(2);
if (name !== 'serve' && name !== 'start') {
  process.stderr.write('usage: node dist/server.mjs start|serve [options] (other commands: zfs-advisor COMMAND)\n');
  process.exitCode = EXIT.usage;
} else {
  process.exitCode = await main(process.argv.slice(2));
}
