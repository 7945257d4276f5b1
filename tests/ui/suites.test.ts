// @vitest-environment happy-dom
/**
 * The suite page's parts: the request the form describes, the live state from SSE events, the
 * progress line, and the napp-it style comparison of the demo suite (reference 000's published
 * numbers, labelled demo data with its source).
 */
import { describe, expect, it } from 'vitest';
import { mount } from '@vue/test-utils';
import SuiteResult from '../../ui/src/bench/SuiteResult.vue';
import { applySuiteEvent, idleSuite, pairSeries, progressText, suiteRequest } from '../../ui/src/bench/suite-view.ts';
import { demoSuites } from '../../server/src/bench/demo-suite.ts';
import { suiteExport } from '../../server/src/bench/compare.ts';

const progress = (over: Record<string, unknown> = {}) => ({ suiteId: 's1', runIndex: 1, runCount: 4, label: 'x', step: 'run', runPct: 40, pct: 35, iops: 900, latencyUs: 1000, elapsedS: 20, etaS: 75, ...over });

describe('suite view logic', () => {
  it('builds the request only when the target is complete', () => {
    const base = { suite: 'quick', targetKind: 'path' as const, pool: '', dir: 'relative', zvol: true, runtimeS: null, pauseS: null };
    expect(suiteRequest(base)).toBeNull();
    expect(suiteRequest({ ...base, dir: '/tank/bench', runtimeS: 2.4, pauseS: 0, maxLoad1: 64 })).toEqual({ suite: 'quick', target: { kind: 'path', dir: '/tank/bench' }, zvol: false, runtimeS: 2, pauseS: 0, maxLoad1: 64 });
    expect(suiteRequest({ ...base, targetKind: 'dataset', pool: 'tank' })).toEqual({ suite: 'quick', target: { kind: 'dataset', pool: 'tank' }, zvol: true });
  });

  it('follows progress and done events, and says which run and step in words', () => {
    let s = applySuiteEvent(idleSuite(), 'progress', progress());
    expect(s.phase).toBe('running');
    expect(progressText(s.progress)).toBe('run 2 of 4 · run · 40 % · about 75 s left');
    expect(progressText({ ...s.progress!, step: 'pause', etaS: 150 })).toBe('run 2 of 4 · pause (transaction groups flush) · 40 % · about 2 min 30 s left');
    s = applySuiteEvent(s, 'nonsense', { pct: 1 });
    expect(s.progress?.pct).toBe(35);
    s = applySuiteEvent(s, 'done', { jobId: 'j', status: 'canceled', message: 'canceled during run 2 of 4' });
    expect(s).toMatchObject({ phase: 'done', message: 'canceled during run 2 of 4' });
    expect(s.progress?.pct).toBe(35); // not completed: the bar stays where it stopped
  });
});

describe('SuiteResult', () => {
  it('shows the demo suite labelled as demo data, sync next to async with the ratio, a chart and the source', () => {
    const view = suiteExport(demoSuites().before);
    const w = mount(SuiteResult, { props: { view } });
    expect(w.find('[data-testid="demo-label"]').text()).toBe('demo data');
    const link = w.find('[data-testid="demo-citation"] a');
    expect(link.attributes('href')).toBe('https://austinsnerdythings.com/tag/nvme');
    const pairs = w.find('[data-testid="pairs-sync"]');
    expect(pairs.findAll('th').map((t) => t.text()).slice(1, 4)).toEqual(['sync IOPS', 'async IOPS', 'sync ÷ async']);
    const row = pairs.find('tbody tr');
    expect(row.text()).toContain('(vs sync=disabled)');
    expect(row.findAll('td')[3]!.text()).toBe(`${view.pairs.sync[0]!.ratio}×`);
    expect(w.findAll('[data-testid="suite-table"] tbody tr')).toHaveLength(2);
    expect(w.find('[role="img"][aria-label="Sync vs async IOPS chart"]').exists()).toBe(true);
    expect(pairSeries(view.pairs.sync)).toEqual({ labels: [view.pairs.sync[0]!.shared], a: [894], b: [48300] });
  });

  it('emits an export request for CSV', async () => {
    const w = mount(SuiteResult, { props: { view: suiteExport(demoSuites().after) } });
    await w.find('[data-testid="export-csv"]').trigger('click');
    expect(w.emitted('export')).toEqual([['csv']]);
    expect(w.find('[data-testid="pairs-sync"]').exists()).toBe(false); // the after suite has sync runs only
  });
});
