/**
 * One meaning of sync latency (issue 34 §4) on the server-side surfaces: the decision itself
 * (bench/sync-latency.ts), `bench` run text, `bench --history`, `bench --before-after` (text and
 * JSON), suite rows, and the report in HTML, Markdown, PDF and JSON — each fed runs made from real
 * fio 3.33 JSON (latency-runs.ts) and checked against figures read straight from that JSON: an fsync
 * run shows its fsync latency, never fio's write() latency (5–8× smaller in these samples).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../server/src/cli/main.ts';
import type { CliIO } from '../../server/src/cli/command.ts';
import { openStore } from '../../server/src/store/db.ts';
import { finishRun, insertRun } from '../../server/src/bench/store.ts';
import type { BenchmarkRun } from '../../server/src/bench/types.ts';
import { beforeAfter } from '../../server/src/bench/history.ts';
import { runLatencyOf, syncLatencyOf, latencyP99Ratio, pairLabel } from '../../server/src/bench/sync-latency.ts';
import { rowOf } from '../../server/src/bench/compare.ts';
import { runText } from '../../server/src/cli/commands/bench-format.ts';
import { formatLatencyNs } from '../../server/src/text/format.ts';
import { renderReport } from '../../server/src/report/render.ts';
import type { ReportDocument } from '../../server/src/report/document.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { loadDemo, reportInput } from '../report/support.ts';
import { pdfText, popplerAvailable, writeTemp } from '../report/pdf-tools.ts';
import { FSYNC_AFTER, FSYNC_BEFORE, OSYNC, raw, summaryFrom } from './latency-runs.ts';
import { removeTempDirs, tempDir } from './support.ts';

afterAll(() => removeTempDirs(), 60_000);
// Under CI=true a missing poppler throws here (pdf-tools.ts): a failure, not a skip.
const poppler = await popplerAvailable();

function io(): CliIO & { out: string; err: string } {
  const o = { out: '', err: '', isTTY: false, stdout(s: string) { o.out += s; }, stderr(s: string) { o.err += s; }, stdin: async () => '' };
  return o;
}

const before = raw(FSYNC_BEFORE);
const after = raw(FSYNC_AFTER);
const fmt = formatLatencyNs;

describe('which latency is the durable one (sync-latency.ts)', () => {
  it('fsync=1: fio\'s sync section, labelled "sync latency (fsync)"; the write() clat is not it', () => {
    const l = runLatencyOf(summaryFrom(FSYNC_BEFORE, 'fio-fsync'))!;
    expect([l.kind, l.durable, l.label, l.missing]).toEqual(['fsync', true, 'sync latency (fsync)', null]);
    expect([l.p50Ns, l.p99Ns]).toEqual([before.syncP50Ns, before.syncP99Ns]);
    // The sample's write() p99 is 8× smaller than its fsync's: the figure the issue found on history and reports.
    expect(before.syncP99Ns! / before.writeP99Ns).toBeGreaterThan(5);
  });

  it('O_SYNC (fio sync=1) and sync=always: the write itself, each named', () => {
    const o = raw(OSYNC);
    const fioSync = runLatencyOf(summaryFrom(OSYNC, 'fio-sync'))!;
    expect([fioSync.label, fioSync.p99Ns]).toEqual(['sync latency (O_SYNC write)', o.writeP99Ns]);
    const property = runLatencyOf(summaryFrom(OSYNC, 'property'))!;
    expect([property.label, property.p50Ns]).toEqual(['sync latency (sync=always write)', o.writeP50Ns]);
  });

  it('an fsync run stored before the fsync figures were kept: null and why, never the write()\'s', () => {
    const old = summaryFrom(FSYNC_BEFORE, 'fio-fsync', { syncOpLatency: undefined });
    const l = syncLatencyOf(old)!;
    expect(l.label).toBe('sync latency (fsync)');
    expect([l.p50Ns, l.p99Ns, l.meanNs]).toEqual([null, null, null]);
    expect(l.missing).toMatch(/not recorded/);
  });

  it('async writes are labelled as not durable; reads as reads', () => {
    const a = runLatencyOf(summaryFrom(FSYNC_BEFORE, 'async', { syncOpLatency: null, profile: 'async-write-4k' }))!;
    expect([a.kind, a.durable, a.label, a.p99Ns]).toEqual(['async-write', false, 'write() latency (async, not durable)', before.writeP99Ns]);
    expect(syncLatencyOf(summaryFrom(FSYNC_BEFORE, 'async', { syncOpLatency: null }))).toBeNull();
    const r = runLatencyOf(summaryFrom(FSYNC_BEFORE, 'async', { syncOpLatency: null, writeIops: 0, writeBytesPerSec: 0, readIops: 10, readLatency: { meanNs: 1, p50Ns: 2, p99Ns: 3, p999Ns: 4 } }))!;
    expect([r.kind, r.label, r.p99Ns]).toEqual(['read', 'read latency', 3]);
  });

  it('a before/after ratio only between like figures', () => {
    const b = runLatencyOf(summaryFrom(FSYNC_BEFORE, 'fio-fsync'));
    const a = runLatencyOf(summaryFrom(FSYNC_AFTER, 'fio-fsync'));
    expect(latencyP99Ratio(b, a)).toBeCloseTo(after.syncP99Ns! / before.syncP99Ns!, 9);
    expect(pairLabel(b, a)).toBe('sync latency (fsync)');
    const async = runLatencyOf(summaryFrom(FSYNC_AFTER, 'async', { syncOpLatency: null }));
    expect(latencyP99Ratio(b, async)).toBeNull();
    const osync = runLatencyOf(summaryFrom(OSYNC, 'fio-sync'));
    expect(pairLabel(b, osync)).toBe('sync latency (fsync before, O_SYNC write after)');
  });
});

describe('CLI', () => {
  it('bench: the run text leads the write row with the fsync latency and its label', () => {
    const t = runText(summaryFrom(FSYNC_BEFORE, 'fio-fsync'), null);
    expect(t).toMatch(/latency of\s+p50\s+p99/);
    const row = t.split('\n').find((l) => /^\s+write\s/.test(l))!;
    expect(row).toContain('sync latency (fsync)');
    expect(row).toContain(fmt(before.syncP50Ns));
    expect(row).toContain(fmt(before.syncP99Ns));
    expect(t).not.toContain(fmt(before.writeP99Ns));
  });

  it('bench --history and --before-after (text and JSON) read the fsync latency of stored runs', async () => {
    const dataDir = tempDir('zfs-advisor-latency-store-');
    const opened = await openStore(dataDir);
    if (!opened.ok) throw new Error(opened.error.message);
    const store = (s: BenchmarkSummary, fp: string, at: string) => {
      const summary = { ...s, id: `${s.id}-${fp}`, startedAt: at, topologyFingerprint: fp };
      insertRun(opened.store.db, { id: summary.id, profile: s.profile, targetKind: 'dataset', target: s.target, pool: 'tank', status: 'running', startedAt: at, pid: 0, host: 'test', sizeBytes: 64 << 20, runtimeS: 5, bootId: null, procStart: null });
      finishRun(opened.store.db, summary.id, 'completed', null, { summary, detail: {}, message: null } as unknown as BenchmarkRun);
    };
    try {
      store(summaryFrom(FSYNC_BEFORE, 'fio-fsync'), '1111111111111111', '2026-11-22T06:14:52Z');
      store(summaryFrom(FSYNC_AFTER, 'fio-fsync'), '2222222222222222', '2026-11-22T07:14:52Z');
      const ba = beforeAfter(opened.store.db, 'tank', 'sync-write-4k-qd1');
      expect(ba.latency.label).toBe('sync latency (fsync)');
      expect([ba.latency.before?.p99Ns, ba.latency.after?.p99Ns]).toEqual([before.syncP99Ns, after.syncP99Ns]);
      expect(ba.ratios?.latencyP99).toBeCloseTo(after.syncP99Ns! / before.syncP99Ns!, 9);
    } finally { opened.store.close(); }

    const h = io();
    expect(await main(['bench', '--history', '--pool', 'tank', '--data-dir', dataDir], h)).toBe(0);
    expect(h.out).toMatch(/p99 latency\s+latency of/);
    expect(h.out).toContain(`${fmt(before.syncP99Ns)}  sync latency (fsync)`);
    expect(h.out).toContain(`${fmt(after.syncP99Ns)}  sync latency (fsync)`);
    expect(h.out).not.toContain(fmt(before.writeP99Ns));

    const hj = io();
    expect(await main(['bench', '--history', '--json', '--data-dir', dataDir], hj)).toBe(0);
    const rows = JSON.parse(hj.out) as { latency: { label: string; p99Ns: number } }[];
    expect(rows.map((r) => [r.latency.label, r.latency.p99Ns])).toEqual([['sync latency (fsync)', after.syncP99Ns], ['sync latency (fsync)', before.syncP99Ns]]);

    const t = io();
    expect(await main(['bench', '--before-after', '--pool', 'tank', 'sync-write-4k-qd1', '--data-dir', dataDir], t)).toBe(0);
    expect(t.out).toContain(`sync latency (fsync) p99 ${fmt(before.syncP99Ns)}`);
    expect(t.out).toContain(`sync latency (fsync) p99 ${fmt(after.syncP99Ns)}`);
    // 962.6 µs → 577.5 µs is −40 %; the write() p99 (114 → 109 µs) would have said −4 %.
    expect(t.out).toContain(`sync latency (fsync) p99 ${Math.round((after.syncP99Ns! / before.syncP99Ns! - 1) * 100)} %`);
    expect(t.out).not.toMatch(/write p99/);

    const j = io();
    expect(await main(['bench', '--before-after', '--pool', 'tank', 'sync-write-4k-qd1', '--json', '--data-dir', dataDir], j)).toBe(0);
    const view = JSON.parse(j.out) as { latency: { label: string }; ratios: Record<string, number> };
    expect(view.latency.label).toBe('sync latency (fsync)');
    expect(view.ratios.latencyP99).toBeCloseTo(after.syncP99Ns! / before.syncP99Ns!, 9);
    expect(view.ratios).not.toHaveProperty('writeP99');
  });

  it('a suite row names its latency with the same words', () => {
    const s = summaryFrom(FSYNC_BEFORE, 'fio-fsync');
    const row = rowOf({ label: 'x', profile: s.profile, targetKind: 'dataset', bs: 4096, iodepth: 1, io: 'direct', sync: 'always', result: s, message: null } as unknown as Parameters<typeof rowOf>[0]);
    expect([row.latencyOf, row.p99Us]).toEqual(['sync latency (fsync)', Math.round(before.syncP99Ns! / 100) / 10]);
  });
});

describe('report formats', () => {
  const input = async () => reportInput(await loadDemo('000-hdd-mirror-optane'), [summaryFrom(FSYNC_BEFORE, 'fio-fsync', { pool: 'bench-pool' })]);

  it('JSON carries the run\'s latency with its label', async () => {
    const doc = JSON.parse((await renderReport(await input(), { format: 'json' })).body as string) as ReportDocument;
    const l = doc.benchmarks[0]!.latency!;
    expect([l.label, l.p99Ns, l.durable]).toEqual(['sync latency (fsync)', before.syncP99Ns, true]);
  });

  it('Markdown and HTML show the fsync latency under its label, not the write()\'s', async () => {
    const md = (await renderReport(await input(), { format: 'md' })).body as string;
    expect(md).toContain(`sync latency (fsync): ${fmt(before.syncMeanNs)} / ${fmt(before.syncP99Ns)}`);
    expect(md).not.toContain(fmt(before.writeP99Ns));
    const html = (await renderReport(await input(), { format: 'html' })).body as string;
    expect(html).toContain('sync latency (fsync) mean / p99 / p99.9');
    expect(html).toContain(fmt(before.syncP99Ns));
    expect(html).not.toContain('write latency mean');
    expect(html).not.toContain(fmt(before.writeP99Ns));
  });

  it.runIf(poppler)('PDF shows the fsync latency under its label', async () => {
    const out = await renderReport(await input(), { format: 'pdf' });
    const { file } = writeTemp('latency.pdf', out.body as Buffer);
    const text = (await pdfText(file)).replace(/\s+/g, ' ');
    expect(text).toContain('sync latency (fsync) mean / p99 / p99.9');
    expect(text).toContain(fmt(before.syncP99Ns));
    expect(text).not.toContain('write latency mean');
  });
});
