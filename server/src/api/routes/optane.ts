/**
 * "Should I add Optane?": the verdict of the newest assessment, and "Measure this device" — the
 * blank-device test of an unused drive of the newest inventory, started through the same guarded
 * benchmark as every other run (bench policy, confinement, rate limit, one run per host, and the
 * runner's guards: the device must be blank and the typed serial must match it).
 */
import type { AppContext } from '../context.ts';
import { routes } from '../contract.ts';
import { HttpError } from '../errors.ts';
import { admitBenchStart } from '../bench-admission.ts';
import { guardSentence } from '../../bench/guards.ts';
import { OptaneVerdictView } from '../schemas.ts';
import { apiRouter, bindRoute } from '../route.ts';
import { applyBenchPolicy, benchPolicy } from '../bench-policy.ts';
import { artifactsFromInventory } from '../../model/artifacts.ts';
import { matchesDrive } from '../../forecast/request.ts';
import { DEVICE_PROBE_RUNTIME_S, deviceProbeBytes } from '../../forecast/measured-device.ts';
import { driveUsability, inUseSentence, usabilityWayForward } from '../../model/usable.ts';

export function optaneRoutes(ctx: AppContext) {
  const r = apiRouter();
  bindRoute(r, routes.optane, ({ params }) => {
    ctx.getHost(params.hostId);
    const a = ctx.history.latestAssessment(params.hostId);
    if (!a) throw new HttpError('not-found', `host "${params.hostId}" has no assessment yet: run one first (POST ${routes.runAssessment.path})`);
    const v = OptaneVerdictView.safeParse(a.optane);
    if (!v.success) throw new HttpError('unavailable', 'this assessment has no Optane verdict (the verdict module is missing from this build)');
    return v.data;
  });
  bindRoute(r, routes.optaneDeviceProbe, async ({ params, body, req, res }) => {
    const h = ctx.getHost(params.hostId);
    ctx.requireLocal(h);
    const { bench, runs } = ctx.requireBench();
    const snap = ctx.history.latestSnapshot(h.id);
    if (!snap) throw new HttpError('not-found', `no inventory of host "${h.id}" yet: run an assessment first (POST ${routes.runAssessment.path})`);
    const a = artifactsFromInventory(snap.inventory);
    const drives = a.Drives ?? [];
    const d = drives.find((x) => matchesDrive(x, body.drive));
    if (!d) throw new HttpError('not-found', `no drive "${body.drive}" in the newest inventory of host "${h.id}"`);
    const device = d.byIdPath ?? d.devPath;
    if (!device) throw new HttpError('conflict', `drive "${body.drive}" has no device path in the inventory`);
    // Only a drive the inventory shows unused; the runner's device-blank guard then checks it live.
    const usable = driveUsability(d, a.Pools ?? [], drives);
    if (!usable.usable) {
      throw new HttpError('conflict', `refused: ${inUseSentence(device, usable)}. The blank-device test writes to the raw device and would destroy that. ${usabilityWayForward(device, usable)}`);
    }
    const policy = applyBenchPolicy({
      profile: 'sync-write-4k-qd1', target: { kind: 'device', device, confirmSerial: body.confirmSerial },
      runtimeS: DEVICE_PROBE_RUNTIME_S, sizeBytes: deviceProbeBytes(d),
    }, benchPolicy(ctx.settings.get().benchmark, ctx.benchCeiling));
    if (!policy.ok) throw new HttpError('bad-request', policy.message, undefined, policy.wayForward);
    const request = ctx.confine(policy.request);
    admitBenchStart(ctx, h.id, req, res);
    // The guards first, so a refusal answers with its reasons instead of a refused run.
    const refused = (await bench.dryRun(request)).guards.filter((g) => !g.ok);
    if (refused.length > 0) {
      const serialOnly = refused.every((g) => g.id === 'device-serial');
      throw new HttpError(serialOnly ? 'bad-request' : 'conflict', refused.map(guardSentence).join(' '));
    }
    return runs.start(h.id, request);
  });
  return r;
}
