/**
 * Workload evidence reaching the Optane verdict and the CLI (issue 10): the verdict's "now" from the
 * observed sync-write latency, `assess`/`optane --workload FILE`, the stored observation of the local
 * host (observe → store → assess), and snapshot/demo runs that never use it.
 * Fingerprints are the recorded OpenZFS 2.x pairs (start real, end derived: tests/observe/recorded-pairs.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_PARAMS } from '../../server/src/forecast/model.ts';
import { describe, expect, it } from 'vitest';
import { runRules } from '../../rules/engine/engine.ts';
import { ALL_RULES } from '../../rules/index.ts';
import { resolveWorkload } from '../../server/src/assess/load-workload.ts';
import type { CliIO } from '../../server/src/cli/command.ts';
import { main } from '../../server/src/cli/main.ts';
import { Assessment } from '../../server/src/model/finding.ts';
import type { Artifacts } from '../../server/src/model/artifacts.ts';
import { Inventory } from '../../server/src/model/inventory.ts';
import { newestStoredFingerprint, saveObservation } from '../../server/src/observe/stored.ts';
import { buildOptaneVerdict, OptaneVerdict } from '../../server/src/optane/verdict.ts';
import { artifacts000, benchDataset, benchPool, da1, da3, host000, p1600x } from '../fixtures/rules/slog-fixtures.ts';
import { asPool, asyncOnlyPair, syncHeavyPair } from '../observe/recorded-pairs.ts';

const recordedSync = asPool(syncHeavyPair(), 'bench-pool');
const verdict = (a: Artifacts) => OptaneVerdict.parse(buildOptaneVerdict(a, runRules(ALL_RULES, a, new Date('2026-11-23T00:00:00Z'))));
const evidence = (v: OptaneVerdict) => Object.fromEntries(v.evidence.map((e) => [e.label, e.value]));

function capture(): { io: CliIO; out: () => string; err: () => string } {
  let o = '';
  let e = '';
  return { io: { stdout: (s) => { o += s; }, stderr: (s) => { e += s; }, stdin: async () => '', isTTY: false }, out: () => o, err: () => e };
}

describe('Optane verdict with an observed sync-write latency (recorded sync-heavy pair, end derived)', () => {
  it('"now" comes from the observed p50/p99 and names it; yes with high confidence', () => {
    const v = verdict(artifacts000({ Workload: recordedSync }));
    expect(v.verdict).toBe('yes');
    expect(v.confidence).toBe('high');
    const ev = evidence(v);
    expect(ev['observed sync-write latency p50 (ms)']).toBe(6.31);
    expect(ev['observed sync-write latency p99 (ms)']).toBe(8.39);
    expect(ev['observed sync-write IOPS']).toBe(600);
    expect(ev['"now" based on']).toBe('observed over 10 s (2026-11-22 10:00 UTC): write latency on the data vdevs p50 6.3 ms, p99 8.4 ms, 600 sync writes/s (zpool iostat -w syncq_wait + disk_wait)');
    expect(v.headline).toContain('(observed: 600/s, p99 8.39 ms)');
    // QD1: the forecast with the observed p50 as the data vdevs' latency: 1e6 / (per-commit overhead +
    // 6310 µs × the mirror's wait-for-the-slower-of-2 factor 1 + 0.15 ln 2).
    expect(v.expected!.qd1.now.iops).toBe(Math.round(1e6 / (DEFAULT_PARAMS.overheadUs.typical + 6310 * (1 + 0.15 * Math.log(2)))));
    expect(v.expected!.qd1.now.low).toBeLessThan(v.expected!.qd1.now.iops);
    expect(v.expected!.qd1.now.high).toBeGreaterThanOrEqual(v.expected!.qd1.now.iops);
  });
  it('without an observed latency the device class model is the basis, and says so', () => {
    const noLatency = { ...recordedSync, pools: recordedSync.pools.map((p) => ({ ...p, syncWriteLatencyMs: {} })) };
    const v = verdict(artifacts000({ Workload: noLatency }));
    expect(String(evidence(v)['"now" based on'])).toMatch(/^model estimate, not measured on this host \(device catalog "5400\/5900 rpm NAS hard disk.*measure it in one click: "Should I add Optane\?" with the sync-write probe ticked, or `zfs-advisor bench sync-write-4k-qd1 --pool bench-pool`$/);
    expect(evidence(v)['observed sync-write latency p99 (ms)']).toBeUndefined();
  });
  it('the recorded async-only pair: no', () => {
    expect(verdict(artifacts000({ Workload: asPool(asyncOnlyPair(), 'bench-pool') })).verdict).toBe('no');
  });
});

const dir = mkdtempSync(join(tmpdir(), 'zfs-advisor-wiring-'));
const invFile = join(dir, 'inventory.json');
writeFileSync(invFile, JSON.stringify(Inventory.parse({
  schemaVersion: 1,
  source: { kind: 'snapshot', label: '000 bench-pool (transcribed)', capturedAt: '2023-01-30T12:00:00Z', demo: false, redacted: false },
  host: host000, pools: [benchPool], drives: [da1, da3, p1600x], datasets: [benchDataset], zil: null, arc: null, gaps: [],
})));
// What `zfs-advisor observe --json` prints: the fingerprint wrapped with summary/series/commands.
const observeJson = join(dir, 'observe.json');
writeFileSync(observeJson, JSON.stringify({ fingerprint: recordedSync, summary: [], series: [], commands: [], saved: null }));

describe('assess / optane --workload FILE', () => {
  it('assess --json uses the file and says which observation', async () => {
    const c = capture();
    expect(await main(['assess', '--inventory', invFile, '--workload', observeJson, '--json'], c.io)).toBe(0);
    const out = JSON.parse(c.out()) as { workloadUsed: string };
    expect(out.workloadUsed).toBe(`Workload: observation of 10 s from 2026-11-22T10:00:00.000Z to 2026-11-22T10:00:10.000Z (recorded), from ${observeJson}.`);
    const a = Assessment.parse(out);
    const f = a.findings.find((x) => x.ruleId === 'slog-benefit')!;
    expect(f.confidence).toBe('high');
    expect(f.evidence.find((e) => e.label === 'observed sync-write latency p99 (data vdevs)')?.value).toBe(8.39);
  });
  it('optane human view starts with the observation used and quotes the observed latency', async () => {
    const c = capture();
    expect(await main(['optane', '--inventory', invFile, '--workload', observeJson], c.io)).toBe(0);
    expect(c.out().split('\n')[0]).toMatch(/^Workload: observation of 10 s from 2026-11-22T10:00:00.000Z/);
    expect(c.out()).toContain('Should I add Optane? YES (confidence high)');
    expect(c.out()).toContain('p99 8.39 ms');
  });
  it('a workload file that is not a fingerprint: exit 2, one line naming the file', async () => {
    const bad = join(dir, 'not-a-fingerprint.json');
    writeFileSync(bad, JSON.stringify({ fingerprint: { startedAt: 'x' } }));
    const c = capture();
    expect(await main(['optane', '--inventory', invFile, '--workload', bad], c.io)).toBe(2);
    expect(c.err().trim().split('\n')).toHaveLength(1);
    expect(c.err()).toContain('not-a-fingerprint.json: not a workload fingerprint');
  });
  it('usage: --demo takes only a known snapshot name; one inventory source at a time', async () => {
    const c = capture();
    expect(await main(['optane', '--demo=nope'], c.io)).toBe(64);
    expect(await main(['assess', '--demo', '--inventory', invFile], c.io)).toBe(64);
  });
});

describe('stored observations (observe → evidence store → assess/optane)', () => {
  const data = mkdtempSync(join(tmpdir(), 'zfs-advisor-store-'));
  const endedMs = Date.parse(recordedSync.endedAt);

  it('saveObservation stores for the local host; the newest fresh one is read back', async () => {
    const s = await saveObservation(data, { fingerprint: recordedSync, commands: [{ command: 'zpool iostat -v -p -r', exitCode: 0, ms: 3 }] }, { durationS: 10, intervalS: 10, pools: null });
    expect(s).toMatchObject({ ok: true, hostId: 'local' });
    const back = await newestStoredFingerprint(data, endedMs + 3600_000);
    expect(back.ok && back.fingerprint).toEqual(recordedSync);
  });
  it('a local run uses it and names it; older than 7 days it is not used', async () => {
    const fresh = await resolveWorkload({ opts: {}, workloadFile: null, dataDir: data }, endedMs + 6 * 86_400_000);
    expect(fresh.ok && fresh.workload?.startedAt).toBe(recordedSync.startedAt);
    expect(fresh.ok && fresh.used).toMatch(/^Workload: observation of 10 s from 2026-11-22T10:00:00.000Z .* \(recorded\), stored in .*zfs-advisor\.db\.$/);
    const stale = await resolveWorkload({ opts: {}, workloadFile: null, dataDir: data }, endedMs + 8 * 86_400_000);
    expect(stale.ok && stale.workload).toBeNull();
    expect(stale.ok && stale.used).toContain('no completed observation younger than 7 days');
  });
  it('snapshot, demo and inventory-file runs never pick up the stored fingerprint', async () => {
    for (const opts of [{ demo: true }, { snapshot: '/some/snapshot' }, { inventoryFile: invFile }]) {
      const r = await resolveWorkload({ opts, workloadFile: null, dataDir: data }, endedMs);
      expect(r.ok && r.workload).toBeNull();
    }
  });
  it('optane --demo NAME: the demo snapshot, no stored observation, "DEMO DATA" said once', async () => {
    const c = capture();
    expect(await main(['optane', '--demo', '001-raidz2-12disk', '--data-dir', data], c.io)).toBe(0);
    expect(c.out()).toMatch(/^Workload: none \(the demo describes another system/);
    expect(c.out()).toMatch(/\nDEMO DATA: (?!Demo data)/);
    expect(c.out()).not.toMatch(/DEMO DATA: Demo data/i);
  });
  it('a data directory without a store: nothing observed, and reading creates no store', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'zfs-advisor-empty-'));
    expect(await newestStoredFingerprint(empty)).toEqual({ ok: true, fingerprint: null, hostId: null, file: null });
  });
});
