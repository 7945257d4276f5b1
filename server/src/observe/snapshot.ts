/**
 * One reading of the counters the observer compares. Built from raw command/file text by
 * `snapshotFromTexts` (pure) so a recorded pair of readings and a live one go through the same code.
 */
import { parseKstat, type KstatSnapshot } from '../parsers/kstat.ts';
import { parseZpoolIostat, type IostatHistogram, type IostatTable } from '../parsers/zpool-iostat.ts';

export interface CounterSnapshot {
  /** ISO time of the reading. */
  takenAt: string;
  /** Monotonic milliseconds (performance.now / hrtime), for the window length. */
  monotonicMs: number;
  zil: KstatSnapshot | null;
  /** dataset name → its objset kstat (OpenZFS ≥ 2.2 has zil_* fields there). */
  zilPerDataset: Record<string, KstatSnapshot>;
  arc: KstatSnapshot | null;
  /** `zpool iostat -v -p -w` blocks (cumulative since import). */
  latency: IostatHistogram[];
  /** `zpool iostat -v -p -r` blocks (cumulative since import). */
  reqSize: IostatHistogram[];
  /** The `-v` table, to know each vdev's class and pool. */
  layout: IostatTable | null;
  notes: string[];
}

export interface SnapshotTexts {
  takenAt: string;
  monotonicMs: number;
  zil?: string | null;
  /** Raw objset kstat texts (any order); each names its dataset in `dataset_name`. */
  objsets?: string[];
  arc?: string | null;
  iostatW?: string | null;
  iostatR?: string | null;
  iostatV?: string | null;
}

export function snapshotFromTexts(t: SnapshotTexts): CounterSnapshot {
  const notes: string[] = [];
  const kstat = (label: string, text: string | null | undefined, module: string): KstatSnapshot | null => {
    if (!text) return null;
    const r = parseKstat(text, module);
    if (!r.ok) { notes.push(`${label}: ${r.error.message}`); return null; }
    return r.value;
  };
  const zilPerDataset: Record<string, KstatSnapshot> = {};
  for (const text of t.objsets ?? []) {
    const r = parseKstat(text);
    if (r.ok && r.value.strings.dataset_name && 'zil_commit_count' in r.value.raw) zilPerDataset[r.value.strings.dataset_name] = r.value;
  }
  const hist = (label: string, text: string | null | undefined): IostatHistogram[] => {
    if (!text) return [];
    const r = parseZpoolIostat(text);
    if (!r.ok) { notes.push(`${label}: ${r.error.message}`); return []; }
    return r.value.histograms;
  };
  let layout: IostatTable | null = null;
  if (t.iostatV) {
    const r = parseZpoolIostat(t.iostatV);
    if (r.ok) layout = r.value.tables.at(-1) ?? null;
    else notes.push(`zpool iostat -v: ${r.error.message}`);
  }
  return {
    takenAt: t.takenAt,
    monotonicMs: t.monotonicMs,
    zil: kstat('zil kstat', t.zil, 'zil'),
    zilPerDataset,
    arc: kstat('arcstats', t.arc, 'arcstats'),
    latency: hist('zpool iostat -w', t.iostatW),
    reqSize: hist('zpool iostat -r', t.iostatR),
    layout,
    notes,
  };
}
