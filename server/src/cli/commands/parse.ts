/**
 * `zfs-advisor parse <kind> [FILE|-]`: one raw output → JSON on stdout (the README "CLI contract").
 * Unreadable input → exit 2 and ONE line on stderr naming the file and line.
 */
import { readFile } from 'node:fs/promises';
import { EXIT, type CliCommand } from '../command.ts';
import type { ParseOutcome } from '../../parsers/common.ts';
import {
  parseZdbConfig, parseZfsGet, parseZfsVersion, parseZpoolGet, parseZpoolList, parseZpoolStatus, parseZpoolStatusJson,
} from '../../parsers/zfs.ts';
import {
  parseDiskinfo, parseFio, parseKstat, parseLsblk, parseNvmeList, parseNvmeSmartLog, parseSmartctl, parseZpoolIostat,
  toFioContract, toSmartctlContract,
} from '../../parsers/devices.ts';

type Parser = (text: string) => ParseOutcome<unknown>;
const map = <T, U>(p: (t: string) => ParseOutcome<T>, f: (v: T) => U): Parser => (t) => {
  const r = p(t);
  return r.ok ? { ...r, value: f(r.value) } : r;
};

/** Kinds and their parsers. zpool-status reads the text and the `-j` JSON alike. */
export const PARSE_KINDS: Record<string, Parser> = {
  'zpool-status': (t) => (t.trimStart().startsWith('{') ? parseZpoolStatusJson(t) : parseZpoolStatus(t)),
  'zpool-list': (t) => parseZpoolList(t),
  'zpool-get': parseZpoolGet,
  'zpool-iostat': (t) => parseZpoolIostat(t),
  'zfs-get': parseZfsGet,
  'zfs-version': parseZfsVersion,
  'zdb-C': parseZdbConfig,
  smartctl: map((t) => parseSmartctl(t), toSmartctlContract),
  'nvme-list': parseNvmeList,
  'nvme-smart-log': parseNvmeSmartLog,
  lsblk: parseLsblk,
  fio: map(parseFio, toFioContract),
  diskinfo: parseDiskinfo,
  'kstat-zil': (t) => parseKstat(t, 'zil'),
  arcstats: (t) => parseKstat(t, 'arcstats'),
};

const command: CliCommand = {
  summary: `parse one command output: ${Object.keys(PARSE_KINDS).join(', ')} [FILE|-]`,
  async run(args, io) {
    const [kind, file = '-', ...extra] = args;
    const parser = kind ? PARSE_KINDS[kind] : undefined;
    if (!kind || !parser || extra.length > 0) {
      io.stderr(`usage: zfs-advisor parse <${Object.keys(PARSE_KINDS).join('|')}> [FILE|-]\n`);
      return EXIT.usage;
    }
    const name = file === '-' ? '<stdin>' : file;
    let text: string;
    try {
      text = file === '-' ? await io.stdin() : await readFile(file, 'utf8');
    } catch (e) {
      io.stderr(`${name}: cannot read: ${(e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e))}\n`);
      return EXIT.badInput;
    }
    const r = parser(text);
    if (!r.ok) {
      io.stderr(`${name}${r.error.line !== null ? `:${r.error.line}` : ''}: ${r.error.message.split('\n')[0]}\n`);
      return EXIT.badInput;
    }
    // A partial read is still a result, but what was skipped is said, one line each (never hidden).
    for (const issue of r.issues) {
      io.stderr(`${name}${issue.line !== null ? `:${issue.line}` : ''}: warning: ${issue.message.split('\n')[0]}\n`);
    }
    io.stdout(`${JSON.stringify(r.value, null, 2)}\n`);
    return EXIT.ok;
  },
};
export default command;
