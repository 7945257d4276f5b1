/**
 * FreeBSD `gpart list` (= `geom part list`): one block per partitioned disk ("Geom name: nvd1"),
 * its Providers (the partitions: Name, Mediasize in bytes, label, rawuuid, type, index) and its
 * Consumers (the disk). Only the fields the partition table needs are kept.
 */
import { failed, parsed, splitLines, type ParseIssue, type ParseOutcome } from './common.ts';

export interface GpartProvider {
  name: string;
  index: number | null;
  sizeBytes: number | null;
  label: string | null;
  rawuuid: string | null;
  type: string | null;
}

export interface GpartGeom {
  /** The disk: ada0, nvd1. */
  name: string;
  scheme: string | null;
  providers: GpartProvider[];
}

export function parseGpartList(text: string): ParseOutcome<GpartGeom[]> {
  const out: GpartGeom[] = [];
  const issues: ParseIssue[] = [];
  let geom: GpartGeom | null = null;
  let section: 'head' | 'providers' | 'consumers' = 'head';
  let prov: GpartProvider | null = null;
  splitLines(text).forEach((raw, i) => {
    const line = raw.trimEnd();
    const t = line.trim();
    if (t === '') return;
    let m: RegExpExecArray | null;
    if ((m = /^Geom name:\s*(\S+)$/.exec(t))) {
      geom = { name: m[1]!, scheme: null, providers: [] };
      out.push(geom);
      section = 'head';
      prov = null;
      return;
    }
    if (!geom) { issues.push({ line: i + 1, message: `text before the first "Geom name:" skipped: ${t.slice(0, 60)}` }); return; }
    const g: GpartGeom = geom;
    if (t === 'Providers:') { section = 'providers'; return; }
    if (t === 'Consumers:') { section = 'consumers'; prov = null; return; }
    if ((m = /^\d+\.\s+Name:\s*(\S+)$/.exec(t))) {
      if (section === 'providers') {
        prov = { name: m[1]!, index: null, sizeBytes: null, label: null, rawuuid: null, type: null };
        g.providers.push(prov);
      }
      return;
    }
    m = /^(\w+):\s*(.*)$/.exec(t);
    if (!m) return;
    const [key, value] = [m[1]!, m[2]!.trim()];
    if (section === 'head' && key === 'scheme') g.scheme = value;
    if (section !== 'providers' || !prov) return;
    const p: GpartProvider = prov;
    switch (key) {
      case 'Mediasize': { const n = /^(\d+)/.exec(value); p.sizeBytes = n ? Number(n[1]) : null; break; }
      case 'label': p.label = value === '(null)' || value === '' ? null : value; break;
      case 'rawuuid': p.rawuuid = value || null; break;
      case 'type': p.type = value || null; break;
      case 'index': p.index = /^\d+$/.test(value) ? Number(value) : null; break;
    }
  });
  if (out.length === 0) return failed('no "Geom name:" block (not `gpart list` output)');
  return parsed(out, issues);
}
