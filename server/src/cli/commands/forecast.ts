/**
 * `zfs-advisor forecast` (options: defs/forecast.ts): sync-write IOPS of a workload on a pool now
 * and with a log device (server/src/forecast/).
 */
import { EXIT, type Handler } from '../command.ts';
import type { options } from '../defs/forecast.ts';
import { inputError, usageError } from '../framework/errors.ts';
import { loadForAssessment, type LoadOptions } from '../../assess/load-inventory.ts';
import { artifactsFromInventory } from '../../model/artifacts.ts';
import { publicKbUrl } from '../../kb/catalog.ts';
import { terminalText } from '../../text/markdown.ts';
import { BLOCK_SIZES, ForecastRequest, renderForecast, runForecast } from '../../forecast/request.ts';
import { measuredArtifacts } from '../../assess/measured-artifacts.ts';

export const run: Handler<typeof options> = async ({ values: v }, io) => {
  if ([v.snapshot, v.demo, v.inventory].filter((x) => x !== undefined).length > 1) throw usageError('--snapshot, --demo and --inventory exclude each other', 'choose one');
  if (v.pool === undefined) throw usageError('--pool is required', 'name the pool to forecast, e.g. --pool tank');
  const load: LoadOptions = {
    ...(v.snapshot !== undefined ? { snapshot: v.snapshot } : {}),
    ...(v.demo !== undefined ? { demo: true, ...(typeof v.demo === 'string' ? { demoName: v.demo } : {}) } : {}),
    ...(v.inventory !== undefined ? { inventoryFile: v.inventory } : {}),
  };
  const workload: Record<string, unknown> = {};
  if (v.rw !== undefined) workload['rw'] = v.rw;
  if (v.sync !== undefined) workload['sync'] = v.sync;
  if (v.bs !== undefined) workload['bs'] = BLOCK_SIZES[v.bs];
  if (v.iodepth !== undefined) workload['iodepth'] = v.iodepth;
  if (v.numjobs !== undefined) workload['numjobs'] = v.numjobs;
  if (v.size !== undefined) workload['sizeBytes'] = v.size;
  const req = ForecastRequest.safeParse({
    pool: v.pool, workload,
    ...(v.slog !== undefined ? { slog: v.slog } : {}), ...(v['slog-model'] !== undefined ? { slogModel: v['slog-model'] } : {}), ...(v.mirrored ? { mirrored: true } : {}),
  });
  if (!req.success) {
    const issue = req.error.issues[0]!;
    throw usageError(`${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}`, 'see zfs-advisor forecast --help');
  }
  const loaded = await loadForAssessment(load);
  if (!loaded.ok) throw inputError(loaded.message, 'check the snapshot directory or inventory file named');
  // Measure before forecasting, as `optane` does: this machine's probes and blank-device tests, and on a
  // local run its newest stored observation (none for a snapshot or the demo). An unreadable store is
  // not an error: the forecast then says what it did not measure.
  const m = await measuredArtifacts(loaded.inventory, { opts: load, workloadFile: null, dataDir: v['data-dir'] ?? null });
  const r = runForecast({ ...artifactsFromInventory(loaded.inventory), ...(m.ok ? m.extra : {}) }, req.data);
  if (!r.ok) throw inputError(r.message, 'check --pool and --slog against `zfs-advisor inventory`');
  io.stdout(v.json ? `${JSON.stringify(r.result, null, 2)}\n` : terminalText(renderForecast(r.result), publicKbUrl));
  return EXIT.ok;
};
