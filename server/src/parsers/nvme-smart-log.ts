/**
 * `nvme smart-log DEV -o json`. nvme-cli 1.x/2.x print temperatures in Kelvin (`"temperature" : 301`)
 * and `percent_used`/`avail_spare`; the v2 output format (2.11+) uses `percentage_used`,
 * `available_spare` and may print temperatures as Celsius strings ("28 °C" / "28 C"). Both are read.
 */
import { failed, parsed, type ParseOutcome } from './common.ts';
import { isObject, num, parseJsonText, type JsonObject } from './json-fields.ts';

export interface NvmeSmartLog {
  criticalWarning: number | null;
  temperatureC: number | null;
  availableSparePct: number | null;
  spareThresholdPct: number | null;
  percentageUsed: number | null;
  dataUnitsWritten: number | null;
  /** data_units are thousands of 512-byte units (NVMe spec). */
  bytesWritten: number | null;
  dataUnitsRead: number | null;
  powerOnHours: number | null;
  powerCycles: number | null;
  unsafeShutdowns: number | null;
  mediaErrors: number | null;
  errorLogEntries: number | null;
  /** Bit 4 of critical_warning: the volatile memory backup (PLP capacitors) failed. */
  volatileBackupFailed: boolean | null;
}

/**
 * The first of `keys` present. nvme-cli 2.11 prints some fields as objects whose number is
 * `value` (`"critical_warning": {"value": 0, "available_spare": 0, …}`): those read their `value`.
 */
const first = (d: JsonObject, ...keys: string[]): unknown => {
  for (const k of keys) {
    if (!(k in d)) continue;
    const v = d[k];
    return isObject(v) && 'value' in v ? v.value : v;
  }
  return undefined;
};

/** Kelvin integers (> 200) → °C; "28 °C" / "28 C" / "301 K" strings handled too. */
function celsius(v: unknown): number | null {
  if (typeof v === 'string') {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*(°?\s*C|K)?\s*$/i.exec(v);
    if (!m) return null;
    const n = Number(m[1]);
    return m[2] && /k/i.test(m[2]) ? Math.round(n - 273.15) : n;
  }
  const n = num(v);
  if (n === null || n === 0) return null;
  return n > 200 ? Math.round(n - 273.15) : n;
}

export function parseNvmeSmartLog(jsonText: string): ParseOutcome<NvmeSmartLog> {
  const j = parseJsonText(jsonText);
  if (!j.ok) return j;
  if (!isObject(j.value)) return failed('nvme smart-log JSON is not an object');
  const d = j.value;
  const cw = num(first(d, 'critical_warning'));
  const duw = num(first(d, 'data_units_written'));
  const log: NvmeSmartLog = {
    criticalWarning: cw,
    temperatureC: celsius(first(d, 'temperature', 'composite_temperature')),
    availableSparePct: num(first(d, 'avail_spare', 'available_spare')),
    spareThresholdPct: num(first(d, 'spare_thresh', 'available_spare_threshold')),
    percentageUsed: num(first(d, 'percent_used', 'percentage_used')),
    dataUnitsWritten: duw,
    bytesWritten: duw === null ? null : duw * 512_000,
    dataUnitsRead: num(first(d, 'data_units_read')),
    powerOnHours: num(first(d, 'power_on_hours')),
    powerCycles: num(first(d, 'power_cycles')),
    unsafeShutdowns: num(first(d, 'unsafe_shutdowns')),
    mediaErrors: num(first(d, 'media_errors')),
    errorLogEntries: num(first(d, 'num_err_log_entries')),
    volatileBackupFailed: cw === null ? null : (cw & 0x10) !== 0,
  };
  if (log.criticalWarning === null && log.percentageUsed === null && log.powerOnHours === null) {
    return failed('nvme smart-log JSON has none of critical_warning, percent_used, power_on_hours');
  }
  return parsed(log);
}
