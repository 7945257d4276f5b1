/**
 * A small, documented model of 4 KiB synchronous-write IOPS on ZFS, used to say what a SLOG
 * would change. It is calibrated on the measurements in 000_a5b8e6cc27024805.txt (TrueNAS,
 * OpenZFS 2.1.6, Xeon D-1541, 2×4 TB WD Red mirror, `fio --rw=randwrite --bs=4k --ioengine=posixaio`
 * on a dataset with sync=always, recordsize=4k).
 *
 * Model (per write, queue depth 1):
 *   latency = ZFS per-commit overhead + log-device write+flush latency          (zfs-facts A19, E1)
 *   IOPS(QD1) = 1 / latency
 * At queue depth N the ZIL batches concurrent writers into shared log blocks, but each commit
 * still waits for the device; we model the waiting as a linear queueing penalty:
 *   latency(N) = overhead + device × (1 + QUEUE_PENALTY × (N − 1))
 *   IOPS(N)    = min(N / latency(N), host ceiling)
 *
 * Calibration (000):
 *   - P4800X as SLOG, QD1: 20.2k IOPS = 49.5 µs per write; its diskinfo 4 KiB sync write on the same
 *     host was 15 µs → overhead ≈ 34.5 µs.
 *   - P1600X as SLOG, QD1: 13.7k IOPS = 73 µs; in that host's x1-lane M.2 slot its latency was
 *     "roughly double" 13.3 µs ≈ 26.6 µs → overhead ≈ 46.4 µs. Mean ≈ 40 µs, we use 40 (32–48).
 *   - 2×HDD mirror, no SLOG, QD16: 894 IOPS (avg completion latency 17.8 ms). With the HDD class's
 *     typical 12 ms this fixes QUEUE_PENALTY = 0.0325.
 *   - Host ceiling: the same host with sync=disabled did 48.3k IOPS at QD16 ("the maximum this
 *     system can generate"); SLOG runs at QD16 measured 38.9k–49.0k (30 s / 10 s runs).
 * Weak points, said plainly: one host, one pool, FreeBSD; the ceiling is CPU-bound and differs per
 * machine; HDD latency varies with seek distance. Ranges carry that uncertainty.
 */
import { z } from 'zod';
import type { Drive } from '../model/inventory.ts';
import { LATENCY_CLASSES, isOptane, productName, syncWriteLatency, type LatencyClass } from '../../../rules/lib/device-class.ts';

/** ZFS per-commit software overhead at QD1, µs (000: 34.5 and 46.4 µs on the two Optane runs). */
export const ZFS_COMMIT_OVERHEAD_US = { typical: 40, low: 32, high: 48 } as const;

/** Queueing penalty per extra outstanding write, fitted to 000's 894 IOPS at QD16 on the HDD mirror. */
export const QUEUE_PENALTY = 0.0325;

/**
 * IOPS ceiling of the host at QD16 (000: 48.3k IOPS with sync=disabled on a Xeon D-1541).
 * Range ±20 %: measured SLOG runs at QD16 spread from 38.9k to 49.0k on that host.
 */
export const HOST_CEILING_IOPS = { typical: 48_300, low: 38_600, high: 58_000 } as const;

export const IopsRange = z.object({ iops: z.number(), low: z.number(), high: z.number() });
export type IopsRange = z.infer<typeof IopsRange>;

/** A log device's 4 KiB sync write+flush latency in µs: typical and a range. */
export interface DeviceLatency {
  typicalUs: number;
  lowUs: number;
  highUs: number;
}

export const latencyOfClass = (cls: LatencyClass): DeviceLatency => {
  const c = LATENCY_CLASSES[cls];
  return { typicalUs: c.typicalUs, lowUs: c.lowUs, highUs: c.highUs };
};

/** A single measured latency (e.g. `diskinfo -wS`), with no spread of its own. */
export const measuredLatency = (us: number): DeviceLatency => ({ typicalUs: us, lowUs: us, highUs: us });

function iopsAt(qd: number, overheadUs: number, deviceUs: number, ceiling: number): number {
  const latencyUs = overheadUs + deviceUs * (1 + QUEUE_PENALTY * (qd - 1));
  return Math.min((qd * 1e6) / latencyUs, ceiling);
}

/** Predicted sync-write IOPS at a queue depth, with the range the model's inputs allow. */
export function predictSyncIops(device: DeviceLatency, qd: number): IopsRange {
  if (!Number.isFinite(qd) || qd < 1) throw new RangeError(`queue depth must be ≥ 1, got ${qd}`);
  const round = (x: number) => Math.round(x);
  return {
    iops: round(iopsAt(qd, ZFS_COMMIT_OVERHEAD_US.typical, device.typicalUs, HOST_CEILING_IOPS.typical)),
    low: round(iopsAt(qd, ZFS_COMMIT_OVERHEAD_US.high, device.highUs, HOST_CEILING_IOPS.low)),
    high: round(iopsAt(qd, ZFS_COMMIT_OVERHEAD_US.low, device.lowUs, HOST_CEILING_IOPS.high)),
  };
}

/**
 * Inverts the QD1 model: the log-path device latency implied by a measured QD1 IOPS figure
 * (e.g. from `zfs-advisor bench sync-write-4k-qd1`), floored at 1 µs.
 */
export function impliedDeviceLatencyUs(qd1Iops: number): number {
  return Math.max(1, 1e6 / qd1Iops - ZFS_COMMIT_OVERHEAD_US.typical);
}

/** A measured IOPS figure presented as a range (±10 % run-to-run spread, 000's repeated runs). */
export const measuredIops = (iops: number): IopsRange => ({ iops: Math.round(iops), low: Math.round(iops * 0.9), high: Math.round(iops * 1.1) });

export interface SyncWriteForecast {
  qd1: { now: IopsRange; withOptane: IopsRange };
  qd16: { now: IopsRange; withOptane: IopsRange };
}

/** Now vs. with an Optane SLOG (data-centre class), at QD1 and QD16. */
export function forecast(now: DeviceLatency, optane: DeviceLatency = latencyOfClass('optane-dc')): SyncWriteForecast {
  return {
    qd1: { now: predictSyncIops(now, 1), withOptane: predictSyncIops(optane, 1) },
    qd16: { now: predictSyncIops(now, 16), withOptane: predictSyncIops(optane, 16) },
  };
}

/**
 * Optane products whose SLOG behaviour on ZFS was measured (000, 4 KiB sync randwrite, QD1, on a
 * Xeon D-1541 host): the device latency the model uses is the one implied by the measured IOPS,
 * so the forecast for that product reproduces the measurement instead of the class average.
 * Low end: the device's own `diskinfo -wS` 4 KiB figure in a full-width slot (000: P1600X 13.6 µs,
 * P4800X 14.1 µs); high end: the implied latency plus 25 % (other hosts, other slots).
 */
export const MEASURED_SLOG_PRODUCTS: ReadonlyArray<{ modelPrefix: string; product: string; qd1Iops: number; diskinfoUs: number; source: string }> = [
  { modelPrefix: 'SSDPEK1A', product: 'Intel Optane SSD P1600X', qd1Iops: 13_700, diskinfoUs: 13.6, source: '[Intel Optane P1600X & P4800X as ZFS SLOG/ZIL](https://austinsnerdythings.com/tag/nvme) ("P1600X queue depth = 1 … IOPS = 13.7k")' },
  { modelPrefix: 'SSDPED1K', product: 'Intel Optane SSD DC P4800X', qd1Iops: 20_200, diskinfoUs: 14.1, source: '[Intel Optane P1600X & P4800X as ZFS SLOG/ZIL](https://austinsnerdythings.com/tag/nvme) ("P4800X queue depth = 1 … IOPS = 20.2k")' },
];

export interface ProductLatency {
  latency: DeviceLatency;
  /** Where the figure comes from: a measurement in the documents or the device class. */
  basis: string;
}

/** The measured latency of a product model (e.g. `INTEL SSDPEK1A118GA`), or null when none was measured. */
export function measuredProductLatency(model: string | null | undefined): ProductLatency | null {
  const m = (model ?? '').trim().toUpperCase().replace(/^INTEL\s+/, '');
  const p = MEASURED_SLOG_PRODUCTS.find((x) => m.startsWith(x.modelPrefix));
  if (!p) return null;
  const implied = impliedDeviceLatencyUs(p.qd1Iops);
  return {
    latency: { typicalUs: implied, lowUs: Math.min(p.diskinfoUs, implied), highUs: implied * 1.25 },
    basis: `measured ${p.qd1Iops.toLocaleString("en-US")} sync IOPS at QD1 as SLOG: ${p.source}`,
  };
}

/** The Optane the forecast is for, with its latency and where that figure comes from. */
export interface ForecastTarget extends ProductLatency {
  product: string;
}

/**
 * What "with Optane" means in a forecast: the Optane already in the box when there is one (its
 * measured figures when a document measured that product, else its class), otherwise the
 * product recommended for purchase (`buy`, whose model must have a measurement).
 */
export function forecastTarget(candidates: readonly Drive[], buy: { product: string; model: string }): ForecastTarget {
  const inBox = candidates.find(isOptane);
  if (inBox) {
    const measured = measuredProductLatency(inBox.model);
    if (measured) return { product: productName(inBox), ...measured };
    const cls = syncWriteLatency(inBox);
    return { product: productName(inBox), latency: latencyOfClass(cls.cls), basis: `${cls.label} class (${cls.citation})` };
  }
  const bought = measuredProductLatency(buy.model);
  if (!bought) throw new Error(`no measured latency for the recommended ${buy.product}`);
  return { product: buy.product, ...bought };
}

/** The Optane recommended for purchase (verdict.ts PURCHASE_P1600X), as the forecast target when none is in the box. */
export const RECOMMENDED_OPTANE = { product: 'Intel Optane SSD P1600X 118GB (SSDPEK1A118GA)', model: 'INTEL SSDPEK1A118GA' } as const;
