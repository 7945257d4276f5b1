/**
 * `zfs-advisor info [--data-dir D] [--json]`: where this installation keeps its data and why
 * (the one resolver every command and the server use), whether a store exists there, this
 * machine's evidence id, and where the knowledge pages are. Text on a terminal, JSON otherwise.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { CliCommand, CliIO } from '../command.ts';
import { EXIT } from '../command.ts';
import { resolveDataDir } from '../../data-dir.ts';
import { machineIdentity } from '../../host-identity.ts';
import { KB_DIR } from '../../kb/pages.ts';
import { APP_VERSION } from '../../version.ts';

const USAGE = 'usage: zfs-advisor info [--data-dir D] [--json]\n';

async function run(args: string[], io: CliIO): Promise<number> {
  let o;
  try {
    o = parseArgs({ args, options: { 'data-dir': { type: 'string' }, json: { type: 'boolean' } }, allowPositionals: false }).values;
  } catch (e) {
    io.stderr(`zfs-advisor info: ${e instanceof Error ? e.message : String(e)}\n${USAGE}`);
    return EXIT.usage;
  }
  const { DB_FILE_NAME } = await import('../../store/db.ts');
  const data = resolveDataDir({ option: o['data-dir'] });
  const db = join(data.dir, DB_FILE_NAME);
  const machine = machineIdentity();
  const info = {
    version: APP_VERSION,
    dataDir: data.dir,
    dataDirSource: data.source,
    dataDirWhy: data.why,
    database: db,
    databaseExists: existsSync(db),
    machineId: machine.id,
    machineIdSource: machine.source,
    knowledgePages: KB_DIR,
    user: process.getuid?.() ?? null,
  };
  if (o.json || !io.isTTY) {
    io.stdout(`${JSON.stringify(info, null, 2)}\n`);
    return EXIT.ok;
  }
  io.stdout([
    `ZFS Advisor ${info.version}`,
    `data directory: ${info.dataDir} (${info.dataDirWhy})`,
    `database:       ${info.database}${info.databaseExists ? '' : ' (not created yet)'}`,
    `machine id:     ${info.machineId} (from ${info.machineIdSource}; stored with this machine's benchmarks and observations)`,
    `knowledge:      ${info.knowledgePages}`,
    '',
  ].join('\n'));
  return EXIT.ok;
}

const command: CliCommand = {
  summary: 'Where this installation keeps its data (and why), this machine\'s evidence id, the knowledge pages.',
  run,
};
export default command;
