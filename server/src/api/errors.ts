/** Errors the handlers throw on purpose; everything else becomes a generic 500 (details logged). */
import type { ErrorCode } from './schemas.ts';

const STATUS: Record<ErrorCode, number> = {
  'bad-request': 400, unauthorized: 401, forbidden: 403, 'not-found': 404, conflict: 409, 'payload-too-large': 413,
  'unsupported-media-type': 415, 'rate-limited': 429, 'misdirected-request': 421, unavailable: 503, 'remote-error': 502, internal: 500,
};

export class HttpError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly issues?: { path: string; message: string }[],
  ) {
    super(message);
    this.status = STATUS[code];
  }
}

export const notFound = (what: string): HttpError => new HttpError('not-found', `${what} not found`);
