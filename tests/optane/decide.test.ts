import { describe, expect, it } from 'vitest';
import { decide, type DecisionEvidence } from '../../server/src/optane/decide.ts';

const HDD = { label: 'hard disk', known: true, typicalUs: 12000 };
const PLP = { label: 'NVMe with power-loss protection', known: true, typicalUs: 30 };
const OPTANE = { label: 'Optane (data-centre)', known: true, typicalUs: 10 };
const CONSUMER = { label: 'consumer-grade SSD (no capacitor PLP)', known: true, typicalUs: 1500 };
const VIRTUAL = { label: 'virtual disk or LUN (latency unknown: measure it)', known: false, typicalUs: 2000 };
const PROBE = 'zfs-advisor bench sync-write-4k-qd1 --pool tank';

const base: DecisionEvidence = {
  pool: 'tank', demand: 'configured', commitsPerSec: null, commitsMatter: true, measuredQd1Iops: null, observed: null,
  zilHome: 'data', zilClass: HDD, zilOnOptane: false, candidate: { label: 'Intel Optane SSD P1600X', latencySource: 'catalog' },
  gain: 40, gainRange: null, probe: PROBE,
};
const e = (x: Partial<DecisionEvidence>): DecisionEvidence => ({ ...base, ...x });

// evidence → verdict → decisive fact (exact)
const table: [string, DecisionEvidence, string, string][] = [
  ['issue 34: probe 88 IOPS on file-backed raidz1, forecast gain only 2× (ceiling) — never "no"',
    e({ measuredQd1Iops: 88, zilClass: { label: 'unknown device', known: false, typicalUs: 2000 }, gain: 2 }), 'depends',
    'measured 88 sync writes/s, 11 ms each on unknown device, but Intel Optane SSD P1600X is only ~2.0× faster per write'],
  ['probe 88 IOPS on hard disks, sync configured, gain 40×', e({ measuredQd1Iops: 88 }), 'yes', 'measured 88 sync writes/s, 11 ms each on hard disk'],
  ['probe 125 IOPS on hard disks: 8 ms, not the class 12 ms', e({ measuredQd1Iops: 125, demand: 'observed' }), 'yes', 'measured 125 sync writes/s, 8.0 ms each on hard disk'],
  ['probe 13,700 IOPS on a pool with Optane SLOG: already fast', e({ measuredQd1Iops: 13_700, zilHome: 'log', zilClass: OPTANE, gain: 1 }), 'no',
    'measured 13,700 sync writes/s, 73 µs each on Optane (data-centre): already fast'],
  ['probe slow, SLOG on consumer SSD, Optane 20× faster: replace', e({ measuredQd1Iops: 600, zilHome: 'log', zilClass: CONSUMER, gain: 20 }), 'replace',
    'measured 600 sync writes/s, 1.7 ms each on consumer-grade SSD (no capacitor PLP); Intel Optane SSD P1600X ~20× faster'],
  ['probe slow but no sync evidence at all: depends, observe', e({ measuredQd1Iops: 88, demand: 'unknown' }), 'depends',
    'measured 88 sync writes/s, 11 ms each on hard disk; whether tank receives sync writes is not known'],
  ['observation p50 9 ms, nothing probed: yes from the observation', e({ demand: 'observed', observed: { p50Ms: 9, syncWriteIops: 300 } }), 'yes',
    'observed sync writes (300/s) waiting 9.0 ms (p50) on hard disk'],
  ['observation says no sync writes: no, gain exactly 1', e({ demand: 'none-observed', observed: null }), 'no', 'observed 0 sync writes/s: no sync writes to speed up'],
  ['counters at a negligible rate: no', e({ demand: 'counters', commitsPerSec: 0.001, commitsMatter: false }), 'no', '0.001 ZIL commits/s since boot: no sync writes to speed up'],
  ['nothing measured, ZIL on Optane SLOG: no', e({ zilHome: 'log', zilClass: OPTANE, zilOnOptane: true, gain: 1.1 }), 'no', 'the ZIL already lands on Optane (data-centre)'],
  ['nothing measured, all-flash PLP NVMe: already fast from the known class', e({ zilClass: PLP, gain: 1.5 }), 'no',
    'the ZIL lands on NVMe with power-loss protection (~30 µs per flushed write, class figure): already fast'],
  ['nothing measured, hard disks, candidate consumer SSD only 2×: no because of the gain, not "already fast"', e({ gain: 2, candidate: { label: 'Samsung 990 Pro', latencySource: 'class' } }), 'no',
    'Samsung 990 Pro would be only ~2.0× faster per write than hard disk (threshold 3×)'],
  ['nothing measured, hard disks, sync=always: yes from the class', e({}), 'yes', 'the ZIL lands on hard disk (~12 ms per flushed write, class figure)'],
  ['nothing measured, hard disks, no sync evidence: depends', e({ demand: 'unknown' }), 'depends', 'no sync-write evidence for tank (the ZIL lands on hard disk (~12 ms per flushed write, class figure))'],
  ['virtual disks, nothing measured: measure first, no guess', e({ zilClass: VIRTUAL, gain: 6 }), 'depends',
    `sync-write latency of tank unknown (virtual disk or LUN (latency unknown: measure it)): measure it with \`${PROBE}\``],
  ['devices not identified, nothing measured: measure first', e({ zilClass: null }), 'depends', `sync-write latency of tank unknown (devices not identified): measure it with \`${PROBE}\``],
  // The gain range (issue 34 §3): nothing is bought when even its upper end is below 1.3×; a range across 3× does not decide.
  ['hard disks, gain range 1.03–1.26×: no, nothing to buy, with the range', e({ gain: 1.1, gainRange: { low: 1.03, high: 1.26 } }), 'no',
    'Intel Optane SSD P1600X would be at most ~1.26× faster per write than hard disk (forecast gain 1.03–1.26×, below 1.3×)'],
  ['probe slow but gain range 1.0–1.2× (host-bound): depends, never "no", nothing to buy', e({ measuredQd1Iops: 88, gain: 1.1, gainRange: { low: 1, high: 1.2 } }), 'depends',
    'measured 88 sync writes/s, 11 ms each on hard disk, but Intel Optane SSD P1600X would be at most ~1.20× faster per write (forecast gain 1.00–1.20×, below 1.3×)'],
  ['hard disks, point gain 4× but range 2.1–6.0× straddles 3×: depends, measure the pool first', e({ gain: 4, gainRange: { low: 2.1, high: 6 } }), 'depends',
    "Intel Optane SSD P1600X's forecast gain 2.1–6.0× straddles the 3× threshold (the ZIL lands on hard disk (~12 ms per flushed write, class figure))"],
  ['hard disks, point gain 2× but range up to 3.5×: depends (not "no")', e({ gain: 2, gainRange: { low: 1.5, high: 3.5 } }), 'depends',
    "Intel Optane SSD P1600X's forecast gain 1.50–3.5× straddles the 3× threshold (the ZIL lands on hard disk (~12 ms per flushed write, class figure))"],
  ['probe slow, range 2.5–9× straddles 3×: depends, with the candidate\'s device test', e({ measuredQd1Iops: 300, gain: 5, gainRange: { low: 2.5, high: 9 }, candidate: { label: '/dev/nvme1n1 (Micron 7450)', latencySource: 'catalog', probe: 'zfs-advisor bench sync-write-4k-qd1 --device /dev/nvme1n1 --confirm-serial SERIAL' } }), 'depends',
    "measured 300 sync writes/s, 3.3 ms each on hard disk, but /dev/nvme1n1 (Micron 7450)'s forecast gain 2.5–9.0× straddles the 3× threshold"],
  ['hard disks, range 30–120× wholly above 3×: yes, as before', e({ gainRange: { low: 30, high: 120 } }), 'yes', 'the ZIL lands on hard disk (~12 ms per flushed write, class figure)'],
  // "Now" a model estimate (nothing measured): the gain range carries the class's own range (forecast.ts gainSpread). A
  // hard-disk pool whose disks may acknowledge flushes from cache (clemtibs: 0.43–0.6 ms, a SLOG gained ~1.1×) is measured first.
  ['model-only hard disks, a PLP NVMe candidate, range 2.6–368× across the disks\' own range: depends, measure the pool first, the class and why', e({ gain: 100, gainRange: { low: 2.6, high: 368 }, nowRange: { fastMs: 0.46, slowMs: 17.5 }, zilClass: { ...HDD, cls: 'hdd' }, candidate: { label: 'Samsung PM9A3', latencySource: 'catalog' } }), 'depends',
    `sync-write latency of tank not measured: on hard disk a sync write takes from 0.46 ms (disks or a controller that acknowledge flushes from their cache) to 18 ms, so Samsung PM9A3's forecast gain 2.6–368× straddles the 3× threshold; measure it with \`${PROBE}\``],
  ['model-only hard disks, Optane beats even the cached end 3× (range 3.2–458×): yes from the class, as before', e({ gain: 124, gainRange: { low: 3.2, high: 458 }, nowRange: { fastMs: 0.46, slowMs: 17.5 }, zilClass: { ...HDD, cls: 'hdd' } }), 'yes',
    'the ZIL lands on hard disk (~12 ms per flushed write, class figure)'],
  ['the same pool after a slow probe (125 IOPS, 8 ms): the range is the "with" side\'s only, yes with the measured number', e({ measuredQd1Iops: 125, gain: 117, gainRange: { low: 78, high: 288 }, nowRange: null, zilClass: { ...HDD, cls: 'hdd' } }), 'yes',
    'measured 125 sync writes/s, 8.0 ms each on hard disk'],
  ['the same pool after a fast probe (2,000 IOPS, 0.5 ms: flushes acknowledged from cache): no, already fast', e({ measuredQd1Iops: 2000, gain: 7.3, gainRange: { low: 4.9, high: 18 }, nowRange: null, zilClass: { ...HDD, cls: 'hdd' } }), 'no',
    'measured 2,000 sync writes/s, 0.50 ms each on hard disk: already fast'],
  ['probe 0.6 ms on hard disks, candidate a consumer NVMe (clemtibs\' own SLOG): depends, nothing to buy, never "no"', e({ measuredQd1Iops: 1667, gain: 0.5, gainRange: { low: 0.25, high: 1.1 }, nowRange: null, zilClass: { ...HDD, cls: 'hdd' }, candidate: { label: 'Samsung 970 EVO Plus', latencySource: 'catalog' } }), 'depends',
    'measured 1,667 sync writes/s, 0.60 ms each on hard disk, but Samsung 970 EVO Plus would be at most ~1.10× faster per write (forecast gain 0.25–1.10×, below 1.3×)'],
  ['model-only consumer SSD ZIL, range across 3×: measure first with the class\'s ends (no hard-disk reason)', e({ zilClass: CONSUMER, gain: 20, gainRange: { low: 2.5, high: 60 }, nowRange: { fastMs: 0.52, slowMs: 2.6 } }), 'depends',
    `sync-write latency of tank not measured: on consumer-grade SSD (no capacitor PLP) a sync write takes from 0.52 ms to 2.6 ms, so Intel Optane SSD P1600X's forecast gain 2.5–60× straddles the 3× threshold; measure it with \`${PROBE}\``],
  ['virtual disks but probed slow: yes from the probe', e({ zilClass: VIRTUAL, measuredQd1Iops: 200, gain: 30 }), 'yes',
    'measured 200 sync writes/s, 5.0 ms each on virtual disk or LUN (latency unknown: measure it)'],
];

describe('decide: evidence → verdict → decisive fact', () => {
  it.each(table)('%s', (_name, ev, verdict, fact) => {
    const d = decide(ev);
    expect(d.verdict).toBe(verdict);
    expect(d.fact).toBe(fact);
  });

  it('never "already fast" unless measured (else the known class) latency is low', () => {
    for (const [, ev] of table) {
      const d = decide(ev);
      if (!/already fast/.test(d.fact)) continue;
      const measuredMs = ev.measuredQd1Iops ? 1000 / ev.measuredQd1Iops : ev.observed?.p50Ms ?? null;
      if (measuredMs !== null) expect(measuredMs).toBeLessThanOrEqual(0.5);
      else expect(ev.zilClass?.known && ev.zilClass.typicalUs <= 500).toBe(true);
    }
  });

  it('a measured slow probe is never "no", whatever the forecast gain', () => {
    for (const gain of [0.5, 1, 1.03, 2, 2.9, 3, 40]) {
      for (const demand of ['observed', 'counters', 'configured', 'unknown'] as const) {
        expect(decide(e({ measuredQd1Iops: 88, gain, demand })).verdict).not.toBe('no');
      }
    }
  });

  it('a device is proposed only when the decision allows it: never on "no", never when the range stays below 1.3× (or wholly under 3×)', () => {
    for (const [, ev, verdict] of table) {
      const d = decide(ev);
      const range = ev.gainRange ?? { low: ev.gain, high: ev.gain };
      if (verdict === 'no' || range.high < 1.3 || (ev.measuredQd1Iops !== null && range.high < 3)) expect(d.buy).toBe(false);
      else expect(d.buy).toBe(true);
    }
    expect(decide(e({ measuredQd1Iops: 300, gain: 5, gainRange: { low: 2.5, high: 9 }, candidate: { label: 'x', latencySource: 'catalog', probe: 'P' } })).measure).toBe('P');
    expect(decide(e({ gain: 4, gainRange: { low: 2.1, high: 6 } })).measure).toBe(PROBE);
  });

  it('async workload: no with gain exactly 1×; unknown latency asks for the probe command', () => {
    expect(decide(e({ demand: 'none-observed', gain: 40 })).gain).toBe(1);
    expect(decide(e({ zilClass: VIRTUAL })).measure).toBe(PROBE);
  });
});
