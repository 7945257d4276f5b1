/**
 * Which log device a pool's forecast is for: the unused candidate in the box with the highest
 * QD1 forecast on this pool (Optane or PLP NVMe: rules/lib/slog-devices.ts), else the one to buy
 * (a P1600X 118 GB). Shared by the Optane verdict and the slog-benefit rule, so both show the
 * same numbers. A drive measured on this host (a blank-device test in `a.Benchmarks`) is
 * forecast from that measurement (measured-device.ts).
 */
import type { Artifacts } from '../model/artifacts.ts';
import type { Drive, Pool } from '../model/inventory.ts';
import { productName } from '../../../rules/lib/device-class.ts';
import { drivePath, slogCandidates, unusedDrives } from '../../../rules/lib/slog-devices.ts';
import { profileForText } from './catalog.ts';
import { candidateProfile, deviceMeasurement, deviceProbeHint } from './measured-device.ts';
import { forecastPool, WorkloadSpec, type Candidate, type ForecastOptions, type ForecastResult } from './forecast.ts';

export const P1600X_MODEL = 'INTEL SSDPEK1A118GA';
export const QD1 = WorkloadSpec.parse({ iodepth: 1 });
export const QD16 = WorkloadSpec.parse({ iodepth: 16 });

export interface SlogTarget { candidate: Candidate; drive: Drive | null }

export interface SlogChoice {
  target: SlogTarget;
  /** Every unused candidate in the box, best first. */
  inBox: SlogTarget[];
  qd1: ForecastResult;
  qd16: ForecastResult;
  /** QD1 latency ratio with/now (the pool's sustained ceiling caps throughput, not the wait per write). */
  gain: number;
}

export const purchaseTarget = (): SlogTarget => ({ drive: null, candidate: { label: 'Intel Optane SSD P1600X 118GB (to buy)', profile: profileForText(P1600X_MODEL), mirrored: false } });

/** `opts`: what was measured on this pool (measured-now.ts forecastOptionsOf). */
export function chooseSlog(a: Artifacts, pool: Pool, opts: ForecastOptions = {}): SlogChoice {
  const drives = a.Drives ?? [];
  const listed = slogCandidates(a.Pools ?? [], drives);
  // A drive its model does not mark as a log candidate still is one once this host measured it.
  const measured = unusedDrives(a.Pools ?? [], drives).filter((d) => !listed.includes(d) && deviceMeasurement(a.Benchmarks, d) !== null);
  const scored = [...listed, ...measured]
    .map((d): SlogTarget => {
      // Measure before forecasting: a blank-device test of the drive replaces its catalog figure.
      const c = candidateProfile(d, a.Benchmarks);
      return { drive: d, candidate: { label: `${drivePath(d, a.Host)} (${productName(d)})`, profile: c.profile, measurement: c.measurement, measureHint: deviceProbeHint(d, a.Host), mirrored: false } };
    })
    .map((t) => ({ t, f: forecastPool(a, pool, QD1, t.candidate, opts) }))
    .sort((x, y) => y.f.with!.latencyIops - x.f.with!.latencyIops);
  const target = scored[0]?.t ?? purchaseTarget();
  const qd1 = scored[0]?.f ?? forecastPool(a, pool, QD1, target.candidate, opts);
  const qd16 = forecastPool(a, pool, QD16, target.candidate, opts);
  return { target, inBox: scored.map((s) => s.t), qd1, qd16, gain: qd1.with!.latencyIops / qd1.now.latencyIops };
}
