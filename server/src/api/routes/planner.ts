/**
 * The planner: layouts for N disks, and the commands to add a SLOG or special vdev. Plans are
 * computed and returned, never executed. Loaded on first use: most servers never plan, and idle
 * memory matters on a NAS.
 */
import type { Dataset } from '../../model/inventory.ts';
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { HttpError } from '../errors.ts';
import { PlanRefused } from '../../planner/plan-refused.ts';
import { apiRouter, bindRoute } from '../route.ts';

export function plannerRoutes(ctx: AppContext) {
  const r = apiRouter();
  bindRoute(r, routes.planLayouts, async ({ body }) => (await import('../../planner/layouts.ts')).planLayouts(body));
  bindRoute(r, routes.planAddVdev, async ({ params, body }) => {
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
    const { planAddVdev } = await import('../../planner/add-vdev.ts');
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
      if (err instanceof PlanRefused) throw new HttpError(err.reason === 'device-in-use' ? 'conflict' : 'bad-request', err.message, undefined, err.wayForward);
      if (err instanceof RangeError) throw new HttpError('bad-request', err.message);
      throw err;
    }
    return { ...plan, snapshotId: snap.id, capturedAt: snap.capturedAt };
  });
  return r;
}
