// @vitest-environment happy-dom
/**
 * One meaning of sync latency on the Benchmarks page (issue 34 §4): the result card, the history
 * table, the before/after table and the run card show an fsync run's fsync latency under the words
 * of bench/sync-latency.ts — never fio's write() latency. Runs are made from real fio 3.33 JSON
 * (tests/bench/latency-runs.ts); the before/after view is the server's own (history.ts over a real
 * store, checked against the API schema) handed to the page through a fake API client.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import BenchHistory from '../../ui/src/bench/BenchHistory.vue';
import BenchResult from '../../ui/src/bench/BenchResult.vue';
import { applyEvent, idleRun, resultSeries, shownFigures } from '../../ui/src/bench/bench-view.ts';
import { createSession, SessionKey } from '../../ui/src/state/session.ts';
import type { ApiClient } from '../../ui/src/api/client.ts';
import { BeforeAfterView } from '../../server/src/api/schemas.ts';
import { openStore } from '../../server/src/store/db.ts';
import { finishRun, insertRun } from '../../server/src/bench/store.ts';
import { beforeAfter } from '../../server/src/bench/history.ts';
import type { BenchmarkRun } from '../../server/src/bench/types.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { formatLatencyNs, formatLatencyUs } from '../../server/src/text/format.ts';
import { FSYNC_AFTER, FSYNC_BEFORE, raw, summaryFrom } from '../bench/latency-runs.ts';
import { removeTempDirs, tempDir } from '../bench/support.ts';

afterAll(() => removeTempDirs(), 60_000);
// happy-dom has no canvas: the charts render nothing here (their data is checked through resultSeries).
vi.mock('vue-chartjs', async () => {
  const { defineComponent, h } = await import('vue');
  return { Bar: defineComponent({ render: () => h('canvas') }), Line: defineComponent({ render: () => h('canvas') }) };
});

const before = raw(FSYNC_BEFORE);
const after = raw(FSYNC_AFTER);
const runA = summaryFrom(FSYNC_BEFORE, 'fio-fsync', { id: 'run-a', startedAt: '2026-11-22T06:14:52Z', topologyFingerprint: '1111111111111111' });
const runB = summaryFrom(FSYNC_AFTER, 'fio-fsync', { id: 'run-b', startedAt: '2026-11-22T07:14:52Z', topologyFingerprint: '2222222222222222' });

async function serverBeforeAfter(runs: BenchmarkSummary[]) {
  const opened = await openStore(tempDir('zfs-advisor-ui-latency-'));
  if (!opened.ok) throw new Error(opened.error.message);
  try {
    for (const s of runs) {
      insertRun(opened.store.db, { id: s.id, profile: s.profile, targetKind: 'dataset', target: s.target, pool: 'tank', status: 'running', startedAt: s.startedAt, pid: 0, host: 'test', sizeBytes: 64 << 20, runtimeS: 5, bootId: null, procStart: null });
      finishRun(opened.store.db, s.id, 'completed', null, { summary: s, detail: {}, message: null } as unknown as BenchmarkRun);
    }
    // Through JSON and the API's response schema, as the page receives it.
    return BeforeAfterView.parse(JSON.parse(JSON.stringify(beforeAfter(opened.store.db, 'tank', 'sync-write-4k-qd1'))));
  } finally { opened.store.close(); }
}

describe('Benchmarks page: sync latency', () => {
  it('history and before/after show the fsync p99 with its label and the change of the fsync p99', async () => {
    const view = await serverBeforeAfter([runA, runB]);
    const api = { call: vi.fn(async (id: string) => (id === 'benchBeforeAfter' ? { ok: true, value: view } : { ok: false, status: 404, code: 'not-found', message: 'no' })) } as unknown as ApiClient;
    const session = createSession(api, null);
    session.hostId.value = 'local';
    const w = mount(BenchHistory, { props: { history: [runB, runA] }, global: { provide: { [SessionKey as symbol]: session } } });
    expect(w.find('thead').text()).toContain('p99 latency');
    expect(w.findAll('[data-testid="history-p99"]').map((c) => c.text())).toEqual([formatLatencyNs(after.syncP99Ns), formatLatencyNs(before.syncP99Ns)]);
    expect(w.findAll('[data-testid="history-latency-of"]').map((c) => c.text())).toEqual(['sync latency (fsync)', 'sync latency (fsync)']);
    expect(w.text()).not.toContain(formatLatencyNs(before.writeP99Ns));

    await w.find('select').setValue('0');
    await w.findAll('button').find((b) => b.text() === 'Compare')!.trigger('click');
    await flushPromises();
    const row = w.find('[data-testid="before-after-latency"]').findAll('td').map((c) => c.text());
    const pct = Math.round((after.syncP99Ns! / before.syncP99Ns! - 1) * 100);
    expect(row).toEqual(['p99 sync latency (fsync)', formatLatencyNs(before.syncP99Ns), formatLatencyNs(after.syncP99Ns), `${pct} %`]);
  });

  it('the result card and its latency chart read the fsync latency; the run card too', () => {
    const w = mount(BenchResult, { props: { summary: runA }});
    const p = w.find('[data-testid="sync-op-latency"]').text();
    expect(p).toContain('sync latency (fsync)');
    expect(p).toContain(`p99 ${formatLatencyNs(before.syncP99Ns)}`);
    expect(w.text()).toContain('Latency percentiles (sync latency (fsync))');
    expect(w.text()).not.toContain(formatLatencyUs(before.writeP99Ns / 1000));
    const s = resultSeries(runA);
    expect(s.latency.find((x) => x.label === 'p99')!.write).toBe(before.syncP99Ns! / 1000);

    const done = applyEvent({ ...idleRun(), phase: 'running' }, 'done', { runId: 'run-a', hostId: 'local', profile: runA.profile, status: 'completed', startedAt: runA.startedAt, progress: null, summary: runA, message: null });
    expect(shownFigures(done)).toMatchObject({ latencyUs: before.syncP50Ns! / 1000, latencyOf: 'sync latency (fsync) p50' });
  });

  it('an fsync run stored without its fsync figures says so instead of showing the write()\'s', () => {
    const old = { ...runA, syncOpLatency: undefined };
    const w = mount(BenchResult, { props: { summary: old }});
    expect(w.find('[data-testid="sync-op-latency"]').text()).toMatch(/sync latency \(fsync\).*not recorded/);
    expect(resultSeries(old).latency).toEqual([]);
  });
});
