/**
 * Entry of the production bundle `dist/server.mjs` (built by `scripts/build-server.mjs`):
 * `node dist/server.mjs start|serve [options]` behaves exactly like `zfs-advisor start|serve`,
 * with the same exit codes. Only the server commands are bundled; the CLI stays on tsx.
 */
import type { CliCommand, CliIO } from '../cli/command.ts';
import { EXIT } from '../cli/command.ts';
import serve from '../cli/commands/serve.ts';
import start from '../cli/commands/start.ts';

const COMMANDS: Record<string, CliCommand> = { serve, start };

const io: CliIO = {
  stdout: (s) => { process.stdout.write(s); },
  stderr: (s) => { process.stderr.write(s); },
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  isTTY: Boolean(process.stdout.isTTY),
};

const [name, ...rest] = process.argv.slice(2);
const cmd = name === undefined ? undefined : COMMANDS[name];
if (!cmd) {
  process.stderr.write(`usage: node dist/server.mjs start|serve [options] (other commands: zfs-advisor <command>)\n`);
  process.exitCode = EXIT.usage;
} else {
  process.exitCode = await cmd.run(rest, io);
}
