import { describe, expect, it, beforeEach, afterEach } from 'vitest';
import Database from 'better-sqlite3';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appliedVersions, discoverMigrations, openStore, DB_FILE_NAME } from '../../server/src/store/db.ts';
import type { Migration } from '../../server/src/store/migration.ts';
import { openSecretStore } from '../../server/src/store/secrets.ts';
import { createSettingsRepo } from '../../server/src/store/settings-repo.ts';
import { DEFAULT_SETTINGS } from '../../server/src/api/schemas.ts';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'zfsa-store-')); });
afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

describe('openStore', () => {
  it('creates the database 0600 from an empty directory and applies every discovered migration', async () => {
    const found = await discoverMigrations();
    expect(found.ok).toBe(true);
    if (!found.ok) return;
    expect(found.migrations[0]).toMatchObject({ version: 1, name: 'core' });
    const r = await openStore(join(dir, 'data'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const file = join(dir, 'data', DB_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'data')).mode & 0o777).toBe(0o700);
    expect(r.store.schemaVersions).toEqual(found.migrations.map((m) => m.version));
    expect(r.store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    const tables = (r.store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map((t) => t.name);
    for (const t of ['hosts', 'inventory_snapshots', 'assessments', 'findings', 'finding_acks', 'reports', 'settings', 'scheduled_runs', 'schema_migrations']) {
      expect(tables).toContain(t);
    }
    r.store.close();
  });

  it('upgrades from every earlier schema version, keeping the data written at that version', async () => {
    const found = await discoverMigrations();
    if (!found.ok) throw new Error(found.message);
    const versions = found.migrations.map((m) => m.version);
    for (const target of [0, ...versions.slice(0, -1)]) {
      const d = join(dir, `v${target}`);
      const old = await openStore(d, { targetVersion: target });
      if (!old.ok) throw new Error(old.error.message);
      expect(appliedVersions(old.store.db)).toEqual(versions.filter((v) => v <= target));
      if (target >= 1) {
        old.store.db.prepare(`INSERT INTO hosts (id, kind, name, verify_tls, has_secret, created_at, updated_at) VALUES ('h1', 'demo', 'Demo', 1, 0, 'x', 'x')`).run();
      }
      old.store.close();
      const now = await openStore(d);
      if (!now.ok) throw new Error(now.error.message);
      expect(now.store.schemaVersions).toEqual(versions);
      if (target >= 1) expect(now.store.db.prepare('SELECT name FROM hosts WHERE id = ?').get('h1')).toEqual({ name: 'Demo' });
      now.store.close();
    }
  });

  it('runs each migration in a transaction: a failing one is rolled back and named', async () => {
    const good: Migration = { version: 1, name: 'one', up: (db) => db.exec('CREATE TABLE a (x)') };
    const bad: Migration = { version: 2, name: 'two', up: (db) => { db.exec('CREATE TABLE b (x)'); throw new Error('boom'); } };
    const r = await openStore(dir, { migrations: [bad, good] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('migration-failed');
    expect(r.error.message).toContain('0002-two');
    expect(r.error.message).toContain(join(dir, DB_FILE_NAME));
    const db = new Database(join(dir, DB_FILE_NAME), { readonly: true });
    const names = (db.prepare("SELECT name FROM sqlite_master WHERE type='table'").all() as { name: string }[]).map((t) => t.name);
    expect(names).toContain('a');
    expect(names).not.toContain('b');
    expect(appliedVersions(db)).toEqual([1]);
    db.close();
  });

  it('refuses a database written by a newer version and leaves it untouched', async () => {
    const first = await openStore(dir, { migrations: [{ version: 1, name: 'a', up: () => {} }, { version: 2, name: 'b', up: () => {} }] });
    if (!first.ok) throw new Error(first.error.message);
    first.store.close();
    const before = readFileSync(join(dir, DB_FILE_NAME));
    const r = await openStore(dir, { migrations: [{ version: 1, name: 'a', up: () => {} }] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('too-new');
    expect(readFileSync(join(dir, DB_FILE_NAME)).equals(before)).toBe(true);
  });

  it('a corrupted file gives a clear error naming it, and the file is not changed', async () => {
    const file = join(dir, DB_FILE_NAME);
    const garbage = Buffer.from('this is not an sqlite database, it is a text file that a backup tool left here\n'.repeat(100));
    writeFileSync(file, garbage, { mode: 0o644 });
    const r = await openStore(dir);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('corrupt');
    expect(r.error.message).toContain(file);
    expect(readFileSync(file).equals(garbage)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o644);
    expect(existsSync(`${file}-wal`)).toBe(false);
  });

  it('a damaged page (valid header, broken body) is reported as corrupt', async () => {
    const ok = await openStore(dir);
    if (!ok.ok) throw new Error(ok.error.message);
    ok.store.db.pragma('wal_checkpoint(TRUNCATE)');
    ok.store.close();
    const file = join(dir, DB_FILE_NAME);
    const bytes = readFileSync(file);
    // Overwrite the second page (sqlite_master's children / first table) with noise.
    for (let i = 4096; i < 8192 && i < bytes.length; i++) bytes[i] = (i * 7919) & 0xff;
    writeFileSync(file, bytes);
    const r = await openStore(dir);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('corrupt');
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('a database locked by another process gives a clear error and loses nothing', async () => {
    const file = join(dir, DB_FILE_NAME);
    const other = new Database(file);
    other.exec('CREATE TABLE keep (x); INSERT INTO keep VALUES (42);');
    other.exec('BEGIN EXCLUSIVE');
    other.exec('INSERT INTO keep VALUES (43)');
    const r = await openStore(dir, { busyTimeoutMs: 100 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('locked');
      expect(r.error.message).toContain(file);
    }
    other.exec('COMMIT');
    expect(other.prepare('SELECT count(*) AS n FROM keep').get()).toEqual({ n: 2 });
    other.close();
    const again = await openStore(dir);
    expect(again.ok).toBe(true);
    if (again.ok) {
      expect(again.store.db.prepare('SELECT count(*) AS n FROM keep').get()).toEqual({ n: 2 });
      again.store.close();
    }
  });
});

describe('secrets file', () => {
  it('is written 0600 outside the database and never appears in it', async () => {
    const r = await openStore(dir);
    if (!r.ok) throw new Error(r.error.message);
    const secrets = openSecretStore(dir);
    secrets.set('nas1', { kind: 'truenas', username: 'advisor', apiKey: '1-SECRETKEYVALUEabcdef' });
    expect(statSync(secrets.file).mode & 0o777).toBe(0o600);
    expect(secrets.get('nas1')).toEqual({ kind: 'truenas', username: 'advisor', apiKey: '1-SECRETKEYVALUEabcdef' });
    r.store.db.pragma('wal_checkpoint(TRUNCATE)');
    expect(readFileSync(join(dir, DB_FILE_NAME)).includes('SECRETKEYVALUE')).toBe(false);
    secrets.delete('nas1');
    expect(secrets.get('nas1')).toBeNull();
    r.store.close();
  });
});

describe('settings', () => {
  it('defaults, then persists a partial update', async () => {
    const r = await openStore(dir);
    if (!r.ok) throw new Error(r.error.message);
    const repo = createSettingsRepo(r.store.db);
    expect(repo.get()).toEqual(DEFAULT_SETTINGS);
    const next = repo.update({ assessmentIntervalMinutes: 60, retention: { snapshotsPerHost: 5 } });
    expect(next.assessmentIntervalMinutes).toBe(60);
    expect(next.retention).toEqual({ ...DEFAULT_SETTINGS.retention, snapshotsPerHost: 5 });
    expect(createSettingsRepo(r.store.db).get()).toEqual(next);
    r.store.close();
  });
});
