/**
 * Generated reports, kept: each body is stored compressed with its size and SHA-256 (of the body
 * as served, so a downloaded copy can be checked against the list), newest first, pruned per host
 * to the `retention.reportsPerHost` setting right after each insert.
 */
import type { Database } from 'better-sqlite3';
import { createHash } from 'node:crypto';
import type { ReportFormat, StoredReportView } from '../api/schemas.ts';
import { packBytes, unpackBytes } from './compress.ts';

export interface NewReport {
  hostId: string;
  assessmentId: number | null;
  format: ReportFormat;
  redacted: boolean;
  contentType: string;
  fileName: string;
  generatedAt: string;
  body: string | Buffer | Uint8Array;
}

interface ReportRowDb {
  id: number; host_id: string; assessment_id: number | null; format: ReportFormat; redacted: number; content_type: string;
  file_name: string; created_at: string; size_bytes: number; sha256: string;
}

const COLUMNS = 'id, host_id, assessment_id, format, redacted, content_type, file_name, created_at, size_bytes, sha256';

function view(r: ReportRowDb): StoredReportView {
  return {
    id: r.id, hostId: r.host_id, assessmentId: r.assessment_id, format: r.format, redacted: r.redacted === 1,
    contentType: r.content_type, fileName: r.file_name, generatedAt: r.created_at, sizeBytes: r.size_bytes, sha256: r.sha256,
  };
}

export function createReportsRepo(db: Database) {
  const insert = db.prepare(`INSERT INTO reports (host_id, assessment_id, format, redacted, content_type, file_name, created_at, size_bytes, sha256, body_gz)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const list = db.prepare(`SELECT ${COLUMNS} FROM reports WHERE host_id = ? ORDER BY id DESC LIMIT ?`);
  const one = db.prepare(`SELECT ${COLUMNS}, body_gz FROM reports WHERE host_id = ? AND id = ?`);
  const prune = db.prepare('DELETE FROM reports WHERE host_id = ? AND id NOT IN (SELECT id FROM reports WHERE host_id = ? ORDER BY id DESC LIMIT ?)');

  return {
    /** Stores one report and prunes the host's older ones beyond `keep`; returns the stored view. */
    add(r: NewReport, keep: number): StoredReportView {
      const body = typeof r.body === 'string' ? Buffer.from(r.body, 'utf8') : Buffer.from(r.body);
      const sha256 = createHash('sha256').update(body).digest('hex');
      return db.transaction(() => {
        const info = insert.run(r.hostId, r.assessmentId, r.format, r.redacted ? 1 : 0, r.contentType, r.fileName, r.generatedAt, body.length, sha256, packBytes(body));
        prune.run(r.hostId, r.hostId, keep);
        return view({
          id: Number(info.lastInsertRowid), host_id: r.hostId, assessment_id: r.assessmentId, format: r.format, redacted: r.redacted ? 1 : 0,
          content_type: r.contentType, file_name: r.fileName, created_at: r.generatedAt, size_bytes: body.length, sha256,
        });
      })();
    },
    list(hostId: string, limit = 1000): StoredReportView[] {
      return (list.all(hostId, limit) as ReportRowDb[]).map(view);
    },
    /** One stored report with its body (decompressed), or null. */
    get(hostId: string, id: number): { report: StoredReportView; body: Buffer } | null {
      const r = one.get(hostId, id) as (ReportRowDb & { body_gz: Buffer }) | undefined;
      return r ? { report: view(r), body: unpackBytes(r.body_gz) } : null;
    },
  };
}
export type ReportsRepo = ReturnType<typeof createReportsRepo>;
