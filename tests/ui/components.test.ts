// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { mount, RouterLinkStub } from '@vue/test-utils';
import DrivesTable from '../../ui/src/overview/DrivesTable.vue';
import PoolCard from '../../ui/src/overview/PoolCard.vue';
import FindingCard from '../../ui/src/findings/FindingCard.vue';
import VerdictCard from '../../ui/src/optane/VerdictCard.vue';
import { narrowVerdict } from '../../ui/src/optane/verdict-view.ts';
import { findings000, inventory000, inventory001, optane000 } from './fixtures.ts';

const stubs = { RouterLink: RouterLinkStub };

describe('DrivesTable', () => {
  it('sorts when a header is clicked and filters as the user types', async () => {
    const inv = inventory000();
    const w = mount(DrivesTable, { props: { drives: inv.drives, pools: inv.pools } });
    const firstCells = () => w.findAll('[data-testid="drive-row"]').map((r) => r.find('td').text());
    const sizeButton = w.findAll('th button').find((b) => b.text().startsWith('Size'))!;
    await sizeButton.trigger('click');
    expect(firstCells()).toEqual(['/dev/nvd1', '/dev/da1', '/dev/da3']);
    expect(w.findAll('th')[3]!.attributes('aria-sort')).toBe('ascending');
    await sizeButton.trigger('click');
    expect(firstCells()).toEqual(['/dev/da1', '/dev/da3', '/dev/nvd1']);
    await w.find('input[type="search"]').setValue('optane');
    expect(firstCells()).toEqual(['/dev/nvd1']);
    expect(w.text()).toContain('unused');
    expect(w.find('.badge.optane').text()).toBe('Optane');
  });
});

describe('PoolCard', () => {
  it('draws the vdev tree with the layout in words and the findings per severity', () => {
    const inv = inventory001();
    const w = mount(PoolCard, { props: { pool: inv.pools[0]!, findings: [] }, global: { stubs } });
    expect(w.find('.cls-data').text()).toContain('1 × RAIDZ2 | 12 wide | 43.5 TiB');
    expect(w.findAll('.node').length).toBe(13); // raidz2-0 + 12 disks
    expect(w.text()).toContain('ONLINE');
    const w0 = mount(PoolCard, { props: { pool: inventory000().pools[0]!, findings: findings000().findings }, global: { stubs } });
    expect(w0.text()).toContain('2 suggestions');
    expect(w0.text()).toContain('0 warnings');
  });
});

describe('FindingCard', () => {
  it('shows evidence, commands with copy buttons and reversibility, and emits dismiss', async () => {
    const f = findings000().findings.find((x) => x.ruleId === 'slog-benefit')!;
    const w = mount(FindingCard, { props: { finding: f, busy: false } });
    await w.find('button.toggle').trigger('click');
    expect(w.text()).toContain(f.title);
    expect(w.text()).toContain('Reversible');
    expect(w.findAll('.cmd').length).toBe(f.action!.commands.length);
    const dismiss = w.findAll('button').find((b) => b.text() === 'Dismiss')!;
    await dismiss.trigger('click');
    expect(w.emitted('ack')).toEqual([['dismissed']]);
    const acked = mount(FindingCard, { props: { finding: { ...f, ack: { state: 'dismissed', note: null, createdAt: 't' } }, busy: false } });
    expect(acked.find('[data-testid="ack-state"]').text()).toBe('dismissed');
    await acked.findAll('button').find((b) => b.text() === 'Restore')!.trigger('click');
    expect(acked.emitted('unack')).toHaveLength(1);
  });
});

describe('FindingCard: badges spaced, sources once (issue 38 §4)', () => {
  it('keeps a space after the Reversible badge and lists each cited page once', async () => {
    const f = findings000().findings.find((x) => x.action !== null)!;
    const url = 'https://openzfs.github.io/openzfs-docs/man/master/7/zfsprops.7.html';
    const citations = [
      { source: 'zfsprops(7)', locator: 'recordsize', url },
      { source: 'zfsprops(7)', locator: 'sync', url },
      { source: 'zfsprops(7)', locator: 'recordsize', url },
      { source: 'zfs-facts.md', locator: 'A3', url: null },
      { source: 'zfs-facts.md', locator: 'A3', url: null },
    ];
    const w = mount(FindingCard, { props: { finding: { ...f, action: { ...f.action!, reversible: 'yes' as const, reversibleWhy: 'recordsize can be set back.' }, citations }, busy: false } });
    await w.find('button.toggle').trigger('click');
    const badge = w.findAll('.badge').find((b) => b.text() === 'Reversible')!;
    expect(badge.element.parentElement!.textContent).toMatch(/^\s*Reversible recordsize can be set back\./);
    const sources = w.findAll('h4').find((h) => h.text() === 'Sources')!.element.nextElementSibling!;
    expect(Array.from(sources.querySelectorAll('li'), (li) => li.textContent!.trim())).toEqual(['zfsprops(7) § recordsize, sync', 'zfs-facts.md § A3']);
  });
});

describe('VerdictCard', () => {
  it('renders It depends with ranges, what to use and what it could not know', () => {
    const w = mount(VerdictCard, { props: { verdict: narrowVerdict(optane000()) }, global: { stubs } });
    expect(w.find('[data-testid="verdict-word"]').text()).toBe('It depends');
    const rows = w.findAll('tbody tr').map((r) => r.findAll('td').map((c) => c.text()));
    expect(rows).toEqual([
      ['QD1 (one writer)', '83 (66–248)', '20,000 (12,821–25,641)', '241×'],
      ['QD16 (many writers)', '894 (716–2,675)', '48,300 (38,600–58,000)', '54×'],
    ]);
    expect(w.text()).toContain('Intel Optane SSD P1600X 58GB');
    expect(w.text()).toContain('What it could not know');
    // The chart is a canvas (happy-dom has no 2D context, so chart.js only logs there); the table carries the numbers.
    expect(w.find('canvas').exists()).toBe(true);
  });
});

describe('DevicePicker (the Planner\'s device list)', () => {
  it('a drive in use shows its reason and cannot be ticked; a free one can', async () => {
    const { default: DevicePicker } = await import('../../ui/src/planner/DevicePicker.vue');
    const { deviceChoices } = await import('../../ui/src/planner/planner-view.ts');
    const { loadInventory } = await import('../../server/src/gather/load.ts');
    const { join } = await import('node:path');
    // The lab guest's capture (tests/fixtures/lab/2.4/in-use-devices): the ext4 root disk is mounted at /.
    const inv = (await loadInventory({ snapshot: join(import.meta.dirname, '..', 'fixtures', 'lab', '2.4', 'in-use-devices') })).inventory;
    let picked: string[] = [];
    const w = mount(DevicePicker, { props: { devices: deviceChoices(inv.drives, inv.pools), modelValue: picked, 'onUpdate:modelValue': (v: string[]) => { picked = v; void w.setProps({ modelValue: v }); } } });
    const root = w.findAll('[data-testid="in-use-device"]').find((l) => l.text().includes('virtio-LABROOT'))!;
    expect(root.text()).toContain('in use: system disk (mounted at /)');
    const box = root.find('input[type="checkbox"]');
    expect(box.attributes('disabled')).toBeDefined();
    expect((box.element as HTMLInputElement).value).toBe('on'); // no device path to submit
    await box.trigger('click');
    expect(picked).toEqual([]);
    expect(w.findAll('[data-testid="in-use-device"]').map((l) => l.find('[data-testid="in-use-why"]').text())).toEqual([
      '— in use: system disk (mounted at /)', '— in use: holds an ext4 signature', '— in use: partition table (1 partition)',
      '— in pool tank (data, mirror-0, virtio-ZD0001-part1)', '— in pool tank (data, mirror-0, virtio-ZD0002-part1)',
    ]);
    const free = w.findAll('[data-testid="add-device"]');
    expect(free.length).toBe(11);
    await free[0]!.setValue(true);
    expect(picked).toEqual(['/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_NV0001']);
  });
});

describe('DrivesTable: one idea of usable', () => {
  it('the mounted root disk reads "in use" with the reason, not "unused"', async () => {
    const { loadInventory } = await import('../../server/src/gather/load.ts');
    const { join } = await import('node:path');
    const inv = (await loadInventory({ snapshot: join(import.meta.dirname, '..', 'fixtures', 'lab', '2.4', 'in-use-devices') })).inventory;
    const w = mount(DrivesTable, { props: { drives: inv.drives, pools: inv.pools } });
    const row = w.findAll('[data-testid="drive-row"]').find((r) => r.text().includes('virtio-LABROOT'))!;
    expect(row.find('[data-testid="drive-roles"]').text()).toBe('in use: system disk (mounted at /)');
    await w.find('select[aria-label="Drive use"]').setValue('unused');
    expect(w.findAll('[data-testid="drive-row"]').map((r) => r.find('td').text())).not.toContain('virtio-LABROOT');
  });
});

describe('GuardList: a refusal says how to go on (issue 38 §3)', () => {
  it('shows the server\'s way forward under the refused load guard, none under a passed one', async () => {
    const { default: GuardList } = await import('../../ui/src/bench/GuardList.vue');
    const { evaluateGuards } = await import('../../server/src/bench/guards.ts');
    const guards = evaluateGuards({
      nameProblems: [], sizeBytes: 2 ** 30, runtimeS: 30, wallCapS: 150, load1: 5.88, maxLoad1: 4, lock: null,
      pool: null, poolError: null, path: null, device: null, deviceError: null, confirmSerial: null, limitsFrom: 'server',
    });
    const w = mount(GuardList, { props: { dry: { guards, commands: [] } as never } });
    const ways = w.findAll('[data-testid="guard-way-forward"]');
    expect(ways.length).toBe(1);
    expect(ways[0]!.text()).toContain('How to go on: Wait until the host is quieter');
    expect(ways[0]!.text()).toContain('benchmark.maxLoad1 (PATCH /api/settings');
    expect(ways[0]!.text()).toContain('serve --bench-max-load 7');
    expect(w.text()).toContain('1-minute load 5.88 is above the limit 4');
  });
});
