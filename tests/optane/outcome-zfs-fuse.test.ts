/**
 * Closing the loop end to end on a live zfs-fuse pool (issue 34 §2), over real HTTP with the real
 * benchmark runner: a single-disk pool is assessed and probed (`sync-write-4k-qd1` on a
 * throw-away dataset); nothing is offered while the pool is unchanged; the owner adds a log vdev
 * (the test runs `zpool add`, as a person would — the app never does); after the next assessment
 * the same probe is offered, one POST runs it, and the pair — forecast with its range, measured
 * before and after, what changed — is stored and carried by the Markdown report.
 * Under CI=true a missing zfs-fuse or fio fails (zfsFuseAvailable/fioAvailable throw).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { BenchRunView } from '../../server/src/api/contract.ts';
import { LoopView } from '../../server/src/optane/outcome.ts';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../support/zfs-fuse.ts';
import { fioAvailable } from '../bench/support.ts';

const live = zfsFuseAvailable() && fioAvailable();
const POOL = 'loop_single';
let zf: ZfsFuseHandle;
let s: RunningServer;
let dataDir: string;

async function call(method: string, path: string, body?: unknown) {
  const res = await fetch(new URL(path.replace(/^\//, ''), s.url), { method, headers: method === 'GET' ? {} : { 'Content-Type': 'application/json' }, body: body === undefined ? (method === 'GET' ? undefined : '{}') : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown = null;
  try { json = JSON.parse(text); } catch { /* not JSON */ }
  return { status: res.status, json, text };
}

/** Follows a run's event stream to its end; the final view. */
async function finished(runId: string): Promise<BenchRunView> {
  const text = await (await fetch(new URL(`api/bench/runs/${runId}/events`, s.url))).text();
  const done = text.split('\n\n').filter((b) => b.startsWith('event: done')).at(-1)!;
  return BenchRunView.parse(JSON.parse(done.split('\n')[1]!.slice('data: '.length)));
}

const assess = async () => { const a = await call('POST', '/api/hosts/local/assessments'); expect(a.status, a.text).toBe(201); };
const outcome = async () => LoopView.parse((await call('GET', '/api/hosts/local/optane/outcome')).json);

beforeAll(async () => {
  if (!live) return;
  zf = await startZfsFuse();
  await zf.createPool(POOL, [await zf.fileVdev('loop-a', '256M')]);
  dataDir = mkdtempSync(join(tmpdir(), 'zfsa-loop-e2e-'));
  const r = await startServer({ host: '127.0.0.1', port: 0, dataDir, demo: false, uiDir: null, assessOnStart: false, logSink: () => {}, benchCeiling: { maxLoad1: 1000 } });
  if (!r.ok) throw new Error(r.message);
  s = r.server;
}, 600_000);
afterAll(async () => {
  await s?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  await zf?.stop();
}, 120_000);

describe('closing the loop on a live pool', () => {
  it.runIf(live)('probe, add a log vdev, re-probe in one click: the pair is stored and reported', async () => {
    expect((await call('PATCH', '/api/settings', { benchmark: { maxLoad1: 1000 } })).status).toBe(200);
    await assess();
    const start = await call('POST', '/api/hosts/local/bench/runs', { profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: POOL }, sizeBytes: 8 * 1024 * 1024, runtimeS: 2, maxLoad1: 1000 });
    expect(start.status, start.text).toBe(202);
    const before = await finished(BenchRunView.parse(start.json).runId);
    expect(before.status, before.message ?? '').toBe('completed');
    await assess();
    expect((await outcome()).loop.state).toBe('no-change');

    await zf.must('zpool', ['add', POOL, 'log', await zf.fileVdev('loop-log', '128M')]);
    await assess();
    const offered = (await outcome()).loop;
    expect(offered.state).toBe('probe-offered');
    if (offered.state !== 'probe-offered') return;
    expect(offered.change.added.map((a) => [a.class, a.devices])).toEqual([['log', ['loop-log.img']]]);
    expect(offered.before?.runId).toBe(before.summary!.id);
    expect(offered.reprobe).toMatchObject({ profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: POOL }, sizeBytes: 8 * 1024 * 1024 });
    expect(offered.forecast?.with.high).toBeGreaterThanOrEqual(offered.forecast!.with.low);

    const again = await call('POST', '/api/hosts/local/optane/outcome/probe');
    expect(again.status, again.text).toBe(202);
    const after = await finished(BenchRunView.parse(again.json).runId);
    expect(after.status, after.message ?? '').toBe('completed');
    expect(after.summary!.topologyFingerprint).not.toBe(before.summary!.topologyFingerprint);

    const v = await outcome();
    expect(v.loop.state).toBe('measured');
    expect(v.pairs).toHaveLength(1);
    const o = v.pairs[0]!.outcome;
    expect([o.before?.runId, o.after.runId]).toEqual([before.summary!.id, after.summary!.id]);
    expect(o.measuredGain).toBeCloseTo(after.summary!.writeIops / before.summary!.writeIops, 6);
    expect(o.sentence).toMatch(new RegExp(`^${POOL}: forecast ~[\\d,.]+ \\([\\d,.]+(–[\\d,.]+)?\\) sync IOPS at QD1 with [^,]+, measured [\\d,.]+`));

    const report = await call('POST', '/api/reports/md?host=local');
    expect(report.status, report.text.slice(0, 300)).toBe(200);
    expect(report.text).toContain('### Forecast and measured');
    expect(report.text).toContain(`after adding log loop-log.img.`);
  }, 300_000);
});
