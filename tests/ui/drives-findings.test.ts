import { describe, expect, it } from 'vitest';
import { driveRows, filterRows, sortRows } from '../../ui/src/overview/drives-table.ts';
import { citationText, countBySeverity, evidenceText, groupFindings, safeUrl } from '../../ui/src/findings/group.ts';
import type { FindingView } from '../../server/src/api/contract.ts';
import { findings000, inventory000, inventory001 } from './fixtures.ts';

describe('drives table', () => {
  const inv = inventory000();
  const rows = driveRows(inv.drives, inv.pools);

  it('gives each drive its role, or "unused", and badges the Optane', () => {
    const byDev = Object.fromEntries(rows.map((r) => [r.drive.devPath, r]));
    expect(byDev['/dev/da1']!.roleText).toBe('bench-pool · data · mirror-0');
    expect(byDev['/dev/da3']!.roleText).toBe('bench-pool · data · mirror-0');
    expect(byDev['/dev/nvd1']!.roleText).toBe('unused');
    expect(byDev['/dev/nvd1']!.optane).toBe(true);
    expect(byDev['/dev/nvd1']!.kind).toBe('NVMe');
    expect(byDev['/dev/da1']!.optane).toBe(false);
    expect(byDev['/dev/da1']!.health).toBe('passed');
  });

  it('sorts by size both ways and keeps unknown values last', () => {
    expect(sortRows(rows, 'size', 'asc').map((r) => r.drive.devPath)).toEqual(['/dev/nvd1', '/dev/da1', '/dev/da3']);
    expect(sortRows(rows, 'size', 'desc').map((r) => r.drive.devPath)).toEqual(['/dev/da1', '/dev/da3', '/dev/nvd1']);
    // Only the Optane reports wear (0 %); the HDDs have none and stay last in both directions.
    expect(sortRows(rows, 'wear', 'desc')[0]!.drive.devPath).toBe('/dev/nvd1');
    expect(sortRows(rows, 'wear', 'asc')[0]!.drive.devPath).toBe('/dev/nvd1');
  });

  it('filters by text, type and use', () => {
    expect(filterRows(rows, { text: 'optane', kind: 'all', use: 'all' }).map((r) => r.drive.devPath)).toEqual(['/dev/nvd1']);
    expect(filterRows(rows, { text: '', kind: 'HDD', use: 'all' }).length).toBe(2);
    expect(filterRows(rows, { text: '', kind: 'all', use: 'unused' }).map((r) => r.drive.devPath)).toEqual(['/dev/nvd1']);
    expect(filterRows(rows, { text: 'bench-pool', kind: 'all', use: 'in-pool' }).length).toBe(2);
  });

  it('sorts device names naturally (da2 before da10) on the 12-disk raidz2', () => {
    const inv1 = inventory001();
    const names = sortRows(driveRows(inv1.drives, inv1.pools), 'name', 'asc').map((r) => r.name);
    expect(names.slice(0, 3)).toEqual(['/dev/da0', '/dev/da1', '/dev/da2']);
    expect(names.at(-1)).toBe('/dev/da11');
    expect(driveRows(inv1.drives, inv1.pools).every((r) => r.roleText === 'storage · data · raidz2-0')).toBe(true);
  });
});

describe('findings grouping', () => {
  const list = findings000().findings;

  it('groups by severity then pool, rule ids in order', () => {
    const g = groupFindings(list, { showDismissed: false });
    expect(g.map((x) => x.severity)).toEqual(['suggestion']);
    expect(g[0]!.pools.map((p) => p.pool)).toEqual(['bench-pool']);
    expect(g[0]!.pools[0]!.findings.map((f) => f.ruleId)).toEqual(['recordsize-too-small', 'slog-benefit']);
  });

  it('hides dismissed findings unless asked, and orders host-wide groups last', () => {
    const dismissed: FindingView = { ...list[0]!, ack: { state: 'dismissed', note: null, createdAt: '2026-01-01T00:00:00Z' } };
    const hostWide: FindingView = { ...list[1]!, severity: 'warning', subject: { kind: 'drive', id: 'x', pool: null }, fingerprint: 'h1' };
    const poolWarn: FindingView = { ...list[1]!, severity: 'warning', fingerprint: 'p1' };
    const all = [dismissed, list[1]!, hostWide, poolWarn];
    const g = groupFindings(all, { showDismissed: false });
    expect(g.map((x) => [x.severity, x.count])).toEqual([['warning', 2], ['suggestion', 1]]);
    expect(g[0]!.pools.map((p) => p.pool)).toEqual(['bench-pool', null]);
    expect(groupFindings(all, { showDismissed: true }).find((x) => x.severity === 'suggestion')!.count).toBe(2);
    expect(countBySeverity(all)).toEqual({ critical: 0, warning: 2, suggestion: 1, info: 0 });
  });

  it('renders evidence, citations and only http(s) links', () => {
    expect(evidenceText(12, '%')).toBe('12 %');
    expect(evidenceText(true, null)).toBe('yes');
    expect(evidenceText(null, 'ms')).toBe('—');
    expect(evidenceText(12000, 'µs')).toBe('12 ms');
    expect(citationText({ source: 'zfs-facts.md', locator: 'A3' })).toBe('zfs-facts.md § A3');
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('https://openzfs.github.io/openzfs-docs/')).toBe('https://openzfs.github.io/openzfs-docs/');
    const slog = list.find((f) => f.ruleId === 'slog-benefit')!;
    expect(slog.action?.reversible).toBe('yes');
    expect(slog.citations.length).toBeGreaterThan(0);
  });
});
