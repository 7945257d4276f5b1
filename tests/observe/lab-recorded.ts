/**
 * A workload fingerprint from a counter pair recorded in the lab guest (tests/lab: real OpenZFS,
 * `start-*` and `end-*` readings around a known fio load, fio's own JSON beside them).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildFingerprint } from '../../server/src/observe/fingerprint.ts';
import { snapshotFromTexts } from '../../server/src/observe/snapshot.ts';
import type { WorkloadFingerprint } from '../../server/src/model/workload.ts';

const opt = (dir: string, f: string): string | null => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8') : null);

export function recordedFingerprint(dir: string): WorkloadFingerprint {
  const reading = (tag: string) => {
    const ns = BigInt(opt(dir, `${tag}-ns.txt`)!.trim());
    return snapshotFromTexts({
      takenAt: new Date(Number(ns / 1_000_000n)).toISOString(), monotonicMs: Number(ns / 1_000_000n),
      zil: opt(dir, `${tag}-zil.txt`), arc: opt(dir, `${tag}-arcstats.txt`), objsets: [opt(dir, `${tag}-objset-db.txt`)].filter((t): t is string => t !== null),
      iostatW: opt(dir, `${tag}-iostat-w.txt`), iostatR: opt(dir, `${tag}-iostat-r.txt`),
    });
  };
  return buildFingerprint({ start: reading('start'), end: reading('end'), source: 'recorded' });
}
