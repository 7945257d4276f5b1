/**
 * `zfs-advisor` entry point: dispatches to one module per subcommand.
 * Contract: JSON on stdout with exit 0; unreadable input → exit 2 and one line on stderr naming
 * the file (and line), never a stack trace. Usage errors → exit 64.
 */
import type { CliCommand, CliIO } from './command.ts';

/** Subcommands, loaded on demand so `zfs-advisor parse` does not load the server or fio code. */
const COMMANDS: Record<string, () => Promise<{ default: CliCommand }>> = {
  parse: () => import('./commands/parse.ts'),
  inventory: () => import('./commands/inventory.ts'),
  capture: () => import('./commands/capture.ts'),
  assess: () => import('./commands/assess.ts'),
  optane: () => import('./commands/optane.ts'),
  forecast: () => import('./commands/forecast.ts'),
  bench: () => import('./commands/bench.ts'),
  observe: () => import('./commands/observe.ts'),
  sizes: () => import('./commands/sizes.ts'),
  plan: () => import('./commands/plan.ts'),
  report: () => import('./commands/report.ts'),
  serve: () => import('./commands/serve.ts'),
  start: () => import('./commands/start.ts'),
};

const defaultIO: CliIO = {
  stdout: (s) => { process.stdout.write(s); },
  stderr: (s) => { process.stderr.write(s); },
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  isTTY: Boolean(process.stdout.isTTY),
};

function usage(io: CliIO, summaries: Record<string, string>): void {
  io.stderr('usage: zfs-advisor <command> [options]\n\ncommands:\n');
  for (const [name, s] of Object.entries(summaries)) io.stderr(`  ${name.padEnd(10)} ${s}\n`);
}

export async function main(argv: string[], io: CliIO = defaultIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const summaries: Record<string, string> = {};
    for (const [n, load] of Object.entries(COMMANDS)) {
      try { summaries[n] = (await load()).default.summary; } catch { /* not built in this version */ }
    }
    usage(io, summaries);
    return name ? 0 : 64;
  }
  if (name === '--version' || name === '-V') {
    io.stdout(`${(await import('../version.ts')).APP_VERSION}\n`);
    return 0;
  }
  const load = COMMANDS[name];
  if (!load) {
    io.stderr(`zfs-advisor: unknown command "${name}" (try --help)\n`);
    return 64;
  }
  let cmd: CliCommand;
  try {
    cmd = (await load()).default;
  } catch (err) {
    io.stderr(`zfs-advisor: command "${name}" is not available: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\n`);
    return 70;
  }
  try {
    return await cmd.run(rest, io);
  } catch (err) {
    // Last line of defence: one line, no stack trace.
    io.stderr(`zfs-advisor ${name}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}\n`);
    return 1;
  }
}
