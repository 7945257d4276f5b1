/** Failures talking to a remote host, as values with a plain sentence (never containing a secret). */
export type RemoteErrorCode =
  | 'connect' // refused, unreachable, DNS
  | 'timeout'
  | 'tls-untrusted' // certificate not trusted and no fingerprint pinned
  | 'tls-mismatch' // pinned fingerprint differs
  | 'auth' // credentials refused
  | 'protocol' // malformed or unexpected answer
  | 'remote'; // the host answered with an error

export class RemoteError extends Error {
  constructor(
    readonly code: RemoteErrorCode,
    message: string,
    /** SHA-256 of the certificate presented, when TLS got that far (for pinning). */
    readonly presentedFingerprint: string | null = null,
    /** The HTTP status of a refused request ('remote'), when there was one. */
    readonly httpStatus: number | null = null,
  ) {
    super(message);
  }
}
