/**
 * The large read answers of the API — an inventory (whole or one pool), a page of datasets, the
 * findings list — built from the stored (compressed) snapshot or assessment, validated against
 * the route's response schema and serialised. Pure: run in the read worker (read-worker.ts) so a
 * host with thousands of datasets never holds up the event loop, and here when no worker can run.
 *
 * Pages are positions in one stored snapshot or assessment (the cursor names it), so paging
 * through returns every item exactly once even when a new assessment lands meanwhile.
 */
import { gzipSync } from 'node:zlib';
import { Assessment, SEVERITY_ORDER } from '../model/finding.ts';
import { Inventory } from '../model/inventory.ts';
import { unpackJson } from '../store/compress.ts';
import { routes } from './contract.ts';
import { OptaneVerdictView, type Ack, type AssessmentSummary, type Counts, type FindingView } from './schemas.ts';
import { renderMetrics, type EventLoopDelay } from '../metrics/prometheus.ts';
import type { BenchmarkSummary } from '../model/workload.ts';
import { prepareJson, type PreparedJson } from './route.ts';
import { HttpError } from './errors.ts';

export interface SnapshotRef { snapshotId: number; hostId: string; capturedAt: string }
export interface AssessmentRef { assessmentId: number; generatedAt: string; demo: boolean }
export interface FindingsFilter { severity?: string; pool?: string; status: 'all' | 'open' | 'acknowledged' | 'dismissed' }

export type ReadRequest =
  | { op: 'inventory'; snap: SnapshotRef; gz: Uint8Array; pool: string | null }
  | { op: 'datasets'; snap: SnapshotRef; gz: Uint8Array; pool: string | null; offset: number; limit: number }
  | { op: 'record'; summary: AssessmentSummary & { snapshotId: number | null; ruleCatalogVersion: string }; gz: Uint8Array }
  | { op: 'metrics'; hosts: { hostId: string; snap: { snap: SnapshotRef; gz: Uint8Array } | null; counts: Counts | null; benchmarks: BenchmarkSummary[] }[]; version: string; eventLoop: EventLoopDelay }
  | {
    op: 'findings'; ref: AssessmentRef; gz: Uint8Array; filter: FindingsFilter; offset: number; limit: number | null;
    acks: [string, Ack][]; firstSeen: [string, string][];
  };

export type ReadAnswer =
  | { ok: true; body: Uint8Array; etag: string; gzip: Uint8Array | null }
  | { ok: false; status: 'not-found' | 'bad-request' | 'internal'; message: string };

/** Bodies from this size on are also kept gzipped: most clients take that, and it is a tenth of the bytes. */
export const GZIP_FROM = 64 * 1024;

const answer = (p: PreparedJson): ReadAnswer => ({ ok: true, body: p.body, etag: p.etag, gzip: p.body.length >= GZIP_FROM ? gzipSync(p.body, { level: 6 }) : null });

// ---- cursors: "d" (datasets) or "f" (findings), the stored row's id and an offset -------------

export function encodeCursor(kind: 'd' | 'f', id: number, offset: number): string {
  return Buffer.from(`${kind}:${id}:${offset}`, 'utf8').toString('base64url');
}

/**
 * Where a page starts: at the cursor's stored row and offset, or at the start of the newest row
 * (`newest()`, null when there is none yet: then null). A cursor this server could not have given
 * out is a 400.
 */
export function pageStart(kind: 'd' | 'f', cursor: string | undefined, newest: () => { id: number } | null): { id: number; offset: number } | null {
  if (cursor === undefined) {
    const n = newest();
    return n ? { id: n.id, offset: 0 } : null;
  }
  const at = decodeCursor(kind, cursor);
  if (!at) throw new HttpError('bad-request', 'invalid query: cursor: not a cursor this server gave out (use nextCursor of the previous page)');
  return at;
}

/** The position a cursor names, or null when it is not one this server could have given out. */
export function decodeCursor(kind: 'd' | 'f', cursor: string): { id: number; offset: number } | null {
  const m = new RegExp(`^${kind}:(\\d{1,15}):(\\d{1,9})$`).exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return m ? { id: Number(m[1]), offset: Number(m[2]) } : null;
}

// ---- parsed copies: a reader pages through one snapshot or assessment, so keep the last one ----

/** A few parsed inventories (a metrics scrape reads every host's; pages read one). */
const inventories = new Map<number, Inventory>();
const INVENTORIES_KEPT = 4;
let assessmentCache: { id: number; assessment: Assessment; optane: unknown } | null = null;

function inventoryOf(snap: SnapshotRef, gz: Uint8Array): Inventory {
  let inv = inventories.get(snap.snapshotId);
  if (inv === undefined) {
    inv = Inventory.parse(unpackJson(gz));
    inventories.set(snap.snapshotId, inv);
    if (inventories.size > INVENTORIES_KEPT) inventories.delete(inventories.keys().next().value!);
  }
  return inv;
}

function assessmentOf(id: number, gz: Uint8Array): { assessment: Assessment; optane: unknown } {
  if (assessmentCache?.id !== id) {
    const doc = unpackJson(gz) as { assessment: unknown; optane?: unknown };
    assessmentCache = { id, assessment: Assessment.parse(doc.assessment), optane: doc.optane ?? null };
  }
  return assessmentCache;
}

const unknownPool = (pool: string): ReadAnswer => ({ ok: false, status: 'not-found', message: `pool "${pool}" is not in this inventory` });

// ---- the views -------------------------------------------------------------------------------

export function readView(req: ReadRequest): ReadAnswer {
  if (req.op === 'findings') return findingsView(req);
  if (req.op === 'metrics') {
    const text = renderMetrics(req.hosts.map((h) => ({
      hostId: h.hostId, inventory: h.snap ? inventoryOf(h.snap.snap, h.snap.gz) : null, counts: h.counts, benchmarks: h.benchmarks,
    })), { version: req.version, eventLoop: req.eventLoop });
    return { ok: true, body: Buffer.from(text, 'utf8'), etag: '', gzip: null };
  }
  if (req.op === 'record') {
    const { assessment, optane } = assessmentOf(req.summary.id, req.gz);
    const view = OptaneVerdictView.safeParse(optane);
    return answer(prepareJson(routes.getAssessment, { ...req.summary, assessment, optane: view.success ? view.data : null }));
  }
  const inv = inventoryOf(req.snap, req.gz);
  if (req.pool !== null && !inv.pools.some((p) => p.name === req.pool) && !inv.datasets.some((d) => d.pool === req.pool)) return unknownPool(req.pool);
  const datasets = req.pool === null ? inv.datasets : inv.datasets.filter((d) => d.pool === req.pool);
  const { snapshotId, hostId, capturedAt } = req.snap;
  if (req.op === 'inventory') {
    const inventory = req.pool === null ? inv : { ...inv, pools: inv.pools.filter((p) => p.name === req.pool), datasets };
    return answer(prepareJson(routes.getInventory, { snapshotId, hostId, capturedAt, inventory }));
  }
  const end = Math.min(datasets.length, req.offset + req.limit);
  return answer(prepareJson(routes.listDatasets, {
    snapshotId, hostId, capturedAt, total: datasets.length, datasets: datasets.slice(req.offset, end),
    nextCursor: end < datasets.length ? encodeCursor('d', snapshotId, end) : null,
  }));
}

function findingsView(req: Extract<ReadRequest, { op: 'findings' }>): ReadAnswer {
  const { filter, ref } = req;
  const acks = new Map(req.acks);
  const firstSeen = new Map(req.firstSeen);
  const matching: FindingView[] = assessmentOf(ref.assessmentId, req.gz).assessment.findings
    .filter((f) => (filter.severity ? f.severity === filter.severity : true))
    .filter((f) => (filter.pool ? f.subject.pool === filter.pool : true))
    .map((f) => ({ ...f, ack: acks.get(f.fingerprint) ?? null, firstSeenAt: firstSeen.get(f.fingerprint) ?? null }))
    .filter((f) => filter.status === 'all' || (filter.status === 'open' ? f.ack === null : f.ack?.state === filter.status))
    .sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity]);
  const end = req.limit === null ? matching.length : Math.min(matching.length, req.offset + req.limit);
  return answer(prepareJson(routes.listFindings, {
    assessmentId: ref.assessmentId, generatedAt: ref.generatedAt, demo: ref.demo,
    findings: matching.slice(req.offset, end), total: matching.length,
    nextCursor: end < matching.length ? encodeCursor('f', ref.assessmentId, end) : null,
  }));
}
