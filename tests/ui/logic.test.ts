import { describe, expect, it } from 'vitest';
import { SseParser } from '../../ui/src/api/sse.ts';
import { apiUrl, basePathFrom, fillPath } from '../../ui/src/api/base.ts';
import { createApiClient, fileNameOf } from '../../ui/src/api/client.ts';
import { expectationRows, narrowVerdict } from '../../ui/src/optane/verdict-view.ts';
import { applyEvent, shownFigures, benchRequest, change, commandLines, guardsPass, idleRun, mismatchText, pctOf, resultSeries, signedPct } from '../../ui/src/bench/bench-view.ts';
import { ashiftLabel, binLabel, binsChart, cumulativeCurve, parseSizesJson, project, specialCapacity } from '../../ui/src/sizing/sizing-view.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { fixtureText, inventory000, optane000 } from './fixtures.ts';

describe('SSE parser', () => {
  it('splits events across chunks, joins multi-line data, skips comments, accepts CRLF', () => {
    const p = new SseParser();
    expect(p.push('event: progress\ndata: {"pct":')).toEqual([]);
    expect(p.push('50}\n\n: keep-alive\n\n')).toEqual([{ event: 'progress', data: '{"pct":50}' }]);
    expect(p.push('data: a\r\ndata: b\r\n\r\nevent: done\ndata:x\n\n')).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'done', data: 'x' },
    ]);
    // A CR at the very end of a chunk may be half of CRLF: nothing is emitted until the next chunk.
    expect(p.push('data: c\r')).toEqual([]);
    expect(p.push('\n\r\n')).toEqual([{ event: 'message', data: 'c' }]);
  });
});

describe('base path and client', () => {
  it('reads the injected base path and builds URLs under it', () => {
    const doc = { querySelector: (s: string) => (s.includes('zfs-advisor-base') ? { getAttribute: () => '/zfs-advisor/' } : null) } as unknown as Document;
    expect(basePathFrom(doc)).toBe('/zfs-advisor/');
    expect(basePathFrom({ querySelector: () => null } as unknown as Document)).toBe('/');
    expect(basePathFrom({ querySelector: () => ({ getAttribute: () => 'javascript:x' }) } as unknown as Document)).toBe('/');
    expect(apiUrl('/zfs-advisor/', '/api/hosts', { a: 'x y', b: undefined })).toBe('/zfs-advisor/api/hosts?a=x+y');
    expect(fillPath('/api/hosts/:hostId/findings/:fingerprint/ack', { hostId: 'my nas', fingerprint: 'ab' })).toBe('/api/hosts/my%20nas/findings/ab/ack');
    expect(fileNameOf('attachment; filename="zfs-advisor-report.md"', 'x')).toBe('zfs-advisor-report.md');
  });

  it('sends the token, the JSON body, and returns server errors as values', async () => {
    const seen: { url: string; init: RequestInit | undefined }[] = [];
    const api = createApiClient('/p/', () => 'tok123', async (url, init) => {
      seen.push({ url, init });
      if (url.endsWith('/ack')) return new Response(JSON.stringify({ state: 'dismissed', note: null, createdAt: 't' }), { status: 200, headers: { 'Content-Type': 'application/json' } });
      return new Response(JSON.stringify({ error: { code: 'not-found', message: 'host "x" not found' } }), { status: 404 });
    });
    const ok = await api.call('ackFinding', { params: { hostId: 'demo', fingerprint: 'fe64' }, body: { state: 'dismissed' } });
    expect(ok).toEqual({ ok: true, value: { state: 'dismissed', note: null, createdAt: 't' } });
    expect(seen[0]!.url).toBe('/p/api/hosts/demo/findings/fe64/ack');
    expect(seen[0]!.init?.method).toBe('PUT');
    expect((seen[0]!.init?.headers as Record<string, string>).Authorization).toBe('Bearer tok123');
    expect(seen[0]!.init?.body).toBe('{"state":"dismissed"}');
    const bad = await api.call('getInventory', { params: { hostId: 'x' } });
    expect(bad).toEqual({ ok: false, status: 404, code: 'not-found', message: 'host "x" not found' });
    const down = await createApiClient('/', () => null, async () => { throw new TypeError('fetch failed'); }).call('info');
    expect(down).toMatchObject({ ok: false, status: 0, code: 'network' });
  });
});

describe('Optane verdict view', () => {
  it('narrows the 000 demo verdict and computes the gains', () => {
    const v = narrowVerdict(optane000());
    expect(v.verdict).toBe('depends');
    expect(v.pool).toBe('bench-pool');
    expect(v.candidates.map((c) => c.device)).toEqual(['/dev/nvd1']);
    expect(v.layout).toEqual({ commands: ['zpool add -n bench-pool log /dev/nvd1', 'zpool add bench-pool log /dev/nvd1'], reversible: 'yes' });
    const rows = expectationRows(v);
    expect(rows.map((r) => [r.now.iops, r.withOptane.iops, r.gain])).toEqual([[83, 20000, 241], [894, 48300, 54]]);
  });
  it('keeps what is well-formed in a partial verdict', () => {
    const v = narrowVerdict({ verdict: 'yes', headline: 'h', reasons: ['r', 3], evidence: [{ label: 'a', value: 1 }, { bad: true }], expected: { qd1: {} }, candidates: [], purchase: [{ product: 'P1600X', capacityGb: 118, why: 'w' }], layout: null, unknowns: [] });
    expect(v.reasons).toEqual(['r']);
    expect(v.evidence).toEqual([{ label: 'a', value: 1 }]);
    expect(v.expected).toBeNull();
    expect(v.purchase.length).toBe(1);
    expect(v.layout).toEqual({ commands: [], reversible: 'yes' });
    expect(v.confidence).toBe('low');
    expect(v.deviceProbes).toEqual([]); // a verdict stored before the offers existed
  });
  it('keeps well-formed device-probe offers, measured or not, and drops broken ones', () => {
    const ok = { driveId: 'd1', device: '/dev/nvme1n1', product: 'P1600X', sizeBytes: 268435456, measured: null, command: 'zfs-advisor bench …' };
    const v = narrowVerdict({
      verdict: 'yes', headline: 'h', reasons: [], evidence: [], expected: null, candidates: [], purchase: [], layout: null, unknowns: [],
      deviceProbes: [ok, { ...ok, driveId: 'd2', measured: { runId: 'r1', startedAt: '2026-11-26T03:00:00Z', iops: 12500, latencyUs: 80 } }, { ...ok, driveId: 'd3', measured: { runId: 'r2' } }, { driveId: 'd4' }],
    });
    expect(v.deviceProbes.map((o) => [o.driveId, o.measured?.runId ?? null])).toEqual([['d1', null], ['d2', 'r1'], ['d3', null]]);
  });
});

const summary = (over: Partial<BenchmarkSummary> = {}): BenchmarkSummary => ({
  id: 'b1', profile: 'sync-write-4k-qd1', pool: 'tank', target: 'tank/zfs-advisor-bench', startedAt: '2026-11-22T07:00:00Z', status: 'completed',
  syncMode: 'property', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: 13712, readBytesPerSec: 0, writeBytesPerSec: 56164352,
  writeLatency: { meanNs: 72_900, p50Ns: 70_144, p99Ns: 117_248, p999Ns: 250_880 }, readLatency: null,
  wallSeconds: 30.4, fioRuntimeSeconds: 30.0, wallTimeMismatch: false, topologyFingerprint: 'x', notes: [], ...over,
});

describe('benchmark view logic', () => {
  it('allows a start only when every guard passed', () => {
    expect(guardsPass([])).toBe(false);
    expect(guardsPass([{ id: 'a', ok: true, message: '' }, { id: 'b', ok: false, message: 'pool is DEGRADED' }])).toBe(false);
    expect(guardsPass([{ id: 'a', ok: true, message: '' }])).toBe(true);
    expect(commandLines(['zfs create tank/x', ['fio', '--name=a b', '--rw=randwrite']])).toEqual(['zfs create tank/x', "fio '--name=a b' --rw=randwrite"]);
  });
  it('builds the runner request from the form, or null while incomplete', () => {
    const form = { profile: 'sync-write-4k-qd1', targetKind: 'dataset' as const, pool: 'tank', dir: '', runtimeS: 3.4, sizeMiB: 16 };
    expect(benchRequest(form)).toEqual({ profile: 'sync-write-4k-qd1', target: { kind: 'dataset', pool: 'tank' }, runtimeS: 3, sizeBytes: 16 * 1024 * 1024 });
    expect(benchRequest({ ...form, targetKind: 'path', dir: 'relative' })).toBeNull();
    expect(benchRequest({ ...form, targetKind: 'path', dir: '/mnt/tank/b' })!.target).toEqual({ kind: 'path', dir: '/mnt/tank/b' });
    expect(benchRequest({ ...form, pool: '' })).toBeNull();
  });
  it('follows progress events to 100 % on done', () => {
    let r = idleRun();
    r = applyEvent(r, 'progress', { phase: 'run', pct: 40.4, iops: 900, latencyUs: 1100, elapsedS: 4 });
    r = applyEvent(r, 'progress', { phase: 'run', pct: 96, iops: null, latencyUs: null, elapsedS: 9.6 });
    expect(pctOf(r.progress)).toBe(96);
    expect(r.samples).toEqual([{ t: 4, iops: 900, latencyUs: 1100 }]);
    r = applyEvent(r, 'bogus', {});
    r = applyEvent(r, 'done', { runId: 'r1', hostId: 'local', profile: 'p', status: 'completed', startedAt: 't', progress: null, summary: summary(), message: null });
    expect(r.phase).toBe('done');
    expect(pctOf(r.progress)).toBe(100);
    const failed = applyEvent(idleRun(), 'done', { runId: 'r1', hostId: 'local', profile: 'p', status: 'refused', startedAt: 't', progress: null, summary: null, message: 'guard refused' });
    expect([failed.phase, failed.message]).toEqual(['error', 'guard refused']);
  });
  it('builds result series, before/after changes and the wall-time flag', () => {
    const s = resultSeries(summary());
    expect(s.iops).toEqual([{ label: 'write', value: 13712 }]);
    expect(s.latency.map((x) => [x.label, x.write])).toEqual([['mean', 72.9], ['p50', 70.144], ['p99', 117.248], ['p99.9', 250.88]]);
    expect(signedPct(change(894, 13712))).toBe('+1434 %');
    expect(change(0, 5)).toBeNull();
    expect(mismatchText(summary())).toBeNull();
    expect(mismatchText(summary({ wallTimeMismatch: true, wallSeconds: 2310, fioRuntimeSeconds: 30 }))).toBe('wall time 2310.0 s vs fio runtime 30.0 s: the result may hide buffered writes or stalls');
  });
});

describe('special-vdev sizing', () => {
  it('reads `zfs-advisor sizes --json` and projects special usage', () => {
    const parsed = parseSizesJson(fixtureText('sizes-rules-dir.json'));
    if (!parsed.ok) throw new Error(parsed.message);
    const h = parsed.histograms[0]!;
    expect([h.files, h.totalBytes]).toEqual([44, 217379]);
    const p16 = project(h, 16384, { sizeBytes: 400_000, allocBytes: null })!;
    expect([p16.smallBlockBytes, p16.metadataBytes, p16.totalBytes]).toEqual([282624, 54144, 336768]);
    expect(p16.share).toBeCloseTo(336768 / 400_000, 6);
    expect(p16.verdict).toBe('overflows'); // 84 % > 75 %
    expect(project(h, 4096, { sizeBytes: 400_000, allocBytes: null })!.verdict).toBe('fits'); // 34 %
    expect(project(h, 4096, null)!.verdict).toBe('no-special');
    expect(project(h, 131072, null)!.allData).toBe(true);
    expect(project(h, 12345, null)).toBeNull();
    const curve = cumulativeCurve(h.fileBins);
    expect(curve.at(-1)!.share).toBe(1);
    expect(curve.find((c) => c.upperBytes === 4096)!.share).toBeCloseTo(57178 / 217379, 6);
  });
  it('rejects what is not a sizes result', () => {
    expect(parseSizesJson('{').ok).toBe(false);
    expect(parseSizesJson('{"histogram": {"target": 1}}').ok).toBe(false);
  });
  it('labels bins and finds no special vdev in the 000 demo', () => {
    expect([binLabel(512), binLabel(4096), binLabel(1048576), binLabel(1536)]).toEqual(['512', '4K', '1M', '1536']);
    expect(specialCapacity(inventory000().pools[0]!)).toBeNull();
  });
  // Issue 38 §4: the axis ran 0–"0.009 GiB" for 10.5 MiB; ashift read "9 (512 sectors)".
  it('scales the block chart to the data and names sectors in bytes', () => {
    const bin = (upperBytes: number, bytes: number) => ({ upperBytes, count: 1, bytes, cumulativeBytes: 0, cumulativeCount: 0 });
    const small = binsChart([bin(4096, 2.5 * 2 ** 20), bin(131072, 10.5 * 2 ** 20)]);
    expect(small.unit).toBe('MiB');
    expect(small.values).toEqual([2.5, 10.5]);
    expect(small.labels).toEqual(['4K', '128K']);
    const big = binsChart([bin(131072, 54.9 * 2 ** 30), bin(4096, 300 * 2 ** 20)]);
    expect(big.unit).toBe('GiB');
    expect(big.values[0]).toBeCloseTo(54.9);
    expect(binsChart([]).unit).toBe('B');
    expect([9, 12].map(ashiftLabel)).toEqual(['9 (512-byte sectors)', '12 (4096-byte sectors)']);
  });
});

describe('run card figures (issue 27: "IOPS — latency —" after a finished probe)', () => {
  const summary = { readIops: 0, writeIops: 212.6, syncMode: 'property', writeLatency: { meanNs: 4_900_000, p50Ns: 4_700_000, p99Ns: 9_000_000, p999Ns: null }, syncOpLatency: null } as unknown as BenchmarkSummary;
  it('a finished run shows its measured IOPS and p50 latency, not the empty last progress event', () => {
    const running = applyEvent({ ...idleRun(), phase: 'running' }, 'progress', { pct: 99, phase: 'running', elapsedS: 9, iops: null, latencyUs: null, message: null });
    const done = applyEvent(running, 'done', { runId: 'r', hostId: 'local', profile: 'sync-write-4k-qd1', status: 'completed', startedAt: '2026-11-26T01:00:00.000Z', progress: null, summary, message: null });
    expect(shownFigures(done)).toEqual({ iops: 212.6, latencyUs: 4700, final: true, latencyOf: 'sync latency (sync=always write) p50' });
  });
  it('while running it shows the live figures', () => {
    const running = applyEvent({ ...idleRun(), phase: 'running' }, 'progress', { pct: 50, phase: 'running', elapsedS: 5, iops: 200, latencyUs: 5000, message: null });
    expect(shownFigures(running)).toEqual({ iops: 200, latencyUs: 5000, final: false, latencyOf: null });
  });
});
