/**
 * What `plan add-slog` says about speed: the sync-write forecast (4 KiB, QD1 and QD16) for the
 * pool now and with the devices it was given as SLOG (the slowest of them, mirrored when two),
 * in sentences the CLI, API and UI print as they are.
 */
import type { Dataset, Drive, Host, Pool } from '../model/inventory.ts';
import { classProfile, profileForDrive, type DeviceProfile } from './catalog.ts';
import { forecastPool, type ForecastResult } from './forecast.ts';
import { slowest } from './pool-shape.ts';
import { QD1, QD16 } from './slog-choice.ts';
import { formatCount, formatGain } from '../text/format.ts';

export interface PlanForecast {
  qd1: ForecastResult;
  qd16: ForecastResult;
  /** One line per queue depth, plus what the "with" figure rests on. */
  summary: string[];
}

const n = (x: number) => formatCount(x);

export function planSlogForecast(input: {
  pool: Pool; host?: Host | null; pools?: readonly Pool[]; drives?: readonly Drive[]; datasets?: readonly Dataset[];
  /** The inventory drive behind each given device, null when unknown (a path the inventory lacks). */
  deviceDrives: (Drive | null)[];
  label: string;
}): PlanForecast {
  const profiles: DeviceProfile[] = input.deviceDrives.map((d) => (d ? profileForDrive(d) : classProfile('unknown', 'device not in the inventory: its model is unknown')));
  const profile = slowest(profiles) ?? classProfile('unknown', 'no device');
  const candidate = { label: input.label, profile, mirrored: input.deviceDrives.length >= 2 };
  const a = { Host: input.host ?? undefined, Pools: [...(input.pools ?? [input.pool])], Drives: [...(input.drives ?? [])], Datasets: [...(input.datasets ?? [])] };
  const qd1 = forecastPool(a, input.pool, QD1, candidate);
  const qd16 = forecastPool(a, input.pool, QD16, candidate);
  const line = (qd: string, f: ForecastResult) => f.with!.guess
    ? `${qd}: now ${n(f.now.iops)} (${n(f.now.low)}–${n(f.now.high)}) → with this SLOG ${n(f.with!.low)}–${n(f.with!.high)} sync IOPS (its class's range, a guess: no point forecast)`
    : f.now.guess
    ? `${qd}: now ${n(f.now.low)}–${n(f.now.high)} (the pool's devices are not measured: a guess) → with this SLOG ${n(f.with!.iops)} (${n(f.with!.low)}–${n(f.with!.high)}) sync IOPS`
    : `${qd}: now ${n(f.now.iops)} (${n(f.now.low)}–${n(f.now.high)}) → with this SLOG ${n(f.with!.iops)} (${n(f.with!.low)}–${n(f.with!.high)}) sync IOPS, ${formatGain(f.gain)}`;
  return {
    qd1, qd16,
    summary: [
      `Forecast, 4 KiB sync writes on ${input.pool.name} (dataset ${qd1.workload.dataset ?? '?'}): ${line('QD1', qd1)}; ${line('QD16', qd16)}.`,
      `With: ${profile.basis}.`,
    ],
  };
}
