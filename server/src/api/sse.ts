/**
 * Streams a background job's progress as Server-Sent Events, then `done` with the stored record.
 * A job that is not running (finished, or from before a restart) gets `done` at once.
 */
import type { Request, Response } from 'express';
import type { TaskListener } from '../jobs/live-tasks.ts';

export interface StreamableJob<P, V> {
  subscribe(id: number, l: TaskListener<P, V>): (() => void) | null;
  isRunning(id: number): boolean;
}

export function streamJob<P, V>(req: Request, res: Response, job: StreamableJob<P, V>, id: number, current: () => V & { progress: P | null }): void {
  const send = (event: string, data: unknown) => { res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`); };
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  let ended = false;
  const finish = (record: V) => {
    if (ended) return;
    ended = true;
    send('done', record);
    res.end();
  };
  const unsubscribe = job.subscribe(id, (e) => {
    if (e.event === 'progress') send('progress', e.data);
    else finish(e.data);
  });
  if (!unsubscribe) {
    finish(current());
    return;
  }
  const now = current();
  if (now.progress !== null) send('progress', now.progress);
  const keepAlive = setInterval(() => { if (!ended) res.write(': keep-alive\n\n'); }, 15_000);
  keepAlive.unref();
  req.on('close', () => { clearInterval(keepAlive); unsubscribe(); });
}
