/**
 * A forecast request as the CLI and the API receive it (pool, candidate, workload) and its answer
 * from an inventory's artifacts. Errors are values with one sentence a user can act on.
 */
import { z } from 'zod';
import type { Artifacts } from '../model/artifacts.ts';
import type { Drive } from '../model/inventory.ts';
import { productName } from '../../../rules/lib/device-class.ts';
import { drivePath } from '../../../rules/lib/slog-devices.ts';
import { driveUsability, inUseSentence } from '../model/usable.ts';
import { profileForText } from './catalog.ts';
import { forecastPool, WorkloadSpec, type Candidate, type ForecastResult } from './forecast.ts';
import { candidateProfile, deviceProbeHint } from './measured-device.ts';
import { poolSyncEvidence } from './sync-evidence.ts';
import { formatCount } from '../text/format.ts';
import { gainText } from './gain-text.ts';

export const BLOCK_SIZES: Record<string, number> = { '4k': 4096, '8k': 8192, '16k': 16_384, '32k': 32_768, '64k': 65_536, '128k': 131_072, '1m': 1_048_576 };

export const ForecastRequest = z.object({
  pool: z.string().min(1).max(256),
  /** An unused drive of the inventory: its path, by-id path or id. */
  slog: z.string().min(1).max(512).optional(),
  /** A device not in the box, by model text ("Micron 7450 PRO"). */
  slogModel: z.string().min(1).max(200).optional(),
  mirrored: z.boolean().default(false),
  workload: WorkloadSpec.default({ rw: 'randwrite', bs: 4096, iodepth: 1, numjobs: 1, sync: 'always' }),
}).refine((r) => !(r.slog && r.slogModel), 'give either slog or slogModel, not both');
export type ForecastRequest = z.infer<typeof ForecastRequest>;

export type ForecastOutcome = { ok: true; result: ForecastResult } | { ok: false; message: string };

/** Whether `name` names this drive: its id, /dev path, by-id path or any alias (with or without /dev/). */
export const matchesDrive = (d: Drive, name: string): boolean => {
  const n = name.replace(/^\/dev\//, '');
  return [d.id, d.devPath, d.byIdPath, ...d.aliases].some((x) => x && (x === name || x.replace(/^\/dev\//, '') === n));
};

export function runForecast(a: Artifacts, req: ForecastRequest): ForecastOutcome {
  const pools = a.Pools ?? [];
  const pool = pools.find((p) => p.name === req.pool);
  if (!pool) return { ok: false, message: `no pool "${req.pool}" in the inventory (have: ${pools.map((p) => p.name).join(', ') || 'none'})` };
  // The pool's sync-write evidence, as the Optane verdict and the slog-benefit rule read it.
  const e = poolSyncEvidence(a, pool);
  let candidate: Candidate | null = null;
  if (req.slog) {
    const drives = a.Drives ?? [];
    const d = drives.find((x) => matchesDrive(x, req.slog!));
    if (!d) return { ok: false, message: `no drive "${req.slog}" in the inventory; use --slog-model "MODEL" for a device not in the box` };
    const usable = driveUsability(d, pools, drives);
    if (!usable.usable) return { ok: false, message: `${inUseSentence(req.slog, usable)}; name an unused drive, or --slog-model "MODEL" for one of its kind` };
    // Measure before forecasting: a blank-device test of this drive replaces its catalog figure
    // (the record holds it for the box's log candidates).
    const known = e.inBox.find((t) => t.drive === d)?.candidate;
    const c = known ? { profile: known.profile, measurement: known.measurement ?? null } : candidateProfile(d, a.Benchmarks);
    candidate = { label: `${drivePath(d, a.Host)} (${productName(d)})`, profile: c.profile, measurement: c.measurement, measureHint: deviceProbeHint(d, a.Host), mirrored: req.mirrored };
  } else if (req.slogModel) {
    const profile = profileForText(req.slogModel);
    candidate = { label: profile.matched === 'catalog' ? profile.product : `${req.slogModel} (not in the catalog: ${profile.classLabel} estimate)`, profile, mirrored: req.mirrored };
  }
  // "Now" as the Optane verdict has it, from the pool's one sync-write evidence record: this host's
  // probe (and many-writer and write-back runs) or observed latency, else the model.
  return { ok: true, result: forecastPool(a, pool, req.workload, candidate, e.forecastOptions) };
}

const fmt = (n: number) => formatCount(n);

/** Plain-text rendering for the CLI (the JSON is the same object). */
export function renderForecast(r: ForecastResult): string {
  const w = r.workload;
  const out = [
    `Sync-write forecast for ${r.pool}: ${w.rw} bs=${w.bs >= 1_048_576 ? `${w.bs / 1_048_576}M` : `${w.bs / 1024}k`} iodepth=${w.iodepth} numjobs=${w.numjobs} sync=${w.sync}` +
      ` (dataset ${w.dataset ?? '?'}: sync=${w.datasetSync}, logbias=${w.logbias}, ${w.target === 'zvol' ? 'volblocksize' : 'recordsize'}=${w.blockSize / 1024}k)`,
    '',
    `  now (ZIL on ${r.now.zil}): ${fmt(r.now.iops)} IOPS (range ${fmt(r.now.low)}–${fmt(r.now.high)})`,
    ...(r.now.guess ? [`    ${r.now.guess}`] : []),
    `    basis: ${r.now.basis}`,
  ];
  if (r.with) {
    out.push(
      r.with.guess
        ? `  with ${r.with.device} as SLOG: no point forecast, class range ${fmt(r.with.low)}–${fmt(r.with.high)} IOPS (a guess)`
        : `  with ${r.with.device} as SLOG: ${fmt(r.with.iops)} IOPS (range ${fmt(r.with.low)}–${fmt(r.with.high)})${r.with.status === 'discontinued' ? ' — discontinued product' : ''}`,
      ...(r.with.guess ? [`    ${r.with.guess}`] : []),
      ...(r.with.measure ? [`    ${r.with.measure}`] : []),
      `    basis: ${r.with.basis}`,
      ...(gainText(r) ? [`  gain: ${gainText(r)}`] : []),
    );
  }
  return `${out.join('\n')}\n`;
}
