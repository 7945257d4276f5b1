/**
 * POST /api/hosts/:hostId/forecast over real HTTP on the demo host: the same answer as the CLI,
 * and every bad input refused with a clear error.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { HostView } from '../../server/src/api/contract.ts';
import { ForecastResult } from '../../server/src/forecast/forecast.ts';

const dir = mkdtempSync(join(tmpdir(), 'zfsa-forecast-api-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function post(s: RunningServer, path: string, body: unknown) {
  const res = await fetch(new URL(path.replace(/^\//, ''), s.url), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: JSON.parse(text) as unknown };
}

describe('forecast API on the demo snapshot', () => {
  let s: RunningServer;
  let hostId: string;
  beforeAll(async () => {
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {} });
    if (!r.ok) throw new Error(r.message);
    s = r.server;
    const hosts = HostView.array().parse(await (await fetch(new URL('api/hosts', s.url))).json());
    hostId = hosts[0]!.id;
    const a = await fetch(new URL(`api/hosts/${hostId}/assessments`, s.url), { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    expect(a.status).toBe(201);
  });
  afterAll(async () => { await s.close(); });

  it('the unused P1600X at QD16: 39.2k as measured with it as SLOG', async () => {
    const r = await post(s, `/api/hosts/${hostId}/forecast`, { pool: 'bench-pool', slog: '/dev/nvd1', workload: { iodepth: 16 } });
    expect(r.status).toBe(200);
    const f = ForecastResult.parse(r.json);
    expect(f.with!.iops).toBe(39_200);
    expect(f.gain).toBeGreaterThan(10);
  });

  it('a model text not in the box', async () => {
    const r = await post(s, `/api/hosts/${hostId}/forecast`, { pool: 'bench-pool', slogModel: 'Micron 7450 PRO' });
    expect(r.status).toBe(200);
    expect(ForecastResult.parse(r.json).with!.catalogId).toBe('micron-7450');
  });

  it.each([
    [{ pool: 'nope' }, 404, /no pool "nope"/],
    [{ pool: 'bench-pool', slog: '/dev/sdz' }, 404, /no drive/],
    [{ pool: 'bench-pool', slog: '/dev/da1' }, 400, /\/dev\/da1 is in use: in pool bench-pool \(data, mirror-0\); name an unused drive/],
    [{ pool: 'bench-pool', slog: 'a', slogModel: 'b' }, 400, /either slog or slogModel/],
    [{ pool: 'bench-pool', workload: { bs: 3 } }, 400, /bs/],
    [{ pool: 'bench-pool', workload: { iodepth: 0 } }, 400, /iodepth/],
    [{ pool: 'bench-pool', workload: { sync: 'sometimes' } }, 400, /sync/],
    [{}, 400, /pool/],
  ])('refuses %j with %i', async (body, status, msg) => {
    const r = await post(s, `/api/hosts/${hostId}/forecast`, body);
    expect(r.status).toBe(status);
    expect((r.json as { error: { message: string } }).error.message).toMatch(msg);
  });
});
