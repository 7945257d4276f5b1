/**
 * The Optane verdict as the card shows it. The API passes the verdict through as a loose object
 * (`OptaneVerdictView`); this narrows it to the verdict module's own type field by field, keeping
 * what is well-formed and dropping what is not, so a partial verdict still renders.
 */
import type { OptaneVerdictView } from '../../../server/src/api/contract.ts';
import type { OptaneVerdict } from '../../../server/src/optane/verdict.ts';

type Range = { iops: number; low: number; high: number };

const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);
const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
const num = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);

function range(x: unknown): Range | null {
  if (!isObj(x)) return null;
  const iops = num(x.iops);
  const low = num(x.low);
  const high = num(x.high);
  return iops !== null && low !== null && high !== null ? { iops, low, high } : null;
}

function pairs<T>(xs: unknown, pick: (o: Record<string, unknown>) => T | null): T[] {
  if (!Array.isArray(xs)) return [];
  return xs.flatMap((x) => {
    const v = isObj(x) ? pick(x) : null;
    return v === null ? [] : [v];
  });
}

function headlineGain(x: unknown): OptaneVerdict['headlineGain'] {
  if (!isObj(x)) return null;
  const kind = str(x.kind); const low = num(x.low); const high = num(x.high); const iodepth = num(x.iodepth); const text = str(x.text);
  const value = x.value === null ? null : num(x.value);
  if ((kind !== 'measured-pair' && kind !== 'probe' && kind !== 'range') || low === null || high === null || iodepth === null || text === null) return null;
  return { kind, value, low, high, iodepth, text };
}

export function narrowVerdict(v: OptaneVerdictView): OptaneVerdict {
  const exp = isObj(v.expected) ? v.expected : null;
  const qd = (k: 'qd1' | 'qd16') => {
    const o = exp && isObj(exp[k]) ? exp[k] : null;
    const now = o ? range(o.now) : null;
    const withOptane = o ? range(o.withOptane) : null;
    return now && withOptane ? { now, withOptane } : null;
  };
  const qd1 = qd('qd1');
  const qd16 = qd('qd16');
  const layout = isObj(v.layout) ? v.layout : {};
  const rev = str(layout.reversible);
  const conf = str(v.confidence);
  return {
    verdict: v.verdict,
    headline: v.headline,
    pool: str(v.pool),
    reasons: v.reasons.filter((r): r is string => typeof r === 'string'),
    evidence: pairs(v.evidence, (o) => {
      const label = str(o.label);
      const value = o.value === null || typeof o.value === 'string' || typeof o.value === 'number' ? o.value : undefined;
      return label !== null && value !== undefined ? { label, value } : null;
    }),
    expected: qd1 && qd16 ? { qd1, qd16 } : null,
    candidates: pairs(v.candidates, (o) => {
      const device = str(o.device); const product = str(o.product); const role = str(o.role); const lay = str(o.layout);
      return device && product && role && lay ? { device, product, role, layout: lay } : null;
    }),
    purchase: pairs(v.purchase, (o) => {
      const product = str(o.product); const capacityGb = num(o.capacityGb); const why = str(o.why);
      return product && why ? { product, capacityGb, why } : null;
    }),
    layout: {
      commands: Array.isArray(layout.commands) ? layout.commands.filter((c): c is string => typeof c === 'string') : [],
      reversible: rev === 'yes' || rev === 'no' || rev === 'partly' ? rev : 'yes',
    },
    unknowns: pairs(v.unknowns, (o) => {
      const what = str(o.what); const howToMeasure = str(o.howToMeasure);
      return what && howToMeasure ? { what, howToMeasure } : null;
    }),
    findings: pairs(v.findings, (o) => {
      const ruleId = str(o.ruleId); const title = str(o.title); const severity = str(o.severity);
      return ruleId && title && severity ? { ruleId, title, severity } : null;
    }),
    confidence: conf === 'high' || conf === 'medium' || conf === 'low' ? conf : 'low',
    decisive: str(v.decisive) ?? '',
    headlineGain: headlineGain(v.headlineGain),
    deviceProbes: pairs(v.deviceProbes, (o) => {
      const driveId = str(o.driveId); const device = str(o.device); const product = str(o.product); const sizeBytes = num(o.sizeBytes); const command = str(o.command);
      const m = isObj(o.measured) ? o.measured : null;
      const runId = m ? str(m.runId) : null; const startedAt = m ? str(m.startedAt) : null; const iops = m ? num(m.iops) : null; const latencyUs = m ? num(m.latencyUs) : null;
      const measured = runId && startedAt && iops !== null && latencyUs !== null ? { runId, startedAt, iops, latencyUs } : null;
      return driveId && device && product && sizeBytes !== null && command ? { driveId, device, product, sizeBytes, measured, command } : null;
    }),
  };
}

export const VERDICT_WORD: Record<OptaneVerdict['verdict'], string> = { yes: 'Yes', no: 'No', depends: 'It depends', replace: 'Replace the SLOG' };

/** Rows for the chart and its table: expected sync-write IOPS now vs with an Optane SLOG. */
export interface ExpectationRow {
  label: string;
  now: Range;
  withOptane: Range;
  /** withOptane.iops / now.iops, rounded to one decimal. */
  gain: number;
}

export function expectationRows(v: OptaneVerdict): ExpectationRow[] {
  if (!v.expected) return [];
  const row = (label: string, e: { now: Range; withOptane: Range }): ExpectationRow => ({
    label, now: e.now, withOptane: e.withOptane, gain: e.now.iops > 0 ? Math.round((e.withOptane.iops / e.now.iops) * 10) / 10 : 0,
  });
  return [row('QD1 (one writer)', v.expected.qd1), row('QD16 (many writers)', v.expected.qd16)];
}
