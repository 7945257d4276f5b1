// @vitest-environment happy-dom
/**
 * The Optane page's "Forecast and measured" panel (issue 34 §2): hidden while nothing was added;
 * after a log vdev appears it offers the re-probe in one click (only where the probe can run),
 * starts it through POST …/optane/outcome/probe, assesses again, and then shows the server's
 * "forecast X (range), measured Y" line with its rows. A refused re-probe says why.
 */
import { describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import OutcomePanel from '../../ui/src/optane/OutcomePanel.vue';
import { createSession, SessionKey } from '../../ui/src/state/session.ts';
import type { ApiClient } from '../../ui/src/api/client.ts';
import { loopOutcome, outcomeRows, type LoopView } from '../../server/src/optane/outcome.ts';
import { logPool, plainPool, probeRun, storedForecast } from '../optane/outcome-fixtures.ts';

const T0 = '2026-11-28T09:00:00.000Z';
const T1 = '2026-11-28T09:30:00.000Z';
const input = (runs: ReturnType<typeof probeRun>[], nowPools = [logPool]) => ({
  forecasts: [storedForecast(2, T1, nowPools), storedForecast(1, T0, [plainPool])],
  now: { snapshotId: 2, capturedAt: T1, pools: nowPools },
  runs,
});
const before = probeRun('b', '2026-11-28T08:55:00.000Z', 88);
const after = probeRun('a', '2026-11-28T09:40:00.000Z', 729, { topologyFingerprint: 'fp-b' });
const viewOf = (runs: ReturnType<typeof probeRun>[], nowPools = [logPool]): LoopView => {
  const loop = loopOutcome(input(runs, nowPools));
  return { loop, rows: loop.state === 'measured' ? outcomeRows(loop.outcome) : null, stored: loop.state === 'measured', pairs: loop.state === 'measured' ? [{ id: 1, recordedAt: '2026-11-28T09:41:00.000Z', outcome: loop.outcome }] : [] };
};

function fakeApi(views: LoopView[], probe: { ok: true; status: string } | { ok: false; message: string }) {
  const calls: string[] = [];
  let i = 0;
  const api = {
    call: vi.fn(async (id: string) => {
      calls.push(id);
      if (id === 'info') return { ok: true, value: { version: 'x', demo: false, features: { bench: true } } };
      if (id === 'listHosts') return { ok: true, value: [{ id: 'local', kind: 'local', name: 'This machine', address: null, port: null, node: null, verifyTls: true, pinnedFingerprint: null, hasSecret: false, createdAt: 't', updatedAt: 't', lastAssessment: null }] };
      if (id === 'optaneOutcome') return { ok: true, value: views[Math.min(i++, views.length - 1)] };
      if (id === 'optaneOutcomeProbe') {
        return probe.ok
          ? { ok: true, value: { runId: 'r1', hostId: 'local', profile: 'sync-write-4k-qd1', status: probe.status, startedAt: 't', progress: null, summary: after, message: null } }
          : { ok: false, status: 409, code: 'conflict', message: probe.message };
      }
      if (id === 'runAssessment') return { ok: true, value: {} };
      return { ok: false, status: 404, code: 'not-found', message: 'no' };
    }),
    stream: vi.fn(async () => ({ ok: true, value: null })),
  } as unknown as ApiClient;
  return { api, calls };
}

async function mountPanel(views: LoopView[], probe: Parameters<typeof fakeApi>[1] = { ok: true, status: 'completed' }, available = true) {
  const { api, calls } = fakeApi(views, probe);
  const session = createSession(api, null);
  await session.load();
  const w = mount(OutcomePanel, { props: { available, whyNot: 'The probe runs only on the machine this server runs on.' }, global: { provide: { [SessionKey as symbol]: session }, stubs: { LiveProgress: true } } });
  await flushPromises();
  return { w, calls };
}

describe('OutcomePanel', () => {
  it('nothing added, nothing stored: the panel is not shown', async () => {
    const { w } = await mountPanel([viewOf([before], [plainPool])]);
    expect(w.find('[data-testid="outcome-panel"]').exists()).toBe(false);
  });

  it('a log vdev appeared: one click re-probes, assesses again, and shows forecast beside measured', async () => {
    const { w, calls } = await mountPanel([viewOf([before]), viewOf([before, after])]);
    expect(w.get('[data-testid="outcome-sentence"]').text()).toBe('nctank has a new log slog; forecast ~700 (400–1,200) sync IOPS at QD1 with Intel Optane P1600X (to buy) was given before. Run the same probe again (sync-write-4k-qd1, on a throw-away dataset) to see what it measures now.');
    expect(w.find('[data-testid="outcome-rows"]').exists()).toBe(false);
    const button = w.get('[data-testid="reprobe"]');
    expect(button.text()).toBe('Measure the result');
    await button.trigger('click');
    await flushPromises();
    expect(calls.filter((c) => ['optaneOutcomeProbe', 'runAssessment', 'optaneOutcome'].includes(c))).toEqual(['optaneOutcome', 'optaneOutcomeProbe', 'runAssessment', 'optaneOutcome']);
    expect(w.get('[data-testid="outcome-sentence"]').text()).toMatch(/^nctank: forecast ~700 \(400–1,200\) sync IOPS at QD1 with Intel Optane P1600X \(to buy\), measured 729, 1\.37 ms per durable write \(p50\) — within the forecast range/);
    const rows = w.get('[data-testid="outcome-rows"]').findAll('tbody tr').map((r) => r.findAll('th, td').map((c) => c.text()));
    expect(rows[1]).toEqual(['QD1 4 KiB sync IOPS after', '700 (400–1,200)', '729 (run a, 2026-11-28 09:40 UTC)']);
    expect(rows[2]).toEqual(['Gain', '8.0×', '8.3×']);
    expect(w.get('[data-testid="reprobe"]').text()).toBe('Measure again');
    expect(w.emitted('measured')).toHaveLength(1);
  });

  it('a refused re-probe says why and does not assess', async () => {
    const { w, calls } = await mountPanel([viewOf([before])], { ok: false, message: 'a benchmark suite is running on host "local"' });
    await w.get('[data-testid="reprobe"]').trigger('click');
    await flushPromises();
    expect(w.get('[data-testid="reprobe-error"]').text()).toBe('a benchmark suite is running on host "local"');
    expect(calls).not.toContain('runAssessment');
    expect(w.emitted('measured')).toBeUndefined();
  });

  it('where the probe cannot run (demo, remote host), no button: the reason instead', async () => {
    const { w } = await mountPanel([viewOf([before])], { ok: true, status: 'completed' }, false);
    expect(w.find('[data-testid="reprobe"]').exists()).toBe(false);
    expect(w.text()).toContain('The probe runs only on the machine this server runs on.');
  });
});
