/**
 * The read worker thread: builds the large read answers (read-views.ts) off the event loop.
 * Long-lived while requests come (read-thread.ts ends it when idle); one request at a time, in
 * order, each answered with its id and the body's bytes moved, not copied.
 */
import { parentPort } from 'node:worker_threads';
import { readView, type ReadAnswer, type ReadRequest } from './read-views.ts';
import { movable } from '../jobs/threads.ts';

const port = parentPort;
port?.on('message', (msg: { id: number; request: ReadRequest }) => {
  let reply: ReadAnswer;
  try {
    reply = readView(msg.request);
  } catch (err) {
    reply = { ok: false, status: 'bad-request', message: `internal: ${err instanceof Error ? err.message : String(err)}` };
    port.postMessage({ id: msg.id, answer: reply, error: true });
    return;
  }
  port.postMessage({ id: msg.id, answer: reply }, reply.ok ? movable(reply.body, reply.gzip) : []);
});
