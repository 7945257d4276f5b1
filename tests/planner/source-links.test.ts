/**
 * Planner and sizing texts cite their sources as links a reader can open, never by the name of
 * our internal fact sheet ("zfs-facts B13"). Every string of the plans and sizing notes the CLI,
 * the API and the UI show is read: no "zfs-facts", and every Markdown link goes to https.
 */
import { describe, expect, it } from 'vitest';
import { planAddVdev } from '../../server/src/planner/add-vdev.ts';
import { planLayouts } from '../../server/src/planner/layouts.ts';
import { histogramFromText } from '../../server/src/sizing/from-table.ts';
import { inlinePlain, parseInline } from '../../server/src/text/markdown.ts';
import { factLinks } from '../../rules/lib/citations.ts';
import { dataset, group, leaf, pool } from '../support/builders.ts';

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value !== null && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

function expectOpenableSources(texts: string[]): void {
  expect(texts.length).toBeGreaterThan(0);
  for (const t of texts) {
    expect(t, t).not.toMatch(/zfs-facts/);
    // Nor a bare number of the fact sheet ("(B25)", "… vdev, C11)") that no reader can look up.
    expect(inlinePlain(t).replace(/\([^()]*https:\/\/[^()]*\)/g, ''), t).not.toMatch(/[ (,[](?:[A-G]\d{1,2}|C-T\d)[\]),:]/);
    for (const tok of parseInline(t)) if (tok.kind === 'link') expect(tok.href, t).toMatch(/^https:\/\//);
  }
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `/dev/disk/by-id/nvme-INTEL_SSDPEK1A058GA_PHOC12340${i}`);
const raidz2 = pool('tank', [group('raidz2', 'raidz2-0', ['a', 'b', 'c', 'd', 'e', 'f'].map((x) => leaf(`sd${x}`)))], { ashift: 12 });
const mirrors = pool('fast', [group('mirror', 'mirror-0', [leaf('sda'), leaf('sdb')])], { ashift: 12 });

describe('sources in planner and sizing text are links', () => {
  it('layout plans: reasons, warnings, rank notes and assumptions', () => {
    const texts = [
      planLayouts({ disks: 5, diskBytes: 4e12, media: 'hdd', workload: 'files' }),
      planLayouts({ disks: 8, diskBytes: 16e12, media: 'hdd', workload: 'vm' }),
      planLayouts({ disks: 24, diskBytes: 20e12, media: 'hdd', workload: 'media' }),
      planLayouts({ disks: 4, diskBytes: 2e12, media: 'ssd', workload: 'db' }),
    ].flatMap((p) => strings(p));
    expectOpenableSources(texts);
    expect(texts.some((t) => t.includes('](https://'))).toBe(true);
  });

  it('add-vdev plans: redundancy, steps and warnings', () => {
    const plans = [
      planAddVdev({ kind: 'special', pool: raidz2, devices: ids(3), openzfs: '2.2.4', datasets: [dataset('tank/share', { recordsize: 16384 })], specialSmallBlocks: 16384 }),
      planAddVdev({ kind: 'special', pool: raidz2, devices: ids(2), openzfs: '2.3.0', acceptLowerRedundancy: true }),
      planAddVdev({ kind: 'special', pool: mirrors, devices: ids(2), openzfs: '2.2.4' }),
      planAddVdev({ kind: 'slog', pool: mirrors, devices: ids(1), openzfs: '2.2.4' }),
      planAddVdev({ kind: 'slog', pool: raidz2, devices: ids(2), openzfs: '2.2.4' }),
    ];
    expectOpenableSources(plans.flatMap((p) => strings({ redundancy: p.redundancy, steps: p.steps.map((s) => s.why), warnings: p.warnings })));
  });

  it('sizing notes and the metadata basis', () => {
    const r = histogramFromText('size count\n4096 100\n131072 20\n', { recordsize: 131072, ashift: 12, source: 'pasted', capturedAt: '2026-01-01T00:00:00.000Z' });
    if (!r.ok) throw new Error(r.message);
    expectOpenableSources(strings({ notes: r.histogram.notes, basis: r.histogram.metadataBasis }));
  });

  it('a bracket in the text before a link does not swallow the link ("row T holds [T, 2T) ([source](url))")', () => {
    const toks = parseInline('row T holds [T, 2T), a lower bound ([OpenZFS x](https://example.org/x), [y](https://example.org/y))');
    expect(toks.filter((t) => t.kind === 'link')).toEqual([
      { kind: 'link', text: 'OpenZFS x', href: 'https://example.org/x' },
      { kind: 'link', text: 'y', href: 'https://example.org/y' },
    ]);
    expect(toks[0]).toEqual({ kind: 'text', text: 'row T holds [T, 2T), a lower bound (' });
  });

  it('factLinks: one link per distinct source; an unknown fact fails loudly', () => {
    expect(factLinks('B13', 'B24')).toBe(factLinks('B13')); // both cite zpoolconcepts(7)
    expect(factLinks('B13', 'B14').split('](').length).toBe(3);
    expect(() => factLinks('Z99')).toThrow(/Z99/);
  });
});
