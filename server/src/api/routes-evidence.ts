/**
 * Handlers of the evidence routes (contract-evidence.ts): workload observations, size
 * measurements (both background jobs with SSE progress, poll and cancel), and the planner
 * (plans are computed and returned, never executed).
 */
import type { Request, Response, Router } from 'express';
import type { Dataset } from '../model/inventory.ts';
import type { EvidenceRepo } from '../store/evidence-repo.ts';
import type { HistoryRepo } from '../store/history-repo.ts';
import type { HostRow } from '../store/hosts-repo.ts';
import type { ObserveJob } from '../jobs/observe-job.ts';
import type { SizesJob } from '../jobs/sizes-job.ts';
import type { TaskListener } from '../jobs/live-tasks.ts';
import { routes } from './contract.ts';
import { HttpError, notFound } from './errors.ts';
import { bindRoute } from './route.ts';

export interface EvidenceRouteContext {
  getHost(id: string): HostRow;
  evidence: EvidenceRepo;
  history: HistoryRepo;
  observeJob: ObserveJob;
  sizesJob: SizesJob;
  /** The machine has no ZFS: nothing of it can be measured. */
  demo: boolean;
}

/** Measurements read this machine: only the local host, and not when it shows the demo. */
function requireMeasurable(h: HostRow, demo: boolean, what: string): void {
  if (h.kind !== 'local') throw new HttpError('conflict', `${what} run only on the machine the server runs on; host "${h.id}" is ${h.kind}`);
  if (demo) throw new HttpError('conflict', `${what} need ZFS on this machine; it has none (the demo snapshot is shown)`);
}

/**
 * Streams a job's progress as Server-Sent Events, then `done` with the stored record. A job that
 * is not running (finished, or from before a restart) gets `done` at once.
 */
function streamJob<P, V>(req: Request, res: Response, job: { subscribe(id: number, l: TaskListener<P, V>): (() => void) | null; isRunning(id: number): boolean }, id: number, current: () => V & { progress: P | null }): void {
  const send = (event: string, data: unknown) => { res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`); };
  res.status(200);
  res.setHeader('Content-Type', 'text/event-stream; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache, no-transform');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  let ended = false;
  const finish = (record: V) => {
    if (ended) return;
    ended = true;
    send('done', record);
    res.end();
  };
  const unsubscribe = job.subscribe(id, (e) => {
    if (e.event === 'progress') send('progress', e.data);
    else finish(e.data);
  });
  if (!unsubscribe) {
    finish(current());
    return;
  }
  const now = current();
  if (now.progress !== null) send('progress', now.progress);
  const keepAlive = setInterval(() => { if (!ended) res.write(': keep-alive\n\n'); }, 15_000);
  keepAlive.unref();
  req.on('close', () => { clearInterval(keepAlive); unsubscribe(); });
}

export function bindEvidenceRoutes(api: Router, ctx: EvidenceRouteContext): void {
  const { evidence, observeJob, sizesJob } = ctx;

  // ---- workload observations
  bindRoute(api, routes.startObservation, ({ params, body }) => {
    const h = ctx.getHost(params.hostId);
    requireMeasurable(h, ctx.demo, 'observations');
    return observeJob.start(h, body, 'manual');
  });
  bindRoute(api, routes.listObservations, ({ params, query }) => {
    ctx.getHost(params.hostId);
    return evidence.listObservations(params.hostId, query.limit).map((r) => observeJob.view(r.id) ?? r);
  });
  bindRoute(api, routes.getObservation, ({ params }) => {
    const r = observeJob.view(params.observationId);
    if (!r) throw notFound(`observation ${params.observationId}`);
    return r;
  });
  bindRoute(api, routes.cancelObservation, ({ params }) => {
    const r = observeJob.cancel(params.observationId);
    if (!r) throw notFound(`observation ${params.observationId}`);
    return r;
  });
  bindRoute(api, routes.observationEvents, ({ params, req, res }) => {
    const first = observeJob.view(params.observationId);
    if (!first) throw notFound(`observation ${params.observationId}`);
    streamJob(req, res, observeJob, params.observationId, () => observeJob.view(params.observationId) ?? first);
    return undefined;
  });

  // ---- size measurements
  bindRoute(api, routes.startSizes, async ({ params, body }) => {
    const h = ctx.getHost(params.hostId);
    requireMeasurable(h, ctx.demo, 'size measurements');
    return sizesJob.start(h, body);
  });
  bindRoute(api, routes.listSizes, ({ params, query }) => {
    ctx.getHost(params.hostId);
    return evidence.listSizes(params.hostId, query.limit).map((r) => sizesJob.view(r.id) ?? r);
  });
  bindRoute(api, routes.getSizes, ({ params }) => {
    const r = sizesJob.view(params.sizesId);
    if (!r) throw notFound(`size measurement ${params.sizesId}`);
    return r;
  });
  bindRoute(api, routes.cancelSizes, ({ params }) => {
    const r = sizesJob.cancel(params.sizesId);
    if (!r) throw notFound(`size measurement ${params.sizesId}`);
    return r;
  });
  bindRoute(api, routes.sizesEvents, ({ params, req, res }) => {
    const first = sizesJob.view(params.sizesId);
    if (!first) throw notFound(`size measurement ${params.sizesId}`);
    streamJob(req, res, sizesJob, params.sizesId, () => sizesJob.view(params.sizesId) ?? first);
    return undefined;
  });

  // ---- planner
  // The planner is loaded on its first use: most servers never plan, and idle memory matters on a NAS.
  bindRoute(api, routes.planLayouts, async ({ body }) => (await import('../planner/layouts.ts')).planLayouts(body));
  bindRoute(api, routes.planAddVdev, async ({ params, body }) => {
    ctx.getHost(params.hostId);
    const snap = ctx.history.latestSnapshot(params.hostId);
    if (!snap) throw new HttpError('not-found', `no inventory of host "${params.hostId}" yet: run an assessment first (POST ${routes.runAssessment.path})`);
    const inv = snap.inventory;
    const name = body.pool ?? (inv.pools.length === 1 ? inv.pools[0]!.name : undefined);
    if (!name) throw new HttpError('bad-request', `pool is required: host "${params.hostId}" has ${inv.pools.length} pools (${inv.pools.map((p) => p.name).join(', ') || 'none'})`);
    const pool = inv.pools.find((p) => p.name === name);
    if (!pool) throw new HttpError('not-found', `pool "${name}" is not in the newest inventory of host "${params.hostId}"`);
    const poolDatasets = inv.datasets.filter((d) => d.pool === pool.name);
    let datasets: Dataset[];
    if (body.datasets) {
      const unknown = body.datasets.filter((n) => !poolDatasets.some((d) => d.name === n));
      if (unknown.length > 0) throw new HttpError('bad-request', `datasets not in pool ${pool.name}: ${unknown.join(', ')}`);
      datasets = poolDatasets.filter((d) => body.datasets!.includes(d.name));
    } else {
      datasets = poolDatasets.filter((d) => d.type === 'filesystem');
    }
    const { planAddVdev } = await import('../planner/add-vdev.ts');
    let plan;
    try {
      plan = planAddVdev({
        kind: body.kind, pool, devices: body.devices, openzfs: inv.host.zfs.openzfs, datasets,
        specialSmallBlocks: body.specialSmallBlocks, partitions: body.partitions,
        host: inv.host, pools: inv.pools, drives: inv.drives,
        acceptLowerRedundancy: body.acceptLowerRedundancy, sharedDisk: body.sharedDisk,
      });
    } catch (err) {
      // A device already in a pool conflicts with the host's state (409); other refusals are bad requests.
      if (err instanceof RangeError && 'reason' in err && err.reason === 'device-in-use') throw new HttpError('conflict', err.message);
      if (err instanceof RangeError) throw new HttpError('bad-request', err.message);
      throw err;
    }
    return { ...plan, snapshotId: snap.id, capturedAt: snap.capturedAt };
  });
}
