/**
 * How to start a worker thread. From the sources: worker-boot.mjs with the module as argument
 * (it registers tsx, then loads the TypeScript module). In the esbuild bundle
 * (scripts/build-server.mjs defines __ZFSA_BUNDLED__): dist/<name>.mjs, an entry of that build.
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
