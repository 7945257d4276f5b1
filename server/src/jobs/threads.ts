/**
 * What both worker threads (assessment, read answers) share: how to start one, and how bytes
 * cross between threads. From the sources a worker starts as worker-boot.mjs with the module as
 * argument (it registers tsx, then loads the TypeScript module); in the esbuild bundle
 * (scripts/build-server.mjs defines __ZFSA_BUNDLED__) as dist/<name>.mjs, an entry of that build.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

declare const __ZFSA_BUNDLED__: boolean | undefined;

/** `entry`: the worker module relative to server/src, e.g. "jobs/assess-worker.ts". */
export function startWorker(entry: string, options: WorkerOptions = {}): Worker {
  // In the bundle every module keeps its source file's URL, so both paths are relative to this file.
  if (typeof __ZFSA_BUNDLED__ !== 'undefined' && __ZFSA_BUNDLED__) {
    return new Worker(new URL(`../../../dist/${entry.replace(/^.*\//, '').replace(/\.ts$/, '.mjs')}`, import.meta.url), options);
  }
  return new Worker(new URL('./worker-boot.mjs', import.meta.url), { ...options, argv: [entry] });
}

/**
 * The memory of these buffers to move with a postMessage instead of copying it: only buffers that
 * own their whole ArrayBuffer (small ones may share Node's pool with unrelated data).
 */
export function movable(...buffers: (Uint8Array | null | undefined)[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const b of buffers) if (b && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength) out.add(b.buffer as ArrayBuffer);
  return [...out];
}

/** A Buffer over bytes that arrived from another thread (a plain Uint8Array there), without copying. */
export const asBuffer = (u: Uint8Array): Buffer => Buffer.from(u.buffer, u.byteOffset, u.byteLength);
