/**
 * Redacts a built report document with the project's redactor (server/src/redact/redactor.ts),
 * so a report and a redacted snapshot of the same host use the same tokens.
 *
 * The redactor learns literal secrets from the inventory and the raw outputs and recognises
 * WWNs, GUIDs-in-context and IPv4 by pattern. A document holds a few values without the context
 * the patterns need — a vdev's `guid` field, a `zpool status -g` vdev named only by its GUID, a
 * drive's WWN without `0x` — so those are replaced first as literals, using the token the
 * redactor gives the same value in context (consistent with the raw outputs). Dataset names
 * (below the pool component, which the redactor handles) are the report's own addition when
 * names are redacted: `tank/vm/disk0` → `POOL-1/DATASET-1/DATASET-2`.
 */
import type { Inventory, VdevNode } from '../model/inventory.ts';
import { createRedactor } from '../redact/redactor.ts';
import type { RawSet } from '../snapshot/raw-set.ts';
import type { ReportDocument } from './document.ts';

export interface ReportRedaction {
  /** Also pool and dataset names. */
  names: boolean;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Numbers this long printed as a vdev name are GUIDs (`zpool status -g`, missing devices). */
const GUID_NAME = /^\d{15,20}$/;

/** Applies `f` to every string value of a JSON-like value; objects and arrays are copied. */
function mapStrings<T>(value: T, f: (s: string) => string): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return f(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

function vdevGuids(nodes: VdevNode[], out: Set<string>): void {
  for (const n of nodes) {
    if (n.guid) out.add(n.guid);
    if (GUID_NAME.test(n.name)) out.add(n.name);
    vdevGuids(n.children, out);
  }
}

/** `tank/vm/disk0` → component tokens keyed by full dataset path, parents first. */
function datasetLiterals(inv: Inventory): Map<string, string> {
  const tokens = new Map<string, string>();
  const names = [...new Set(inv.datasets.map((d) => d.name.split('@')[0]!))].sort();
  for (const name of names) {
    const parts = name.split('/');
    for (let i = 1; i < parts.length; i++) {
      const prefix = parts.slice(0, i + 1).join('/');
      if (!tokens.has(prefix)) tokens.set(prefix, `DATASET-${tokens.size + 1}`);
    }
  }
  const out = new Map<string, string>();
  for (const prefix of tokens.keys()) {
    const parts = prefix.split('/');
    out.set(prefix, [parts[0]!, ...parts.slice(1).map((_, i) => tokens.get(parts.slice(0, i + 2).join('/'))!)].join('/'));
  }
  return out;
}

/**
 * `bounded`: the match may not continue a longer word on its left (`/mnt/tank/vm` matches, `xtank/vm`
 * does not). On the right it may: names derived from a dataset (`vm-100-disk-0-16k`) reveal it too.
 */
function literalReplacer(pairs: Map<string, string>, bounded: boolean): (s: string) => string {
  const entries = [...pairs.entries()].filter(([k]) => k.length > 0).sort((a, b) => b[0].length - a[0].length);
  if (entries.length === 0) return (s) => s;
  const lookup = new Map(entries.map(([k, v]) => [k.toLowerCase(), v]));
  const alternation = entries.map(([k]) => escape(k)).join('|');
  const re = bounded
    ? new RegExp(`(?<![A-Za-z0-9_.:-])(?:${alternation})`, 'gi')
    : new RegExp(alternation, 'gi');
  return (s) => s.replace(re, (m) => lookup.get(m.toLowerCase()) ?? m);
}

export function redactReportDocument(doc: ReportDocument, inv: Inventory, raw: RawSet | null, opts: ReportRedaction): ReportDocument {
  const r = createRedactor({ poolNames: opts.names });
  r.learnInventory(inv);
  if (raw) r.learnRawSet(raw);

  const contextFree = new Map<string, string>();
  const guids = new Set<string>();
  for (const p of inv.pools) {
    if (p.guid) guids.add(p.guid);
    vdevGuids(p.vdevs, guids);
  }
  for (const g of guids) {
    const t = /GUID-\d+/.exec(r.redactText(`guid ${g}`))?.[0];
    if (t) contextFree.set(g, t);
  }
  for (const d of inv.drives) {
    const hex = d.wwn?.replace(/^(0x|naa\.|eui\.)/i, '');
    if (!hex || !/^[0-9a-f]{16,32}$/i.test(hex)) continue;
    const t = /WWN-\d+/.exec(r.redactText(`0x${hex}`))?.[0];
    if (t) contextFree.set(hex, t);
  }
  const literals = literalReplacer(contextFree, false);
  // smartctl -j prints the WWN as numbers ({"naa": 5, "oui": 9528, "id": 61213911380}); the id
  // identifies the drive, so it becomes the WWN's token (as a JSON string, keeping the JSON valid).
  const smartctlWwn = (s: string) => s.replace(/("wwn"\s*:\s*\{[^{}]*?"id"\s*:\s*)(\d+)/g, (m, head: string, id: string) => {
    const naa = /"naa"\s*:\s*(\d+)/.exec(m)?.[1];
    const oui = /"oui"\s*:\s*(\d+)/.exec(m)?.[1];
    const hex = naa && oui ? ((BigInt(naa) << 60n) | (BigInt(oui) << 36n) | BigInt(id)).toString(16).padStart(16, '0') : null;
    const t = /WWN-\d+/.exec(r.redactText(`0x${hex ?? id.padStart(16, '0')}`))?.[0] ?? 'WWN';
    return `${head}"${t}"`;
  });
  const guidsAndWwns = (s: string) => smartctlWwn(literals(s));
  const datasets = opts.names ? literalReplacer(datasetLiterals(inv), true) : (s: string) => s;
  const redactString = (s: string) => r.redactText(datasets(guidsAndWwns(s)));

  const redacted = mapStrings({ ...doc, redaction: { applied: true, names: opts.names, replaced: {} } }, redactString);
  const replaced: Record<string, number> = {};
  const tokens = new Set<string>([...r.mapping().values(), ...(opts.names ? datasetTokens(inv) : [])]);
  for (const t of tokens) {
    const kind = t.replace(/-\d+$/, '');
    replaced[kind] = (replaced[kind] ?? 0) + 1;
  }
  return { ...redacted, redaction: { applied: true, names: opts.names, replaced } };
}

function datasetTokens(inv: Inventory): string[] {
  return [...new Set([...datasetLiterals(inv).values()].flatMap((v) => v.split('/').slice(1)))];
}
