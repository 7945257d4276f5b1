/**
 * The read worker thread: builds the large read answers (read-views.ts) off the event loop.
 * Long-lived while requests come (read-thread.ts ends it when idle); one request at a time, in
 * order, each answered with its id and the body's bytes moved, not copied.
 */
import { parentPort } from 'node:worker_threads';
import { readView, type ReadAnswer, type ReadRequest } from './read-views.ts';

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
  // Only buffers that own their whole memory can move (small ones may share Node's pool).
  const owns = (b: Uint8Array | null): b is Uint8Array => b !== null && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength;
  const transfer = reply.ok ? [reply.body, reply.gzip].filter(owns).map((b) => b.buffer as ArrayBuffer) : [];
  port.postMessage({ id: msg.id, answer: reply }, [...new Set(transfer)]);
});
