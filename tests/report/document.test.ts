/**
 * The report document built from the demo snapshots: the content every format renders.
 * Expected values were read by hand from server/demo/000-hdd-mirror-optane (2×WD Red mirror
 * `bench-pool`, sync=always, recordsize=4k, unused Optane P1600X) and 001-raidz2-12disk, and
 * from tests/fixtures/report/bench-history.json.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { REPORT_SCHEMA_VERSION, ReportDocument } from '../../server/src/report/document.ts';
import { reportDocument } from '../../server/src/report/render.ts';
import { REPORT_SCHEMA_FILE, reportJsonSchemaText } from '../../server/src/report/schema.ts';
import { vdevTreeText } from '../../server/src/report/vdev-tree.ts';
import { chartAxis, chartText } from '../../server/src/report/charts.ts';
import { chartSvg } from '../../server/src/report/svg.ts';
import { formatCount, formatRange } from '../../server/src/text/format.ts';
import { GENERATED_AT, benchHistory, loadDemo, reportInput } from './support.ts';

describe('report document from demo 000', async () => {
  const doc = reportDocument(reportInput(await loadDemo('000-hdd-mirror-optane'), benchHistory()));

  it('is a valid, versioned document with the generation facts', () => {
    expect(ReportDocument.safeParse(doc).success).toBe(true);
    expect(doc.reportSchemaVersion).toBe(REPORT_SCHEMA_VERSION);
    expect(doc.generatedAt).toBe(GENERATED_AT);
    expect(doc.appVersion).toBe('0.0.0-test');
    expect(doc.ruleCatalogVersion).toBe('1');
    expect(doc.source).toEqual({ kind: 'demo', label: 'Demo data: 2×HDD mirror on TrueNAS CORE with an unused Optane P1600X (reference 000)', capturedAt: '2023-01-15T00:00:00.000Z', demo: true });
    expect(doc.redaction).toEqual({ applied: false, names: false, replaced: {} });
  });

  it('summarises host and pool with the vdev tree', () => {
    expect(doc.host.hostname).toBe('truenas-datto.home.fluffnet.net');
    expect(doc.host.openzfs).toBe('2.1.6');
    expect(doc.pools).toHaveLength(1);
    const p = doc.pools[0]!;
    expect(p.name).toBe('bench-pool');
    expect(p.state).toBe('ONLINE');
    expect(p.ashift).toBe(12);
    expect(p.datasetCount).toBe(1);
    expect(p.vdevTree).toBe(['bench-pool  ONLINE', '└─ mirror-0  ONLINE', '   ├─ da1  ONLINE', '   └─ da3  ONLINE'].join('\n'));
    expect(doc.drives.map((d) => d.serial)).toEqual(['WD-WCC7K3DEMO01', 'WD-WCC7K3DEMO03', 'PHOC209200KC058A']);
    expect(doc.drives[2]!.optane).toBe('Intel Optane SSD P1600X 58GB');
  });

  it('carries the Optane verdict and the findings with evidence, commands and citations', () => {
    expect(doc.optane?.verdict).toBe('yes');
    expect(doc.optane?.candidates.map((c) => c.device)).toEqual(['/dev/nvd1']);
    expect(doc.summary).toEqual({ counts: { critical: 0, warning: 0, suggestion: 2, info: 0 }, total: 2 });
    expect(doc.findings.map((f) => f.ruleId)).toEqual(['recordsize-too-small', 'slog-benefit']);
    const rs = doc.findings[0]!;
    expect(rs.action?.commands).toEqual(['zfs inherit recordsize bench-pool', 'zfs get recordsize bench-pool']);
    expect(rs.action?.reversible).toBe('yes');
    expect(rs.citations.length).toBeGreaterThan(0);
    // 000 has no log vdev, so slog-without-sync-writes does not apply (it asks for a workload only when a log exists).
    expect(doc.rulesNotRun.map((r) => r.ruleId)).toEqual([]);
  });

  it('attaches methodology and caveats to each benchmark, newest first', () => {
    expect(doc.benchmarks.map((b) => b.summary.id)).toEqual(['fixture-nosync', 'fixture-fsync1']);
    const fsync = doc.benchmarks[1]!;
    expect(fsync.summary.writeIops).toBeCloseTo(1340.131974, 5);
    expect(fsync.methodology).toMatchObject({ profileTitle: 'Sync write 4k, QD1', rw: 'randwrite', blockSize: 4096, iodepth: 1, sizeBytes: 64 * 1024 * 1024, runtimeSeconds: 5, syncMode: 'fio-fsync' });
    expect(fsync.methodology.caveats.join(' ')).toMatch(/Sync semantics came from fio/);
    expect(doc.benchmarks[0]!.methodology.syncModeText).toMatch(/ceiling/);
  });

  it('draws the Optane chart on a linear axis from zero like the UI (125 vs 13 700 IOPS: the P1600X in the box, as measured in 000), each bar labelled with its number', () => {
    const optane = doc.charts.find((c) => c.id === 'chart-optane')!;
    expect(optane.scale).toBe('linear');
    // QD16 with = the P1600X measured as SLOG (39.2k), not the sync=disabled ceiling (48.3k).
    // "Now" from the group-commit model (issue 27): 75 at QD1, 1,160 at QD16 (000 measured 894 at QD16).
    expect(optane.bars.map((b) => b.value)).toEqual([125, 13700, 976, 39200]);
    const axis = chartAxis(optane);
    // Linear from 0 to a round top above every range: bar lengths are the values.
    const top = axis.ticks.at(-1)!;
    expect(axis.ticks).toEqual([0, top / 4, top / 2, (3 * top) / 4, top]);
    expect(top).toBeGreaterThanOrEqual(Math.max(...optane.bars.map((b) => b.high ?? b.value)));
    expect(axis.frac(0)).toBe(0);
    expect(axis.frac(top / 2)).toBeCloseTo(0.5, 10);
    // The small "now" bar is short but present, and its number (the shared formatter's) sits at its end in every format.
    const now = optane.bars[0]!;
    const text = chartText(optane).split('\n');
    expect(text[1]).toMatch(new RegExp(`│█ +${formatCount(now.value)} \\(${formatRange(now.low, now.high)}\\)$`));
    const svg = chartSvg(optane);
    for (const b of optane.bars) expect(svg).toContain(`class="bar-value">${formatCount(b.value)}</text>`);
    expect(svg).toContain('class="bar-value">13,700</text>');
    expect(svg).not.toContain('log scale');
    const bench = doc.charts.find((c) => c.id === 'chart-benchmarks')!;
    expect(bench.scale).toBe('linear');
    expect(bench.bars.map((b) => [b.series, b.value])).toEqual([['write', 4720], ['write', 1340]]);
    expect(chartText(optane).split('\n')).toHaveLength(5);
  });

  it('keeps every raw output, sorted, with its command', () => {
    expect(doc.rawOutputs.map((r) => r.file)).toEqual([
      'diskinfo/nvd1.txt', 'disks.txt', 'smartctl/da1.json', 'smartctl/da3.json', 'smartctl/nvd1.json', 'uname.txt',
      'zfs-get.txt', 'zfs-version.txt', 'zpool-get.txt', 'zpool-list.txt', 'zpool-status.txt',
    ]);
    const status = doc.rawOutputs.find((r) => r.file === 'zpool-status.txt')!;
    expect(status.command).toBe('zpool status -v');
    expect(status.text).toContain('bench-pool  ONLINE       0     0     0');
    expect(status.truncated).toBe(false);
  });
});

describe('report document edge cases', () => {
  it('reports a missing raw set and an unreadable verdict as gaps instead of failing', async () => {
    const input = reportInput(await loadDemo('001-raidz2-12disk'));
    const doc = reportDocument({ ...input, raw: null, optane: { verdict: 'maybe' }, benchmarks: [{ nonsense: true }] });
    expect(doc.rawOutputs).toEqual([]);
    expect(doc.optane).toBeNull();
    expect(doc.gaps.filter((g) => g.artifact === 'Report' || g.artifact === 'Benchmarks').map((g) => g.source)).toEqual(['raw outputs', 'Optane verdict', 'benchmark history']);
  });

  it('draws log, special, cache and spare classes as zpool status groups them', () => {
    const leaf = (cls: 'data' | 'log' | 'cache' | 'spare', name: string, state = 'ONLINE') => ({ class: cls, type: 'disk' as const, name, state, read: 0, write: 0, cksum: 0, note: null, children: [] });
    const text = vdevTreeText('tank', 'DEGRADED', [
      { ...leaf('data', 'mirror-0', 'DEGRADED'), type: 'mirror', children: [leaf('data', 'sda'), { ...leaf('data', 'sdb', 'FAULTED'), cksum: 12, note: 'too many errors' }] },
      leaf('log', 'nvme0n1'), leaf('cache', 'sdc'), leaf('spare', 'sdd', 'AVAIL'),
    ]);
    expect(text).toBe([
      'tank  DEGRADED',
      '├─ mirror-0  DEGRADED',
      '│  ├─ sda  ONLINE',
      '│  └─ sdb  FAULTED  errors r/w/c 0/0/12  too many errors',
      '├─ logs',
      '│  └─ nvme0n1  ONLINE',
      '├─ cache',
      '│  └─ sdc  ONLINE',
      '└─ spares',
      '   └─ sdd  AVAIL',
    ].join('\n'));
  });
});

describe('published JSON Schema', () => {
  it('report-schema.json is the generated schema (run `npx tsx server/src/report/schema.ts` when this fails)', () => {
    expect(readFileSync(REPORT_SCHEMA_FILE, 'utf8')).toBe(reportJsonSchemaText());
  });

  it('accepts a real report and rejects a wrong schema version (checked with ajv)', async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const ajv = new Ajv2020({ strict: false });
    const validate = ajv.compile(JSON.parse(readFileSync(REPORT_SCHEMA_FILE, 'utf8')) as object);
    const doc = reportDocument(reportInput(await loadDemo('000-hdd-mirror-optane'), benchHistory()));
    const json = JSON.parse(JSON.stringify(doc)) as Record<string, unknown>;
    expect(validate(json), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(validate({ ...json, reportSchemaVersion: 99 })).toBe(false);
  });
});
