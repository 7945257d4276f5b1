/** Errors the handlers throw on purpose; everything else becomes a generic 500 (details logged). */
import type { ErrorCode } from './schemas.ts';
import type { JobError, JobErrorKind } from '../model/jobs.ts';

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
    /** How to go on (who may change what, the exact setting or flag, what it risks): the domain error's, answered as its own field too. */
    readonly wayForward: string | null = null,
  ) {
    super(wayForward ? `${message.replace(/\.$/, '')}. ${wayForward}` : message);
    this.status = STATUS[code];
  }
}

export const notFound = (what: string): HttpError => new HttpError('not-found', `${what} not found`);

/** The status of each kind of domain error the jobs throw (model/jobs.ts). */
const JOB_CODE: Record<JobErrorKind, ErrorCode> = {
  busy: 'conflict', unavailable: 'unavailable', refused: 'forbidden', invalid: 'bad-request', 'not-found': 'not-found',
};

/** A job's domain error as the API answers it: the reason and the way forward in one message. */
export const httpErrorOf = (err: JobError): HttpError => new HttpError(JOB_CODE[err.kind], err.reason, undefined, err.wayForward);
