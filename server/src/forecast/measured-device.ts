/**
 * Measure before forecasting, for the candidate: the blank-device test — a short QD1 4 KiB
 * sync-write run on the raw, unused drive (`bench sync-write-4k-qd1 --device`, guarded, the serial
 * typed to confirm) — measures what one durable write costs on that very device. When this host
 * has such a run of the same drive (same serial; the WWN when either side reports no serial), the
 * forecast's "with" side rests on it instead of the catalog or class figure, and says so.
 */
import type { BenchmarkSummary } from '../model/workload.ts';
import type { Drive, Host } from '../model/inventory.ts';
import { drivePath } from '../../../rules/lib/slog-devices.ts';
import { formatCount, formatLatencyUs, formatTime } from '../text/format.ts';
import { profileForDrive, type DeviceProfile } from './catalog.ts';
import { newestRun } from './newest-run.ts';

/** The blank-device test's bounds: a few seconds, a small region at the device's start. */
export const DEVICE_PROBE_RUNTIME_S = 5;
export const DEVICE_PROBE_MAX_BYTES = 256 * 1024 * 1024;

/** Test size for a drive: 256 MiB, or the whole drive when it is smaller. */
export const deviceProbeBytes = (d: Pick<Drive, 'sizeBytes'>): number =>
  d.sizeBytes !== null && d.sizeBytes > 0 ? Math.min(DEVICE_PROBE_MAX_BYTES, d.sizeBytes) : DEVICE_PROBE_MAX_BYTES;

/** The CLI command that measures a drive (the serial stays for the user to type: it is the confirmation). */
export const deviceProbeCommand = (d: Drive, host: Host | null | undefined): string =>
  `zfs-advisor bench sync-write-4k-qd1 --device ${drivePath(d, host)} --confirm-serial SERIAL --runtime ${DEVICE_PROBE_RUNTIME_S} --size ${deviceProbeBytes(d) / 1024 / 1024}M`;

/** The one click that measures a drive, in words every surface uses: the UI button and the CLI command. */
export const deviceProbeHint = (d: Drive, host: Host | null | undefined): string =>
  `the "Measure this device" button on the Optane page (you type its serial to confirm), or \`${deviceProbeCommand(d, host)}\``;

export interface DeviceMeasurement {
  runId: string;
  startedAt: string;
  /** Durable 4 KiB writes per second at QD1. */
  iops: number;
  /** µs per durable write at QD1 (one writer: 1 s / IOPS, the write and its flush together). */
  latencyUs: number;
  /** CPU µs the writing thread spent per write (system call and block layer), inside latencyUs; null when not recorded. */
  cpuUsPerIo: number | null;
}

const norm = (s: string | null | undefined): string | null => {
  const t = s?.trim();
  return t ? t : null;
};
const wwnKey = (s: string | null | undefined): string | null => norm(s)?.toLowerCase().replace(/^0x/, '').replace(/^(naa|eui)\./, '') ?? null;

type DriveIdentity = Pick<Drive, 'serial' | 'wwn'> & Partial<Pick<Drive, 'devPath' | 'byIdPath' | 'aliases' | 'sizeBytes'>>;

/**
 * The measured device is this drive: the same serial, or, where either reports none, the same WWN.
 * A device with neither (loop devices, some virtual disks) is confirmed by NAME:BYTES at run time
 * (device-facts.ts), so it is the same drive only by that too: the run's `target` is one of the
 * drive's paths and the sizes are equal to the byte.
 */
export function sameDevice(m: NonNullable<BenchmarkSummary['device']>, d: DriveIdentity, target?: string): boolean {
  const ms = norm(m.serial);
  const ds = norm(d.serial);
  if (ms && ds) return ms === ds;
  const mw = wwnKey(m.wwn);
  const dw = wwnKey(d.wwn);
  if (mw !== null || dw !== null) return mw !== null && mw === dw;
  if (ms || ds || target === undefined || m.sizeBytes === null || m.sizeBytes !== d.sizeBytes) return false;
  return [d.devPath, d.byIdPath, ...(d.aliases ?? [])].some((p) => p === target);
}

/** A completed raw-device run that measured durable 4 KiB writes one at a time. */
const isBlankDeviceQd1 = (s: BenchmarkSummary): boolean =>
  s.status === 'completed' && s.targetKind === 'device' && s.iodepth === 1 && s.blockSize === 4096
  && s.writeIops > 0 && s.readIops === 0 && s.syncMode !== 'async' && Boolean(s.device);

/** The newest blank-device test of `drive` among the runs, or null. */
export function deviceMeasurement(runs: readonly BenchmarkSummary[] | undefined, drive: DriveIdentity): DeviceMeasurement | null {
  const r = newestRun(runs, (s) => isBlankDeviceQd1(s) && sameDevice(s.device!, drive, s.target));
  return r ? { runId: r.id, startedAt: r.startedAt, iops: r.writeIops, latencyUs: 1e6 / r.writeIops, cpuUsPerIo: r.cpuUsPerIo ?? null } : null;
}

/** The sentence a forecast cites: "measured on this host, run <id>, <date>: …". */
export function measuredDeviceBasis(base: DeviceProfile, m: DeviceMeasurement): string {
  const replaced = base.matched === 'catalog' ? `the catalog figure for "${base.product}"` : `the "${base.classLabel}" class estimate`;
  return `measured on this host, run ${m.runId}, ${formatTime(m.startedAt)}: ${formatLatencyUs(m.latencyUs)} per durable 4 KiB write at QD1 (${formatCount(m.iops)} IOPS, blank-device test of this drive), instead of ${replaced}`;
}

/**
 * The drive's profile with its measured latency. The ±10 % range is run-to-run spread, as for a
 * measured "now" (measured-now.ts); bandwidth stays the catalog's or class's (a QD1 4 KiB run says
 * nothing about large writes), and published SLOG measurements of the model no longer apply: this
 * device was measured itself.
 */
export function measuredDeviceProfile(base: DeviceProfile, m: DeviceMeasurement): DeviceProfile {
  const basis = measuredDeviceBasis(base, m);
  return {
    ...base, id: `measured:${base.id}`, matched: 'measured', slogMeasurements: [], basis,
    lat4kUs: { typical: m.latencyUs, low: m.latencyUs * 0.9, high: m.latencyUs * 1.1, kind: 'measured', source: 'this host', quote: basis },
  };
}

/** A drive of the box as a forecast candidate: measured on this host when a blank-device test of it exists, else catalog or class. */
export function candidateProfile(d: Drive, runs: readonly BenchmarkSummary[] | undefined): { profile: DeviceProfile; measurement: DeviceMeasurement | null } {
  const base = profileForDrive(d);
  const m = deviceMeasurement(runs, d);
  return { profile: m ? measuredDeviceProfile(base, m) : base, measurement: m };
}
