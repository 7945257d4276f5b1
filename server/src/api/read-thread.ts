/**
 * Builds the large read answers (read-views.ts) in a worker thread and keeps them: one answer per
 * stored snapshot or assessment and query, served as bytes until a new one replaces it. The event
 * loop only copies bytes, so `/api/health` and small routes answer at once while a 20 MB
 * inventory is being built.
 *
 * The worker starts on the first request and ends after IDLE_MS without one (its heap and
 * parsed copies are tens of MB a server should not hold idle). When it cannot start or dies, the
 * answer is built on this thread instead, and said in the log once.
 */
import type { Worker } from 'node:worker_threads';
import { asBuffer, startWorker } from '../jobs/threads.ts';
import type { Logger } from './logger.ts';
import { PreparedJson } from './route.ts';
import { readView, type ReadAnswer, type ReadRequest } from './read-views.ts';
import { HttpError } from './errors.ts';

const IDLE_MS = 30_000;
/** Answers kept, by total size: a few large hosts' inventories and findings. */
const CACHE_BYTES = 96 * 2 ** 20;

export interface Reader {
  /**
   * The answer for `key` (which names the stored row and the query), built by the worker from
   * `request()` when not kept. `request` is called only on a miss (it reads the blob).
   */
  get(key: string, request: () => ReadRequest): Promise<PreparedJson>;
  /** An answer built fresh every time (never kept): the metrics text. */
  once(request: ReadRequest): Promise<Buffer>;
  /** Drops every kept answer whose key starts with `prefix` (acknowledgements changed). */
  forget(prefix: string): void;
  close(): void;
}

export function createReader(opts: { logger: Logger; inThread?: boolean }): Reader {
  const kept = new Map<string, Promise<PreparedJson>>();
  const sizes = new Map<string, number>();
  let bytes = 0;
  let worker: Worker | null = null;
  let idle: NodeJS.Timeout | null = null;
  let nextId = 1;
  let warned = false;
  const pending = new Map<number, { resolve: (a: ReadAnswer) => void; reject: (e: Error) => void }>();

  const stopWorker = () => {
    if (idle) clearTimeout(idle);
    idle = null;
    const w = worker;
    worker = null;
    if (w) void w.terminate();
  };
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  const ensureWorker = (): Worker => {
    if (worker) return worker;
    const w = startWorker('api/read-worker.ts', { stdout: false, stderr: false });
    w.unref();
    w.on('message', (m: { id: number; answer: ReadAnswer; error?: boolean }) => {
      const p = pending.get(m.id);
      pending.delete(m.id);
      if (!p) return;
      // An exception while building (a stored row that does not parse) is the answer's, not
      // the worker's: it is an internal error either way, not a reason to build here instead.
      if (m.error && !m.answer.ok) p.resolve({ ok: false, status: 'internal', message: m.answer.message });
      else p.resolve(m.answer);
    });
    w.on('error', (err) => { if (worker === w) worker = null; failAll(err); });
    w.on('exit', () => { if (worker === w) worker = null; failAll(new Error('the read worker stopped')); });
    worker = w;
    return w;
  };

  const viaWorker = (request: ReadRequest): Promise<ReadAnswer> => new Promise((resolve, reject) => {
    if (idle) clearTimeout(idle);
    idle = setTimeout(() => { if (pending.size === 0) stopWorker(); }, IDLE_MS);
    idle.unref();
    const id = nextId++;
    pending.set(id, { resolve, reject });
    ensureWorker().postMessage({ id, request });
  });

  const build = async (request: ReadRequest): Promise<ReadAnswer> => {
    if (opts.inThread) return readView(request);
    try {
      return await viaWorker(request);
    } catch (err) {
      if (!warned) opts.logger.warn('read worker unavailable: building answers on the main thread', { error: err instanceof Error ? err.message : String(err) });
      warned = true;
      return readView(request);
    }
  };

  const evict = () => {
    for (const [k] of kept) {
      if (bytes <= CACHE_BYTES) break;
      bytes -= sizes.get(k) ?? 0;
      sizes.delete(k);
      kept.delete(k);
    }
  };

  return {
    get(key, request) {
      const hit = kept.get(key);
      if (hit) {
        // Most recently used last, so eviction takes the oldest.
        kept.delete(key);
        kept.set(key, hit);
        return hit;
      }
      const made = build(request()).then((a) => {
        // Internal failures go to the error handler as plain errors: logged, answered generically.
        if (!a.ok) throw a.status === 'internal' ? new Error(a.message) : new HttpError(a.status, a.message);
        const body = asBuffer(a.body);
        const gzip = a.gzip ? asBuffer(a.gzip) : null;
        if (kept.get(key) === made) {
          sizes.set(key, body.length + (gzip?.length ?? 0));
          bytes += body.length + (gzip?.length ?? 0);
          evict();
        }
        return new PreparedJson(body, a.etag, gzip);
      });
      // A failed build is not kept: the next request tries again.
      made.catch(() => { if (kept.get(key) === made) kept.delete(key); });
      kept.set(key, made);
      return made;
    },
    async once(request) {
      const a = await build(request);
      if (!a.ok) throw a.status === 'internal' ? new Error(a.message) : new HttpError(a.status, a.message);
      return asBuffer(a.body);
    },
    forget(prefix) {
      for (const k of [...kept.keys()]) {
        if (!k.startsWith(prefix)) continue;
        kept.delete(k);
        bytes -= sizes.get(k) ?? 0;
        sizes.delete(k);
      }
    },
    close() {
      stopWorker();
      failAll(new Error('the server is closing'));
      kept.clear();
      sizes.clear();
      bytes = 0;
    },
  };
}
