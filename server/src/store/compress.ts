/** JSON documents stored compressed (zlib deflate) in BLOB columns. */
import { deflateSync, inflateSync } from 'node:zlib';

export function packJson(value: unknown): Buffer {
  return deflateSync(Buffer.from(JSON.stringify(value), 'utf8'));
}

export function unpackJson(blob: Buffer | Uint8Array): unknown {
  return JSON.parse(inflateSync(blob).toString('utf8')) as unknown;
}

export function packBytes(body: string | Buffer): Buffer {
  return deflateSync(typeof body === 'string' ? Buffer.from(body, 'utf8') : body);
}

export function unpackBytes(blob: Buffer | Uint8Array): Buffer {
  return inflateSync(blob);
}
