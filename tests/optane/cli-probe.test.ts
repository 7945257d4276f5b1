/**
 * Issue 27: `optane` run right after the app's own probe, in the same data directory, showed
 * "measured QD1 sync IOPS: null" — the CLI never read the stored runs. Now `assess` and `optane`
 * read this machine's completed runs like `report` does, and only for an inventory of this machine.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../server/src/cli/main.ts';
import type { CliIO } from '../../server/src/cli/command.ts';
import { Inventory } from '../../server/src/model/inventory.ts';
import { openStore } from '../../server/src/store/db.ts';
import { finishRun, insertRun } from '../../server/src/bench/store.ts';
import type { BenchmarkRun } from '../../server/src/bench/types.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { benchDataset, benchPool, da1, da3, host000, p1600x } from '../fixtures/rules/slog-fixtures.ts';

function capture(): { io: CliIO; out: () => string } {
  let o = '';
  return { io: { stdout: (s) => { o += s; }, stderr: () => {}, stdin: async () => '', isTTY: false }, out: () => o };
}

const summary: BenchmarkSummary = {
  id: 'p1', profile: 'sync-write-4k-qd1', pool: 'bench-pool', target: 'bench-pool/zfs-advisor-bench-p1', startedAt: '2026-11-26T01:00:00.000Z',
  status: 'completed', syncMode: 'property', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: 220, readBytesPerSec: 0, writeBytesPerSec: 901_120,
  writeLatency: { meanNs: 4_500_000, p50Ns: 4_400_000, p99Ns: 9_000_000, p999Ns: null }, readLatency: null, wallSeconds: 10, fioRuntimeSeconds: 10,
  wallTimeMismatch: false, topologyFingerprint: null, notes: [], targetKind: 'dataset', sync: 'always',
};

async function dataDirWithProbe(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'zfs-advisor-probe-'));
  const opened = await openStore(dir);
  if (!opened.ok) throw new Error(opened.error.message);
  const db = opened.store.db;
  insertRun(db, { id: 'p1', profile: 'sync-write-4k-qd1', targetKind: 'dataset', target: summary.target, pool: 'bench-pool', status: 'running', startedAt: summary.startedAt, pid: 1, host: 'local', sizeBytes: 64 << 20, runtimeS: 10, bootId: null, procStart: null });
  finishRun(db, 'p1', 'completed', null, { summary, detail: {} } as unknown as BenchmarkRun);
  opened.store.close();
  return dir;
}

const inventoryFile = (kind: 'local' | 'snapshot'): string => {
  const d = mkdtempSync(join(tmpdir(), 'zfs-advisor-probe-inv-'));
  const f = join(d, 'inventory.json');
  writeFileSync(f, JSON.stringify(Inventory.parse({
    schemaVersion: 1, source: { kind, label: 'bench-pool', capturedAt: '2026-11-26T01:00:00Z', demo: false, redacted: false },
    host: host000, pools: [benchPool], drives: [da1, da3, p1600x], datasets: [benchDataset], zil: null, arc: null, gaps: [],
  })));
  return f;
};

describe('optane after the probe, same data directory', () => {
  it('uses the measured QD1 sync IOPS for "now" (this machine\'s inventory)', async () => {
    const dataDir = await dataDirWithProbe();
    const c = capture();
    expect(await main(['optane', '--inventory', inventoryFile('local'), '--data-dir', dataDir, '--json'], c.io)).toBe(0);
    const v = JSON.parse(c.out()) as { evidence: { label: string; value: unknown }[]; expected: { qd1: { now: { iops: number } } } };
    expect(v.evidence.find((e) => e.label === 'measured QD1 sync IOPS')?.value).toBe(220);
    expect(v.expected.qd1.now.iops).toBe(220);
  });

  it('a snapshot of another system never borrows this machine\'s probe', async () => {
    const dataDir = await dataDirWithProbe();
    const c = capture();
    expect(await main(['optane', '--inventory', inventoryFile('snapshot'), '--data-dir', dataDir, '--json'], c.io)).toBe(0);
    const v = JSON.parse(c.out()) as { evidence: { label: string; value: unknown }[] };
    expect(v.evidence.find((e) => e.label === 'measured QD1 sync IOPS')?.value).toBeNull();
  });
});
