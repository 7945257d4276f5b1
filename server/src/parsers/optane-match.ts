/**
 * Recognises Intel Optane (3D XPoint) drives from the model string smartctl / nvme-cli / lsblk
 * print. Table: optane-models.json (copied verbatim from shared/reference; zfs-facts E6/E7).
 * Match by prefix because OEM/retail units append suffixes (…GAL, …GAD, …M3, …01).
 */
import { z } from 'zod';
import type { OptaneInfo } from '../model/inventory.ts';
import table from './optane-models.json' with { type: 'json' };

const ModelRow = z.object({
  product: z.string(),
  capacity_gb: z.number().nullable(),
  plp: z.union([z.boolean(), z.literal('near')]),
  endurance_pbw: z.number().nullable(),
});
const Table = z.object({ models: z.record(z.string(), ModelRow) });

/** Parsed once at module load: the table is static data shipped with the app. */
const ROWS: [string, z.infer<typeof ModelRow>][] = Object.entries(Table.parse(table).models)
  // Longest key first so SSDPED1D960GAY wins over a shorter key sharing its stem.
  .sort(([a], [b]) => b.length - a.length);

/** Shortest model string we accept as a truncated key (every key stem is ≥ 12 characters). */
const MIN_TRUNCATED = 12;

/** Normalises "INTEL SSDPEK1A058GA", "intel  ssdpek1a058ga " → "SSDPEK1A058GA". */
export function normaliseOptaneModel(model: string): string {
  return model.trim().toUpperCase().replace(/^INTEL[\s_-]+/, '').replace(/\s+/g, '');
}

export function matchOptane(model: string | null | undefined): OptaneInfo | null {
  if (!model) return null;
  const m = normaliseOptaneModel(model);
  if (m.length < 6) return null;
  for (const [key, row] of ROWS) {
    // OEM suffix on the drive (model longer than key), or the table key carries a suffix the
    // drive omits (key SSDPED1D960GAY vs model SSDPED1D960GA).
    if (m.startsWith(key) || (m.length >= MIN_TRUNCATED && key.startsWith(m))) {
      return {
        modelKey: key,
        product: row.product,
        capacityGb: row.capacity_gb,
        plp: row.plp,
        enduranceTbw: row.endurance_pbw === null ? null : Math.round(row.endurance_pbw * 1000 * 10) / 10,
      };
    }
  }
  return null;
}
