/**
 * Issue 34 §3: a buying card that cannot contradict itself. The demos go through the real
 * pipeline (bundled snapshot → assess() → buildOptaneVerdict), as `optane --demo NAME` does.
 */
import { describe, expect, it } from 'vitest';
import { assess } from '../../server/src/assess/assess.ts';
import { loadInventory } from '../../server/src/gather/load.ts';
import { OptaneVerdict, buildOptaneVerdict } from '../../server/src/optane/verdict.ts';
import { compareSuites } from '../../server/src/bench/compare.ts';
import { demoSuites } from '../../server/src/bench/demo-suite.ts';
import { formatGain } from '../../server/src/text/format.ts';
import { purchaseOptions, rankPurchase, SAME_GAIN, type PurchaseOption } from '../../server/src/forecast/slog-choice.ts';
import { findEntry, type PriceSource } from '../../server/src/forecast/catalog.ts';
import { main } from '../../server/src/cli/main.ts';
import { priceWords } from '../../server/src/optane/verdict.ts';
import { runRules } from '../../rules/engine/engine.ts';
import { ALL_RULES } from '../../rules/index.ts';
import type { Artifacts } from '../../server/src/model/artifacts.ts';
import type { BenchmarkSummary } from '../../server/src/model/workload.ts';
import { artifacts000, da1, da3, workload } from '../fixtures/rules/slog-fixtures.ts';
import { dataset, drive, host } from '../support/builders.ts';
import { narrowVerdict } from '../../ui/src/optane/verdict-view.ts';
import type { OptaneVerdictView } from '../../server/src/api/contract.ts';

const demo = async (name: '000-hdd-mirror-optane' | '001-raidz2-12disk', extra: Partial<Artifacts> = {}) => {
  const l = await loadInventory({ demo: true, demoName: name });
  const v = assess(l.inventory, extra, new Date('2026-01-01T00:00:00Z')).optane;
  OptaneVerdict.parse(v);
  return v;
};
const verdict = (a: Artifacts) => {
  const v = buildOptaneVerdict(a, runRules(ALL_RULES, a, new Date('2026-01-01T00:00:00Z')));
  OptaneVerdict.parse(v);
  return v;
};
const probe = (pool: string, iops: number, cpuUsPerIo?: number): BenchmarkSummary => ({
  id: 'p1', profile: 'sync-write-4k-qd1', pool, target: `${pool}/zfs-advisor-bench`, startedAt: '2026-01-02T00:00:00Z', status: 'completed',
  syncMode: 'property', iodepth: 1, blockSize: 4096, readIops: 0, writeIops: iops, readBytesPerSec: 0, writeBytesPerSec: iops * 4096,
  writeLatency: null, readLatency: null, wallSeconds: 30, fioRuntimeSeconds: 30, wallTimeMismatch: false, topologyFingerprint: null, notes: [],
  ...(cpuUsPerIo ? { cpuUsPerIo } : {}),
}) as BenchmarkSummary;
/** A published price for tests (the catalog's own P4800X figure, at another amount). */
const priced = (usd: number): PriceSource => ({ usd, capacityGb: 400, kind: 'retail', date: '2025-01-02', url: 'https://example.org/listing', quote: `listed at $${usd}` });
/** The same forecast under another catalog entry: only what the test changes differs. */
const withEntry = (o: PurchaseOption, patch: Partial<PurchaseOption['entry']>): PurchaseOption => ({ ...o, entry: { ...o.entry, ...patch } });
/** Every ratio the page prints: the table's two gains. */
const pageRatios = (v: OptaneVerdict) => [v.expected!.qd1, v.expected!.qd16].map((e) => e.withOptane.iops / e.now.iops);

describe('buying card (issue 34 §3)', () => {
  it('demo 001: a current PLP NVMe forecast equal to Optane is said to do as well, never "below Optane\'s"', async () => {
    const v = await demo('001-raidz2-12disk');
    const text = v.purchase.map((p) => p.why).join(' ');
    // The newcomer's case: ~11,749 for both, printed "below Optane's". Sustained the figures are
    // equal (the pool's ceiling binds); per write the forecast ranges overlap: "within the range", never "below".
    expect(text).toContain('at QD16 ~11,749 vs ~11,749 sync IOPS');
    expect(text).toContain('within the forecast\'s range of Optane on this pool (per write at QD1 ~100× vs Optane\'s ~124×');
    expect(text).not.toContain('below Optane');
    expect(v.reasons.find((r) => r.startsWith('A current PLP NVMe does as well as Optane on storage'))).toBeDefined();
    // Ranked: Optane's per-write gain first; the PLP NVMe tie, so endurance (unknown last) and a measured latency before a class estimate decide.
    expect(v.purchase.map((p) => p.product)).toEqual([
      'Intel Optane SSD P1600X 118GB (SSDPEK1A118GA)', 'Samsung PM9A3 (current alternative)', 'Micron 7450 PRO / MAX (current alternative)', 'Intel/Solidigm D7-P5520 / P5620 (current alternative)',
    ]);
    // Every device line carries its gain and range at QD1 and QD16.
    for (const p of v.purchase) expect(p.why).toMatch(/at QD1 [\d.]+× \([\d.]+–[\d.]+×\) faster per write, .*; at QD16 ~[\d,]+ sync IOPS, gain [\d.]+× \([\d.]+–[\d.]+×\)/);
  });

  it('demo 001: no mirrored pair without a reason — one device, saying when to mirror, and the layout adds one device', async () => {
    const v = await demo('001-raidz2-12disk');
    expect(v.purchase.some((p) => p.product.startsWith('Second'))).toBe(false);
    expect(v.layout.commands).toEqual(['zpool add -n storage log /dev/<new-optane-1>', 'zpool add storage log /dev/<new-optane-1>']);
    const layout = v.reasons.find((r) => r.startsWith('Layout: one device'));
    expect(layout).toContain('docs/kb/slog.md#one-device-or-a-mirror');
  });

  it('demo 001: the headline gain is a range (the "now" is a model estimate, its disks\' own range carried), not the table\'s point ratio', async () => {
    const v = await demo('001-raidz2-12disk');
    expect(v.headlineGain?.kind).toBe('range');
    expect(v.headlineGain!.low).toBeLessThan(v.headlineGain!.high);
    expect(v.headline).toMatch(/expect [\d.]+–\d+× faster per write at QD1 \(forecast range; "now" is a model estimate until measured; sustained, storage's data vdevs cap it at ~11,749 sync IOPS, [\d.]+–\d+× over now\)/);
    // Carrying the disks' range never makes a SLOG slower than none where one ceiling holds both sides (QD16).
    for (const p of v.purchase) expect(p.why).toMatch(/at QD16 ~11,749 sync IOPS, gain 12× \((1\.\d+)–\d+×\)/);
    expect(v.headline).not.toContain(formatGain(Math.round(Math.max(...pageRatios(v)) * 10) / 10));
  });

  it('demo 001 with a PLP NVMe in the box and sync=always, nothing measured: its range across the disks\' own range straddles 3×, so measure the pool first; a slow probe then says yes, a 0.5 ms one no', async () => {
    const l = await loadInventory({ demo: true, demoName: '001-raidz2-12disk' });
    const pm9a3 = drive('nvme-SAMSUNG_MZQL23T8HCLS-00A07_S64HNE0R100001', {
      devPath: '/dev/nvd0', aliases: ['/dev/nvd0'], byIdPath: null, model: 'SAMSUNG MZQL23T8HCLS-00A07', serial: 'S64HNE0R100001', sizeBytes: 3.84e12,
      rotational: false, rpm: null, media: 'nvme', transport: 'nvme',
    });
    const extra = (more: Partial<Artifacts> = {}) => ({ Drives: [...l.inventory.drives, pm9a3], Datasets: [dataset('storage', { sync: 'always' })], ...more });
    const v = assess(l.inventory, extra(), new Date('2026-01-01T00:00:00Z')).optane;
    expect(v.verdict).toBe('depends');
    expect(v.decisive).toMatch(/^sync-write latency of storage not measured: on hard disk a sync write takes from 0\.\d+ ms \(disks or a controller that acknowledge flushes from their cache\) to \d+ ms, so \/dev\/nvd0 \(.*\)'s forecast gain [\d.]+–\d+× straddles the 3× threshold; measure it with `zfs-advisor bench sync-write-4k-qd1 --pool storage`$/);
    expect(v.headline).toBe(`Measure first: ${v.decisive}.`);
    // After the probe "now" is the measurement: the range is the "with" side's alone, and the measured number decides.
    const slow = assess(l.inventory, extra({ Benchmarks: [probe('storage', 118)] }), new Date('2026-01-01T00:00:00Z')).optane;
    expect([slow.verdict, slow.decisive]).toEqual(['yes', 'measured 118 sync writes/s, 8.5 ms each on hard disk']);
    const fast = assess(l.inventory, extra({ Benchmarks: [probe('storage', 2000)] }), new Date('2026-01-01T00:00:00Z')).optane;
    expect([fast.verdict, fast.decisive]).toEqual(['no', 'measured 2,000 sync writes/s, 0.50 ms each on hard disk: already fast']);
  });

  it('demo 000: the headline leads with the measured 43.9× (the source\'s before/after, as on the Benchmarks page), not the model\'s ~110×', async () => {
    const v = await demo('000-hdd-mirror-optane');
    const bench = compareSuites(demoSuites().before, demoSuites().after).rows[0]!;
    expect(v.headlineGain).toMatchObject({ kind: 'measured-pair', iodepth: 16, value: bench.iopsRatio });
    expect(v.headline).toContain(`${formatGain(bench.iopsRatio)} faster at QD16, measured before and after on a pool of the same shape (894 → 39,200 sync IOPS`);
    expect(v.headline).toContain('https://austinsnerdythings.com/?p=5512');
    expect(v.headline).not.toMatch(/~1\d\d×/);
    // Never the largest ratio on the page.
    expect(v.headlineGain!.value!).toBeLessThan(Math.max(...pageRatios(v)));
  });

  it('a probe on the pool: the headline gain rests on it (a range over the measured figure)', async () => {
    const v = await demo('000-hdd-mirror-optane', { Benchmarks: [probe('bench-pool', 88)] });
    expect(v.verdict).not.toBe('no');
    expect(v.headlineGain?.kind).toBe('probe');
    expect(v.headlineGain!.text).toContain('over the measured 88 sync writes/s');
  });

  it('newcomer: a slow probe the log device barely helps (host CPU bound): "depends", and nothing to buy, no layout, no mirrored pair', async () => {
    const v = await demo('001-raidz2-12disk', { Benchmarks: [probe('storage', 1000, 900)] });
    expect(v.verdict).toBe('depends');
    expect(v.decisive).toMatch(/^measured 1,000 sync writes\/s, 1\.0 ms each on hard disk, but .* is only ~1\.\d\d× faster per write$/);
    expect(v.purchase).toEqual([]);
    expect(v.candidates).toEqual([]);
    expect(v.layout.commands).toEqual([]);
    expect(v.headlineGain).toBeNull();
  });

  it('a pool of zvols (VM disks): a mirror, with the rule\'s reason; the second device is listed to buy', () => {
    const zv = dataset('bench-pool/vm-100-disk-0', { type: 'volume' });
    const v = verdict({ ...artifacts000({ Workload: workload('bench-pool', 300) }), Drives: [da1, da3], Host: host('2.2.6'), Datasets: [dataset('bench-pool'), zv] });
    expect(v.verdict).toBe('yes');
    expect(v.purchase[1]?.product).toBe('Second Intel Optane SSD P1600X 118GB (SSDPEK1A118GA)');
    expect(v.purchase[1]?.why).toContain('holds zvols (bench-pool/vm-100-disk-0: VM disks or iSCSI LUNs)');
    expect(v.purchase[1]?.why).toContain('docs/kb/slog.md#one-device-or-a-mirror');
    expect(v.layout.commands[0]).toBe('zpool add -n bench-pool log mirror /dev/disk/by-id/<new-optane-1> /dev/disk/by-id/<new-optane-2>');
  });

  it('the ranking: gain first (within 5 % equal), then PLP, endurance, in production', async () => {
    const l = await loadInventory({ demo: true, demoName: '000-hdd-mirror-optane' });
    const a: Artifacts = { ...assess(l.inventory).artifacts, Drives: [da1, da3] };
    const opts = purchaseOptions(a, a.Pools![0]!, {});
    expect(opts.length).toBeGreaterThan(1);
    for (let i = 1; i < opts.length; i++) {
      const [x, y] = [opts[i - 1]!, opts[i]!];
      // A later option never forecasts clearly more than an earlier one.
      expect(y.gainQd1.gain).toBeLessThanOrEqual(x.gainQd1.gain * (1 + SAME_GAIN) + 1e-9);
    }
    // On the 000 mirror Optane's published 13.7k at QD1 beats a PLP NVMe's ~30 µs flush: Optane ranks first, and the card says by how much.
    expect(opts[0]!.entry.id).toBe('optane-p1600x');
  });

  it('the card keeps the headline gain the API sends, and drops a malformed one', async () => {
    const v = await demo('000-hdd-mirror-optane');
    const sent = JSON.parse(JSON.stringify(v)) as OptaneVerdictView;
    expect(narrowVerdict(sent).headlineGain).toEqual(v.headlineGain);
    expect(narrowVerdict({ ...sent, headlineGain: { kind: 'largest', low: 1, high: 2, iodepth: 1, text: 'x', value: null } }).headlineGain).toBeNull();
  });

  describe('price class: the last tie-break (issue 34 §3: gain, PLP, endurance, in production, price class)', async () => {
    const l = await loadInventory({ demo: true, demoName: '001-raidz2-12disk' });
    const a = assess(l.inventory).artifacts;
    const opts = purchaseOptions(a, a.Pools![0]!, {});
    const optane = opts.find((o) => o.entry.id === 'optane-p1600x')!;
    const nvme = opts.find((o) => o.entry.id === 'samsung-pm9a3')!;
    const names = (xs: PurchaseOption[]) => xs.map((o) => o.entry.product);

    it.each([
      // [label, first, second]: `first` must rank before `second` whatever order they come in.
      ['a pair that differs only in price class: low before high', { product: 'Z cheap', price: priced(120) }, { product: 'A dear', price: priced(900) }],
      ['mid before high', { product: 'Z mid', price: priced(300) }, { product: 'A high', price: priced(501) }],
      ['a published price before none (null)', { product: 'Z priced', price: priced(900) }, { product: 'A unknown', price: null }],
      ['a published price before none (absent)', { product: 'Z priced', price: priced(900) }, { product: 'A unknown', price: undefined }],
      ['in production before discontinued, whatever the price', { product: 'Z new', status: 'in-production' as const, price: priced(900) }, { product: 'A old', status: 'discontinued' as const, price: priced(100) }],
      ['endurance before price', { product: 'Z durable', endurance: { ...nvme.entry.endurance, dwpd: 3 }, price: priced(900) }, { product: 'A cheap', endurance: { ...nvme.entry.endurance, dwpd: 1 }, price: priced(100) }],
      ['power-loss protection before price', { product: 'Z safe', plp: 'capacitor' as const, price: priced(900) }, { product: 'A cheap', plp: 'none' as const, price: priced(100) }],
    ])('%s', (_label, first, second) => {
      const x = withEntry(nvme, first); const y = withEntry(nvme, second);
      expect(names(rankPurchase([y, x]))).toEqual([first.product, second.product]);
      expect(names(rankPurchase([x, y]))).toEqual([first.product, second.product]);
    });

    it('a clearly higher forecast gain outranks a cheaper device (price never reorders gains)', () => {
      expect(optane.gainQd1.gain).toBeGreaterThan(nvme.gainQd1.gain * (1 + SAME_GAIN));
      const dearOptane = withEntry(optane, { price: priced(2000) }); const cheapNvme = withEntry(nvme, { price: priced(50) });
      expect(rankPurchase([cheapNvme, dearOptane])[0]!.entry.id).toBe('optane-p1600x');
    });

    it('within SAME_GAIN the cheaper of two equal forecasts ranks first', () => {
      const slower = { ...nvme, gainQd1: { ...nvme.gainQd1, gain: nvme.gainQd1.gain * (1 - SAME_GAIN / 2) } };
      const ranked = rankPurchase([withEntry(nvme, { product: 'A dear', price: priced(900) }), withEntry(slower, { product: 'Z cheap', price: priced(100) })]);
      expect(names(ranked)).toEqual(['Z cheap', 'A dear']);
    });
  });

  it('the card words each device\'s price class with its source where there is one, and says once that none of these has one (demo 001: no buyable entry has a published price)', async () => {
    const v = await demo('001-raidz2-12disk');
    expect(v.purchase).toHaveLength(4);
    for (const p of v.purchase) expect(p.why).not.toMatch(/price/i);
    expect(v.reasons.find((r) => r.startsWith('To buy, best first'))).toContain('then price class (one unit: low up to $150, mid up to $500, high above; no published price last); none of these has a published price in our catalog, so price does not order them.');
    expect(v.reasons.join(' ')).not.toContain('the catalog holds no prices');
  });

  it('a priced discontinued part: its class, the price, a link to the source and its date; bought used today at a street price not known', () => {
    expect(priceWords(findEntry('INTEL SSDPED1K375GA')!)).toBe('Price class high: $1,520 for 375 GB, launch price ([gamersnexus.net](http://gamersnexus.net/news-pc/2845-intel-optane-dc-p4800x-ssd), 2017-03); discontinued, so bought used or new-old-stock today at a street price we do not know');
    expect(priceWords(findEntry('Intel Optane SSD 900P')!)).toMatch(/^Price class mid: \$350 for 280 GB, price a buyer reported \(\[github\.com\]\(https:\/\/github\.com\/openzfs\/zfs\/issues\/1012\), 2018-03-17\); discontinued/);
    // In production: no "bought used" clause.
    expect(priceWords({ ...findEntry('Micron 7450 PRO')!, price: priced(120) })).toBe('Price class low: $120 for 400 GB, retail price ([example.org](https://example.org/listing), 2025-01-02)');
    // No published price: nothing on the line (the card's reasons say it once).
    expect(priceWords(findEntry('Micron 7450 PRO')!)).toBeNull();
  });

  it('`optane --demo 001-raidz2-12disk` prints the same price words the server model holds', async () => {
    let out = '';
    const io = { stdout: (s: string) => { out += s; }, stderr: () => {}, stdin: async () => '', isTTY: false };
    expect(await main(['optane', '--demo', '001-raidz2-12disk'], io)).toBe(0);
    expect(out).not.toMatch(/Price (not known|class)/);
    expect(out.match(/none of these has a published price in our catalog/g)).toHaveLength(1);
    expect(out).toContain('then price class (one unit: low up to $150');
  });
});
