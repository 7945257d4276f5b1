/** Hosts as rows. Secrets are not here (see secrets.ts); `has_secret` only records that one exists. */
import type { Database } from 'better-sqlite3';
import type { HostKind } from '../api/schemas.ts';

export interface HostRow {
  id: string;
  kind: HostKind;
  name: string;
  address: string | null;
  port: number | null;
  node: string | null;
  verifyTls: boolean;
  pinnedFingerprint: string | null;
  hasSecret: boolean;
  createdAt: string;
  updatedAt: string;
}

interface DbHostRow {
  id: string; kind: HostKind; name: string; address: string | null; port: number | null; node: string | null;
  verify_tls: number; pinned_fingerprint: string | null; has_secret: number; created_at: string; updated_at: string;
}

function fromDb(r: DbHostRow): HostRow {
  return {
    id: r.id, kind: r.kind, name: r.name, address: r.address, port: r.port, node: r.node,
    verifyTls: r.verify_tls === 1, pinnedFingerprint: r.pinned_fingerprint, hasSecret: r.has_secret === 1,
    createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

export function createHostsRepo(db: Database) {
  // This machine first, the demo last: the UI opens the first host, so live pools are what a
  // visitor sees even when a demo host from an earlier run without ZFS is still stored.
  const all = db.prepare("SELECT * FROM hosts ORDER BY CASE kind WHEN 'local' THEN 0 WHEN 'demo' THEN 2 ELSE 1 END, created_at, id");
  const one = db.prepare('SELECT * FROM hosts WHERE id = ?');
  const insert = db.prepare(`INSERT INTO hosts (id, kind, name, address, port, node, verify_tls, pinned_fingerprint, has_secret, created_at, updated_at)
    VALUES (@id, @kind, @name, @address, @port, @node, @verify_tls, @pinned_fingerprint, @has_secret, @created_at, @updated_at)`);
  const update = db.prepare(`UPDATE hosts SET name = @name, address = @address, port = @port, node = @node, verify_tls = @verify_tls,
    pinned_fingerprint = @pinned_fingerprint, has_secret = @has_secret, updated_at = @updated_at WHERE id = @id`);
  const remove = db.prepare('DELETE FROM hosts WHERE id = ?');

  const toDb = (h: HostRow) => ({
    id: h.id, kind: h.kind, name: h.name, address: h.address, port: h.port, node: h.node,
    verify_tls: h.verifyTls ? 1 : 0, pinned_fingerprint: h.pinnedFingerprint, has_secret: h.hasSecret ? 1 : 0,
    created_at: h.createdAt, updated_at: h.updatedAt,
  });

  return {
    list: (): HostRow[] => (all.all() as DbHostRow[]).map(fromDb),
    get: (id: string): HostRow | null => {
      const r = one.get(id) as DbHostRow | undefined;
      return r ? fromDb(r) : null;
    },
    insert: (h: HostRow): void => { insert.run(toDb(h)); },
    update: (h: HostRow): void => { update.run(toDb(h)); },
    delete: (id: string): boolean => remove.run(id).changes > 0,
  };
}
export type HostsRepo = ReturnType<typeof createHostsRepo>;
