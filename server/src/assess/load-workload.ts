/**
 * Which workload fingerprint `assess` and `optane` use, and a sentence saying so:
 *  1. `--workload FILE` — the JSON `zfs-advisor observe --json` prints (or a bare fingerprint);
 *  2. otherwise, when the inventory is this machine's (no --snapshot/--demo/--inventory), the
 *     newest completed observation of the local host in the evidence store, if younger than
 *     FINGERPRINT_MAX_AGE_DAYS;
 *  3. otherwise none: a snapshot or the demo describes another system, so this machine's stored
 *     observations never speak for it.
 * A bad file is an error (exit 2, naming the file); a store that cannot be read is not — the
 * assessment runs without the observation and the sentence says why.
 */
import { readJsonFile } from './read-json-file.ts';
import { defaultDataDir } from '../data-dir.ts';
import { WorkloadFingerprint } from '../model/workload.ts';
import { FINGERPRINT_MAX_AGE_DAYS, newestStoredFingerprint } from '../observe/stored.ts';
import { isLocalRun, type AssessArgs } from './load-inventory.ts';

export type WorkloadOutcome = { ok: true; workload: WorkloadFingerprint | null; used: string } | { ok: false; message: string };

/** "observation 2026-11-22T10:00:00.000Z, 600 s (live)" */
export function describeFingerprint(fp: WorkloadFingerprint): string {
  const s = fp.windowSeconds;
  const window = s >= 120 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`;
  return `observation of ${window} from ${fp.startedAt} to ${fp.endedAt} (${fp.source})`;
}

export async function readWorkloadFile(file: string): Promise<WorkloadOutcome> {
  const read = await readJsonFile(file);
  if (!read.ok) return read;
  const json = read.json;
  // `observe --json` wraps the fingerprint with its summary, series and commands.
  const candidate = typeof json === 'object' && json !== null && 'fingerprint' in json ? (json as { fingerprint: unknown }).fingerprint : json;
  const parsed = WorkloadFingerprint.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: `${file}: not a workload fingerprint (${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'schema mismatch'})` };
  }
  return { ok: true, workload: parsed.data, used: `Workload: ${describeFingerprint(parsed.data)}, from ${file}.` };
}

export async function resolveWorkload(a: Pick<AssessArgs, 'opts' | 'workloadFile' | 'dataDir'>, now: number = Date.now()): Promise<WorkloadOutcome> {
  if (a.workloadFile) return readWorkloadFile(a.workloadFile);
  if (!isLocalRun(a.opts)) {
    const what = a.opts.demo ? 'the demo' : a.opts.snapshot ? 'a snapshot' : 'an inventory file';
    return { ok: true, workload: null, used: `Workload: none (${what} describes another system; this machine's stored observations are not used — pass --workload FILE).` };
  }
  const dataDir = a.dataDir ?? defaultDataDir();
  const stored = await newestStoredFingerprint(dataDir, now);
  if (!stored.ok) return { ok: true, workload: null, used: `Workload: none (the evidence store could not be read: ${stored.message}).` };
  if (!stored.fingerprint) {
    return { ok: true, workload: null, used: `Workload: none (no completed observation younger than ${FINGERPRINT_MAX_AGE_DAYS} days in ${stored.file ?? dataDir}; run \`zfs-advisor observe --duration 10m\`).` };
  }
  return { ok: true, workload: stored.fingerprint, used: `Workload: ${describeFingerprint(stored.fingerprint)}, stored in ${stored.file}.` };
}
