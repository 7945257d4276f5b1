/**
 * The embedded store: one SQLite file `zfs-advisor.db` in the data directory (better-sqlite3,
 * WAL, busy timeout, mode 0600), with versioned migrations from `./migrations/NNNN-name.ts`.
 *
 * Why errors are values here: a store that cannot be opened is an everyday condition on a NAS
 * (a disk filled up, another copy of the app holds the lock, a backup tool truncated the file).
 * The caller must get a sentence naming the file, and the file must be left exactly as it was:
 * this module never deletes, renames, truncates or "repairs" a database it could not read.
 */
import Database from 'better-sqlite3';
import type { Database as Db } from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { isMigration, type Migration } from './migration.ts';

export const DB_FILE_NAME = 'zfs-advisor.db';
export const DEFAULT_BUSY_TIMEOUT_MS = 5_000;
const MIGRATION_FILE = /^(\d{4})-([a-z0-9][a-z0-9-]*)\.ts$/;
const MIGRATIONS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'migrations');

export type StoreErrorCode =
  | 'data-dir' // the data directory cannot be created or written
  | 'corrupt' // not a database, or damaged
  | 'locked' // another process holds the lock longer than the busy timeout
  | 'too-new' // written by a newer version of the app (unknown migrations applied)
  | 'migration-failed' // a migration threw; its transaction was rolled back
  | 'bad-migration' // a migration file is malformed (a programming error, reported plainly)
  | 'io';

export interface StoreError {
  code: StoreErrorCode;
  /** The database file (or directory) concerned. */
  file: string;
  /** One sentence for a person, naming the file. */
  message: string;
}

export interface Store {
  db: Db;
  file: string;
  dataDir: string;
  /** Versions applied, ascending (after this open). */
  schemaVersions: number[];
  close(): void;
}

export type StoreResult = { ok: true; store: Store } | { ok: false; error: StoreError };

export interface OpenStoreOptions {
  /** Replaces the discovered migrations (tests). */
  migrations?: Migration[];
  /** Apply migrations only up to this version (tests of upgrades from an earlier schema). */
  targetVersion?: number;
  busyTimeoutMs?: number;
  /** Run `PRAGMA quick_check` on open (default true: cheap for a store of this size). */
  integrityCheck?: boolean;
}

/** Loads `./migrations/NNNN-name.ts` in version order; duplicates and mismatched names are errors. */
export async function discoverMigrations(dir: string = MIGRATIONS_DIR): Promise<{ ok: true; migrations: Migration[] } | { ok: false; message: string }> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => MIGRATION_FILE.test(n)).sort();
  } catch (err) {
    return { ok: false, message: `cannot read migrations directory ${dir}: ${errMessage(err)}` };
  }
  const migrations: Migration[] = [];
  for (const name of names) {
    const m = MIGRATION_FILE.exec(name);
    if (!m) continue;
    const mod = (await import(pathToFileURL(join(dir, name)).href)) as { default?: unknown };
    if (!isMigration(mod.default)) return { ok: false, message: `migration ${name} does not default-export {version, name, up}` };
    if (mod.default.version !== Number(m[1])) {
      return { ok: false, message: `migration ${name} declares version ${mod.default.version}, its file name says ${Number(m[1])}` };
    }
    migrations.push(mod.default);
  }
  return checkMigrationList(migrations);
}

function checkMigrationList(list: Migration[]): { ok: true; migrations: Migration[] } | { ok: false; message: string } {
  const sorted = [...list].sort((a, b) => a.version - b.version);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.version === sorted[i - 1]!.version) return { ok: false, message: `two migrations have version ${sorted[i]!.version}` };
  }
  return { ok: true, migrations: sorted };
}

/**
 * Opens (creating when absent) the store in `dataDir` and applies pending migrations.
 * Never throws for an unreadable/locked/too-new database: returns `{ok: false, error}`.
 */
export async function openStore(dataDir: string, opts: OpenStoreOptions = {}): Promise<StoreResult> {
  const file = join(dataDir, DB_FILE_NAME);
  const dirError = ensureDataDir(dataDir);
  if (dirError) return { ok: false, error: dirError };

  let migrations: Migration[];
  if (opts.migrations) {
    const checked = checkMigrationList(opts.migrations);
    if (!checked.ok) return { ok: false, error: { code: 'bad-migration', file, message: checked.message } };
    migrations = checked.migrations;
  } else {
    const found = await discoverMigrations();
    if (!found.ok) return { ok: false, error: { code: 'bad-migration', file, message: found.message } };
    migrations = found.migrations;
  }
  const knownVersions = new Set(migrations.map((m) => m.version));
  if (opts.targetVersion !== undefined) migrations = migrations.filter((m) => m.version <= opts.targetVersion!);

  // Create the file ourselves with mode 0600 so it is never readable by others, not even briefly.
  // SQLite gives the -wal and -shm files the same mode as the database file.
  if (!existsSync(file)) {
    try {
      closeSync(openSync(file, 'wx', 0o600));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        return { ok: false, error: { code: 'io', file, message: `cannot create the database ${file}: ${errMessage(err)}` } };
      }
    }
  }

  let db: Db;
  try {
    db = new Database(file, { fileMustExist: true, timeout: opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS });
  } catch (err) {
    return { ok: false, error: classify(err, file, 'open') };
  }

  const fail = (err: unknown, stage: string): StoreResult => {
    try { db.close(); } catch { /* already unusable */ }
    return { ok: false, error: classify(err, file, stage) };
  };

  // Read before anything writes: a file that is not a database fails here, untouched.
  try {
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS))}`);
    db.prepare('SELECT count(*) AS n FROM sqlite_master').get();
    if (opts.integrityCheck !== false) {
      const rows = db.pragma('quick_check') as { quick_check: string }[];
      const problems = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
      if (problems.length > 0) {
        try { db.close(); } catch { /* ignore */ }
        return { ok: false, error: { code: 'corrupt', file, message: `the database ${file} is damaged (${problems[0]}); it was left untouched — restore it from a backup or move it aside` } };
      }
    }
  } catch (err) {
    return fail(err, 'read');
  }

  let applied: number[];
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    db.pragma('synchronous = NORMAL');
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`);
    applied = (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]).map((r) => r.version);
  } catch (err) {
    return fail(err, 'prepare');
  }

  const unknown = applied.filter((v) => !knownVersions.has(v));
  if (unknown.length > 0) {
    try { db.close(); } catch { /* ignore */ }
    return {
      ok: false,
      error: {
        code: 'too-new',
        file,
        message: `the database ${file} has schema version ${Math.max(...unknown)}, which this version of zfs-advisor does not know; it was left untouched — run a newer zfs-advisor`,
      },
    };
  }

  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  const appliedSet = new Set(applied);
  for (const m of migrations) {
    if (appliedSet.has(m.version)) continue;
    const run = db.transaction(() => {
      m.up(db);
      record.run(m.version, m.name, new Date().toISOString());
    });
    try {
      // IMMEDIATE: take the write lock up front so a concurrent writer makes us wait (busy
      // timeout) rather than fail half-way.
      run.immediate();
    } catch (err) {
      const classified = classify(err, file, `migration ${String(m.version).padStart(4, '0')}-${m.name}`);
      try { db.close(); } catch { /* ignore */ }
      if (classified.code === 'locked' || classified.code === 'corrupt') return { ok: false, error: classified };
      return { ok: false, error: { code: 'migration-failed', file, message: `migration ${String(m.version).padStart(4, '0')}-${m.name} failed on ${file} and was rolled back: ${errMessage(err)}` } };
    }
    appliedSet.add(m.version);
  }

  tightenModes(file);
  const schemaVersions = [...appliedSet].sort((a, b) => a - b);
  return {
    ok: true,
    store: {
      db,
      file,
      dataDir,
      schemaVersions,
      close: () => { if (db.open) db.close(); },
    },
  };
}

/** Current schema versions recorded in an open database (for diagnostics and tests). */
export function appliedVersions(db: Db): number[] {
  return (db.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[]).map((r) => r.version);
}

function ensureDataDir(dataDir: string): StoreError | null {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (!statSync(dataDir).isDirectory()) return { code: 'data-dir', file: dataDir, message: `the data directory ${dataDir} is not a directory` };
    return null;
  } catch (err) {
    return { code: 'data-dir', file: dataDir, message: `cannot create the data directory ${dataDir}: ${errMessage(err)}` };
  }
}

/** The database and its WAL/SHM companions: owner-only, whatever the umask was. */
function tightenModes(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    try { if (existsSync(f)) chmodSync(f, 0o600); } catch { /* not ours to fix (read-only fs): the open succeeded */ }
  }
}

function classify(err: unknown, file: string, stage: string): StoreError {
  const code = (err as { code?: unknown }).code;
  const text = errMessage(err);
  if (code === 'SQLITE_NOTADB' || code === 'SQLITE_CORRUPT' || /not a database|malformed/i.test(text)) {
    return { code: 'corrupt', file, message: `the database ${file} is not a readable SQLite database (${text}); it was left untouched — restore it from a backup or move it aside` };
  }
  if (typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))) {
    return { code: 'locked', file, message: `the database ${file} is locked by another process (is another zfs-advisor running?); nothing was changed` };
  }
  if (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_READONLY' || code === 'SQLITE_PERM' || code === 'SQLITE_IOERR' || code === 'SQLITE_FULL') {
    return { code: 'io', file, message: `cannot use the database ${file} (${stage}): ${text}` };
  }
  return { code: 'io', file, message: `cannot use the database ${file} (${stage}): ${text}` };
}

function errMessage(err: unknown): string {
  return err instanceof Error ? err.message.split('\n')[0]! : String(err);
}
