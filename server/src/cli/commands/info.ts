/**
 * `zfs-advisor info [--data-dir D] [--json]` (options: defs/info.ts): where this installation keeps its data and why
 * (the one resolver every command and the server use), whether a store exists there, this
 * machine's evidence id, and where the knowledge pages are (text; JSON with --json).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT, type Handler } from '../command.ts';
import type { options } from '../defs/info.ts';
import { DATA_DIR_RULE, isSourceCheckout, resolveDataDir } from '../../data-dir.ts';
import { machineIdentity } from '../../host-identity.ts';
import { KB_DIR } from '../../kb/pages.ts';
import { APP_VERSION } from '../../version.ts';

export const run: Handler<typeof options> = async ({ values: o }, io) => {
  const { DB_FILE_NAME } = await import('../../store/db.ts');
  const data = resolveDataDir({ option: o['data-dir'] });
  const db = join(data.dir, DB_FILE_NAME);
  const machine = machineIdentity();
  const info = {
    version: APP_VERSION,
    dataDir: data.dir,
    dataDirSource: data.source,
    dataDirWhy: data.why,
    dataDirRule: DATA_DIR_RULE,
    sourceCheckout: isSourceCheckout(),
    database: db,
    databaseExists: existsSync(db),
    machineId: machine.id,
    machineIdSource: machine.source,
    knowledgePages: KB_DIR,
    user: process.getuid?.() ?? null,
  };
  if (o.json) {
    io.stdout(`${JSON.stringify(info, null, 2)}\n`);
    return EXIT.ok;
  }
  io.stdout([
    `ZFS Advisor ${info.version}`,
    `data directory: ${info.dataDir} (${info.dataDirWhy})`,
    `the rule:       ${info.dataDirRule}`,
    `database:       ${info.database}${info.databaseExists ? '' : ' (not created yet)'}`,
    `machine id:     ${info.machineId} (from ${info.machineIdSource}; stored with this machine's benchmarks and observations)`,
    `knowledge:      ${info.knowledgePages}`,
    '',
  ].join('\n'));
  return EXIT.ok;
};
