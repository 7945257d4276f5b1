/**
 * `zfs-advisor parse KIND [FILE|-]`: one raw output → JSON on stdout (the README "CLI contract").
 * Unreadable input → exit 2 and ONE line on stderr naming the file and line.
 */
import { readFile } from 'node:fs/promises';
import { EXIT, type Handler } from '../command.ts';
import type { options } from '../defs/parse.ts';
import type { PARSE_KIND_NAMES } from '../defs/parse.ts';
import { firstLine, inputError } from '../framework/errors.ts';
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
type ParseKind = (typeof PARSE_KIND_NAMES)[number];

/** Kinds and their parsers (the names are declared in defs/parse.ts; this map must have each). */
export const PARSE_KINDS: Record<ParseKind, Parser> = {
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

export const run: Handler<typeof options> = async ({ positionals }, io) => {
  const [kind, file = '-'] = positionals as [ParseKind, string?];
  const parser = PARSE_KINDS[kind];
  const name = file === '-' ? '<stdin>' : file;
  let text: string;
  try {
    text = file === '-' ? await io.stdin() : await readFile(file, 'utf8');
  } catch (e) {
    throw inputError(`${name}: cannot read (${(e as NodeJS.ErrnoException).code ?? firstLine(e)})`, 'check the file name and its permissions');
  }
  const r = parser(text);
  if (!r.ok) throw inputError(`${name}${r.error.line !== null ? `:${r.error.line}` : ''}: ${firstLine(r.error.message)}`, `is this the output of the command behind "${kind}"? (see zfs-advisor parse --help)`);
  // A partial read is still a result, but what was skipped is said, one line each (never hidden).
  for (const issue of r.issues) {
    io.stderr(`${name}${issue.line !== null ? `:${issue.line}` : ''}: warning: ${firstLine(issue.message)}\n`);
  }
  io.stdout(`${JSON.stringify(r.value, null, 2)}\n`);
  return EXIT.ok;
};
