/**
 * What CLI commands that store evidence (observe --save, sizes --save) share: opening the store
 * for one short transaction, and the `local` host row they store under — the same row the
 * server creates for this machine, so the server and the CLI see one host.
 */
import { openStore, type Store } from './db.ts';
import { createHostsRepo, type HostRow } from './hosts-repo.ts';

/** Opens the store, runs `fn`, closes it; errors come back as values naming the database file. */
export async function withStore<T>(dataDir: string, fn: (store: Store) => T): Promise<{ ok: true; value: T } | { ok: false; message: string }> {
  const opened = await openStore(dataDir);
  if (!opened.ok) return { ok: false, message: opened.error.message };
  try {
    return { ok: true, value: fn(opened.store) };
  } catch (err) {
    return { ok: false, message: `${opened.store.file}: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    opened.store.close();
  }
}

/** The first host of kind 'local' (preferring the id 'local'), or null. */
export function localHostOf(hosts: readonly HostRow[]): HostRow | null {
  const locals = hosts.filter((h) => h.kind === 'local');
  return locals.find((h) => h.id === 'local') ?? locals[0] ?? null;
}

/** The local host row, created as the server would create it ("This machine") when missing. */
export function ensureLocalHost(store: Store): HostRow {
  const hosts = createHostsRepo(store.db);
  const existing = localHostOf(hosts.list());
  if (existing) return existing;
  let id = 'local';
  for (let i = 2; hosts.get(id); i++) id = `local-${i}`;
  const now = new Date().toISOString();
  const row: HostRow = {
    id, kind: 'local', name: 'This machine', address: null, port: null, node: null,
    verifyTls: true, pinnedFingerprint: null, hasSecret: false, createdAt: now, updatedAt: now,
  };
  hosts.insert(row);
  return row;
}
