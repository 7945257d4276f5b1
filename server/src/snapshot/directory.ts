/**
 * Reading and writing snapshot directories. Layout (README "Snapshot format"): one file per raw
 * output, at most one level of sub-directories (`smartctl/`, `nvme/`, `diskinfo/`), and
 * `meta.json` recording each file's command, exit code and stderr.
 */
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { SnapshotMeta, SNAPSHOT_FORMAT_VERSION, type SnapshotFileMeta } from './meta.ts';
import type { RawSet } from './raw-set.ts';

/** Files in a snapshot directory that are documentation, not raw outputs. */
const NOT_RAW = new Set(['meta.json', 'PROVENANCE.md', 'README.md']);
/** A raw output larger than this is not a command output we know; it is skipped with a note. */
export const MAX_RAW_FILE_BYTES = 64 * 1024 * 1024;
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._:@+-]*(\/[A-Za-z0-9][A-Za-z0-9._:@+-]*)?$/;

/** Whether a raw file name is safe to write under a snapshot directory (no `..`, no absolute paths). */
export const isSafeRawName = (name: string): boolean => SAFE_NAME.test(name) && !name.split('/').includes('..');

export interface SnapshotReadResult {
  meta: SnapshotMeta;
  raw: RawSet;
  /** Files that could not be used (too large, unreadable, bad meta.json), one line each. */
  notes: string[];
  /** False when meta.json was absent: capturedAt etc. are then unknown. */
  hadMeta: boolean;
}

export type SnapshotRead = { ok: true; value: SnapshotReadResult } | { ok: false; error: string };

async function listFiles(dir: string, prefix = '', depth = 0): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory() && depth === 0) out.push(...await listFiles(dir, rel, 1));
    else if (e.isFile()) out.push(rel);
  }
  return out.sort();
}

/** Reads a snapshot directory into a RawSet. Never throws: a missing directory is an error value. */
export async function readSnapshot(dir: string): Promise<SnapshotRead> {
  try {
    if (!(await stat(dir)).isDirectory()) return { ok: false, error: `${dir}: not a directory` };
  } catch {
    return { ok: false, error: `${dir}: no such snapshot directory` };
  }
  const notes: string[] = [];
  let meta: SnapshotMeta = SnapshotMeta.parse({ capturedAt: 'unknown', hostname: null, platform: null });
  let hadMeta = false;
  try {
    const text = await readFile(join(dir, 'meta.json'), 'utf8');
    hadMeta = true;
    try {
      const m = SnapshotMeta.safeParse(JSON.parse(text));
      if (m.success) meta = m.data;
      else notes.push(`meta.json: not a snapshot meta file (${m.error.issues[0]?.path.join('.') ?? ''}: ${m.error.issues[0]?.message ?? 'invalid'})`);
    } catch (e) {
      notes.push(`meta.json: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
  } catch { /* no meta.json: a bare directory of outputs is allowed */ }

  const raw: RawSet = {};
  let files: string[];
  try { files = await listFiles(dir); } catch (e) { return { ok: false, error: `${dir}: ${e instanceof Error ? e.message : String(e)}` }; }
  // Read a few files at a time (a large host's capture has a smartctl file per drive, and one
  // read after another waited on the disk 250 times); kept in directory order.
  const wanted = files.filter((name) => !NOT_RAW.has(name));
  const read = await mapLimited(wanted, READ_CONCURRENCY, async (name): Promise<{ text: string } | { note: string }> => {
    try {
      const s = await stat(join(dir, name));
      if (s.size > MAX_RAW_FILE_BYTES) return { note: `${name}: larger than ${MAX_RAW_FILE_BYTES} bytes, skipped` };
      return { text: await readFile(join(dir, name), 'utf8') };
    } catch (e) {
      return { note: `${name}: unreadable (${e instanceof Error ? e.message : String(e)})` };
    }
  });
  wanted.forEach((name, i) => {
    const r = read[i]!;
    if ('note' in r) { notes.push(r.note); return; }
    const fm: SnapshotFileMeta | undefined = meta.files[name];
    raw[name] = { text: r.text, command: fm?.command ?? null, exitCode: fm ? fm.exitCode : null, stderr: fm?.stderr ?? '', error: fm?.error ?? null };
  });
  // Commands that ran but printed nothing (or failed) are in meta.json without a file: keep them
  // so the builder can say *why* an artifact is missing.
  for (const [name, fm] of Object.entries(meta.files)) {
    if (!(name in raw) && isSafeRawName(name)) raw[name] = { text: '', command: fm.command, exitCode: fm.exitCode, stderr: fm.stderr, error: fm.error };
  }
  return { ok: true, value: { meta, raw, notes, hadMeta } };
}

const READ_CONCURRENCY = 16;

/** `f` over `items`, at most `limit` at a time; results in the order of `items`. */
async function mapLimited<T, R>(items: readonly T[], limit: number, f: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await f(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Writes a RawSet and its meta.json. Outputs with no text (failed commands) are recorded in
 * meta.json only. File names are checked: a device name can never write outside `dir`.
 */
export async function writeSnapshot(dir: string, raw: RawSet, meta: Omit<SnapshotMeta, 'files' | 'format'>): Promise<string[]> {
  const written: string[] = [];
  const files: Record<string, SnapshotFileMeta> = {};
  await mkdir(dir, { recursive: true });
  for (const name of Object.keys(raw).sort()) {
    const r = raw[name]!;
    if (!isSafeRawName(name) || NOT_RAW.has(name)) throw new Error(`refusing to write snapshot file "${name}"`);
    files[name] = { command: r.command, exitCode: r.exitCode, stderr: r.stderr, error: r.error };
    if (r.text === '') continue;
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), r.text);
    written.push(name);
  }
  const full: SnapshotMeta = { ...meta, format: SNAPSHOT_FORMAT_VERSION, files };
  await writeFile(join(dir, 'meta.json'), `${JSON.stringify(full, null, 2)}\n`);
  return ['meta.json', ...written];
}
