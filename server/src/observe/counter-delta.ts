/**
 * Differences of cumulative uint64 counters between two snapshots, exact (BigInt on the printed
 * decimal text) and honest about the two ways a counter lies:
 *  - reset: the module was reloaded or the pool re-imported between snapshots (after < before);
 *    the delta is then `after` (the counter restarted from 0) and a note says so;
 *  - underflow/wrap: a value ≥ 2^63 is an unsigned counter that went "negative" (a real ZoL bug left
 *    zil_itx_needcopy_bytes at 18446744073709537686); its delta is unknown (null).
 */
import { UINT64_WRAP_THRESHOLD } from '../parsers/kstat.ts';

export interface CounterDeltas {
  /** name → after − before (null when either side is wrapped or missing). */
  deltas: Record<string, number | null>;
  reset: string[];
  wrapped: string[];
  notes: string[];
}

function big(v: string | undefined): bigint | null {
  if (v === undefined || !/^\d+$/.test(v)) return null;
  return BigInt(v);
}

export function counterDeltas(before: Record<string, string>, after: Record<string, string>, label = 'counter'): CounterDeltas {
  const out: CounterDeltas = { deltas: {}, reset: [], wrapped: [], notes: [] };
  for (const name of Object.keys(after)) {
    const a = big(after[name]);
    const b = big(before[name]);
    if (a === null || b === null) { out.deltas[name] = null; continue; }
    if (a >= UINT64_WRAP_THRESHOLD || b >= UINT64_WRAP_THRESHOLD) {
      out.deltas[name] = null;
      out.wrapped.push(name);
      continue;
    }
    if (a < b) {
      out.deltas[name] = Number(a);
      out.reset.push(name);
      continue;
    }
    out.deltas[name] = Number(a - b);
  }
  if (out.wrapped.length) {
    out.notes.push(`${label}: ${out.wrapped.join(', ')} ≥ 2^63 (an underflowed uint64, a known OpenZFS accounting bug): left out`);
  }
  if (out.reset.length) {
    out.notes.push(`${label}: ${out.reset.length} counter(s) went backwards (module reload or pool re-import during the window): counted from zero`);
  }
  return out;
}

/** Sum of deltas, null when any part is unknown. */
export function sumDeltas(d: Record<string, number | null>, names: string[]): number | null {
  let s = 0;
  for (const n of names) {
    const v = d[n];
    if (v === null || v === undefined) return null;
    s += v;
  }
  return s;
}
