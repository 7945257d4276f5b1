/**
 * The symlink swap race of issue 25, played for real: a root benchmark writes into a directory an
 * unprivileged user owns, while that user (through setpriv) renames each new run directory away
 * and puts a directory with `zfs-advisor-bench.dat → victim` in its place. Before the fix, root's
 * fio opened the file by name and overwrote the victim; now the run directory is made and handed
 * to fio through descriptors (server/src/bench/run-directory.ts), so the victim must stay
 * byte-for-byte what it was, whatever the run's outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, writeFileSync, readdirSync, statSync } from 'node:fs';
import { randomBytes, createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBenchmark } from '../../server/src/bench/run.ts';
import { fioAvailable, freshStore, req } from '../bench/support.ts';
import { canPlayLocalUser, createLocalUser, type LocalUser } from './support/local-user.ts';

const ATTACKER = join(import.meta.dirname, 'support', 'swap-attacker.mjs');
const live = canPlayLocalUser() && fioAvailable();
const dirs: string[] = [];
let user: LocalUser | null = null;

beforeAll(async () => { if (live) user = await createLocalUser(); });
afterAll(async () => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await user?.remove();
});

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('a local user racing a root benchmark in their own directory', () => {
  it.runIf(live)('cannot make fio write through a swapped-in symlink: the victim stays untouched', async () => {
    const u = user!;
    // The victim: a root-owned file in a root-owned directory the user cannot write.
    const safe = mkdtempSync(join(tmpdir(), 'zfs-advisor-victim-'));
    dirs.push(safe);
    chmodSync(safe, 0o755);
    const victim = join(safe, 'victim.bin');
    const before = randomBytes(2 * 1024 * 1024);
    writeFileSync(victim, before, { mode: 0o644 });
    // The user's directory, where they ask for benchmarks.
    const atk = mkdtempSync(join(tmpdir(), 'zfs-advisor-atk-'));
    dirs.push(atk);
    chownSync(atk, u.uid, u.gid);
    chmodSync(atk, 0o755);

    const s = await freshStore();
    try {
      let swaps = 0;
      const outcomes: string[] = [];
      for (const profile of ['seq-write-1m', 'rand-read-4k'] as const) {
        const attacker = u.run(['node', ATTACKER, atk, victim, '6000'], { timeoutMs: 30_000 });
        await new Promise((r) => setTimeout(r, 300)); // the attacker is watching
        const run = await startBenchmark(req({ profile, target: { kind: 'path', dir: atk }, sizeBytes: 1024 * 1024, runtimeS: 2 }), { db: s.db });
        const a = await attacker;
        expect(a.exitCode, a.stderr).toBe(0);
        swaps += Number(a.stdout.trim());
        outcomes.push(`${profile}: ${run.summary.status} ${run.message ?? ''}`);
      }
      // The attack really happened (else this test would prove nothing) …
      expect(swaps, outcomes.join('\n')).toBeGreaterThanOrEqual(1);
      // … and the victim is byte-for-byte what it was.
      expect(sha(readFileSync(victim)), outcomes.join('\n')).toBe(sha(before));
      // Nothing the runs wrote is left in the user's directory: what root made there is, at most,
      // an emptied run directory that was moved away from under its run.
      const rootMade = readdirSync(atk).filter((e) => statSync(join(atk, e)).uid === 0);
      for (const e of rootMade) expect(readdirSync(join(atk, e)), outcomes.join('\n')).toEqual([]);
      console.log(`swap race: ${swaps} swaps; ${outcomes.join('; ')}; root-made entries left: ${rootMade.length}`);
    } finally { s.close(); }
  }, 120_000);
});
