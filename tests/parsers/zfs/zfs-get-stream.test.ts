/**
 * The streaming `zfs get` parser (issue 21) against the whole-text reading it replaced: on every
 * real `zfs get` output in the fixtures, fed whole or in chunks of any size, it gives the same
 * datasets, properties, sources and issues; with a `keep` filter it gives the same minus the
 * dropped properties; and the large synthetic host reads the same way.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEPT_DATASET_PROPERTIES } from '../../../server/src/gather/collectors/datasets.ts';
import type { ParseIssue } from '../../../server/src/parsers/common.ts';
import { parseZfsGet, ZfsGetStream, type ZfsGetDataset } from '../../../server/src/parsers/zfs-get.ts';
import { readPropertyRows } from '../../../server/src/parsers/zfs-property-table.ts';
import { writeLargeSnapshot } from '../../../scripts/gen-large-snapshot.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

const root = join(import.meta.dirname, '../../..');
const textFixtures = [
  ...readdirSync(join(root, 'tests/fixtures/zfs/get')).filter((f) => f.endsWith('.txt')).map((f) => join('tests/fixtures/zfs/get', f)),
  ...['002-proxmox-zvols', '003-av-mirrors-p3600-special-optane-slog', '003-hd-single-disk-optane-special-slog'].map((d) => `tests/fixtures/snapshots/${d}/zfs-get.txt`),
  'tests/fixtures/report/redaction-snapshot/zfs-get.txt',
  'server/demo/000-hdd-mirror-optane/zfs-get.txt',
  'server/demo/001-raidz2-12disk/zfs-get.txt',
];

/** The reading before issue 21: all rows in an array, then grouped by dataset (kept here as the reference). */
function reference(text: string): { datasets: ZfsGetDataset[]; issues: ParseIssue[] } {
  const issues: ParseIssue[] = [];
  const byName = new Map<string, ZfsGetDataset>();
  for (const r of readPropertyRows(text, issues)) {
    let ds = byName.get(r.name);
    if (ds === undefined) { ds = { name: r.name, type: null, properties: {} }; byName.set(r.name, ds); }
    ds.properties[r.property] = { value: r.value, source: r.source };
    if (r.property === 'type') ds.type = ['filesystem', 'volume', 'snapshot', 'bookmark'].includes(r.value.toLowerCase()) ? r.value.toLowerCase() as ZfsGetDataset['type'] : null;
  }
  return { datasets: [...byName.values()], issues };
}

function streamed(text: string, chunk: number, keep?: (p: string) => boolean) {
  const s = new ZfsGetStream(keep ? { keep } : {});
  for (let i = 0; i < text.length; i += chunk) s.push(text.slice(i, i + chunk));
  return s.end();
}

const filtered = (list: ZfsGetDataset[], keep: (p: string) => boolean): ZfsGetDataset[] =>
  list.map((d) => ({ ...d, properties: Object.fromEntries(Object.entries(d.properties).filter(([k]) => keep(k))) }));

describe('streaming zfs get parser equals the whole-text reading', () => {
  it('has fixtures to compare', () => { expect(textFixtures.length).toBeGreaterThanOrEqual(14); });

  for (const rel of textFixtures) {
    const text = readFileSync(join(root, rel), 'utf8');
    it(rel, () => {
      const ref = reference(text);
      const whole = parseZfsGet(text);
      if (ref.datasets.length === 0) { expect(whole.ok).toBe(false); return; }
      expect(whole.ok).toBe(true);
      if (!whole.ok) return;
      expect(whole.value).toEqual(ref.datasets);
      expect(whole.issues).toEqual(ref.issues);
      for (const chunk of [1, 7, 64, 4096]) {
        const s = streamed(text, chunk);
        expect(s.ok && s.value).toEqual(ref.datasets);
      }
      const keep = (p: string) => KEPT_DATASET_PROPERTIES.has(p);
      const kept = parseZfsGet(text, { keep });
      expect(kept.ok && kept.value).toEqual(filtered(ref.datasets, keep));
    });
  }

  it('any chunking of a real output gives the same result (property)', () => {
    const text = readFileSync(join(root, 'tests/fixtures/zfs/get/xcpng-vol0-zfs-get-H-all.txt'), 'utf8')
      + readFileSync(join(root, 'tests/fixtures/snapshots/002-proxmox-zvols/zfs-get.txt'), 'utf8');
    const expected = reference(text).datasets;
    fc.assert(fc.property(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 40 }), (cuts) => {
      const s = new ZfsGetStream();
      let at = 0;
      for (const c of cuts) { s.push(text.slice(at, at + c)); at += c; }
      s.push(text.slice(at));
      const r = s.end();
      expect(r.ok && r.value).toEqual(expected);
    }), { numRuns: 60 });
  });

  it('CRLF line ends read like LF', () => {
    const text = readFileSync(join(root, 'tests/fixtures/zfs/get/xcpng-vol0-zfs-get-H-all.txt'), 'utf8');
    const crlf = parseZfsGet(text.replace(/\n/g, '\r\n'));
    expect(crlf.ok && crlf.value).toEqual(reference(text).datasets);
  });

  it('a dataset whose rows are all dropped by `keep` is still listed, with its type', () => {
    const r = parseZfsGet('tank\ttype\tfilesystem\t-\ntank\tguid\t123\t-\ntank/a\tguid\t456\t-\n', { keep: (p) => p === 'compression' });
    expect(r.ok && r.value).toEqual([
      { name: 'tank', type: 'filesystem', properties: {} },
      { name: 'tank/a', type: null, properties: {} },
    ]);
  });

  it('the large synthetic host (5,000 datasets) reads the same streamed and whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zfs-advisor-large-'));
    try {
      writeLargeSnapshot(dir, { pools: 4, disksPerPool: 12, datasets: 5000, zvolShare: 0.2 });
      const text = readFileSync(join(dir, 'zfs-get.txt'), 'utf8');
      const ref = reference(text).datasets;
      expect(ref.length).toBe(5000);
      const s = streamed(text, 65536);
      expect(s.ok && s.value).toEqual(ref);
    } finally { rmSync(dir, { recursive: true, force: true }); }
  });
});
