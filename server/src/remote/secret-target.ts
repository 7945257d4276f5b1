/**
 * A stored secret belongs to the endpoint it was entered for — address, port, and how its
 * certificate is trusted (TLS verification, pinned fingerprint). Change any of these and the
 * secret is dropped (routes/hosts.ts); and whatever the host row says, a secret is only sent to
 * the target recorded with it (clients.ts checks before connecting). Otherwise an API caller
 * could point a host at their own server and have the stored API key delivered to it.
 */
import type { HostRow } from '../store/hosts-repo.ts';
import type { HostSecret, SecretTarget } from '../store/secrets.ts';

export type TargetFields = Pick<HostRow, 'address' | 'port' | 'verifyTls' | 'pinnedFingerprint'>;

export function targetOf(h: TargetFields): SecretTarget {
  return { address: h.address?.trim().toLowerCase() ?? null, port: h.port, verifyTls: h.verifyTls, pinnedFingerprint: h.pinnedFingerprint };
}

export function sameTarget(a: SecretTarget, b: SecretTarget): boolean {
  return a.address === b.address && a.port === b.port && a.verifyTls === b.verifyTls && a.pinnedFingerprint === b.pinnedFingerprint;
}

/** The secret bound to the host's current target (what createHost/updateHost store). */
export function bindSecret(secret: HostSecret, h: TargetFields): HostSecret {
  return { ...secret, target: targetOf(h) };
}

/**
 * Whether `secret` may be sent to `h`. A secret stored before targets were recorded has none: it
 * is trusted for the row as it stands (there is nothing to compare with), and is bound on the
 * next change of credentials.
 */
export function secretTargetMatches(h: TargetFields, secret: HostSecret): boolean {
  return secret.target === undefined || sameTarget(secret.target, targetOf(h));
}
