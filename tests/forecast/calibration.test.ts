/**
 * Each published calibration record is a test: the measured value must fall inside the range the
 * shipped model (DEFAULT_PARAMS, the catalog without the record's own measurement) forecasts for
 * it. The records the model misses are listed with the reason and must stay misses — if one
 * starts to fit, or another starts to miss, this fails and the list (and BENCHMARKS.md) changes.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadCalibration, toScorable, type Scorable } from '../../server/src/forecast/calibration.ts';
import { fit, predict } from '../../server/src/forecast/fit.ts';
import { DEFAULT_PARAMS } from '../../server/src/forecast/model.ts';

const records = loadCalibration(join(import.meta.dirname, '..', 'fixtures', 'forecast', 'calibration'));
const scorable = records.map(toScorable).filter((s): s is Scorable => !('skip' in s));

const KNOWN_MISSES: Record<string, string> = {
  'clemtibs-raidz2-nospecial-noslog': '~8.7k O_SYNC IOPS on 5 HDDs without SLOG: far above any seek-bound ZIL (doubt noted in PROVENANCE.md)',
  'clemtibs-raidz2-special-noslog': 'same system as above',
  'clemtibs-draid-nospecial-noslog': 'same system as above',
  'clemtibs-draid-special-noslog': 'same system as above',
  'democsi251-noslog': '512-byte dd over NFS: 0.2 kB/s is network/NFS-bound, not the pool',
  'zilpmem-async-7t': '900k async IOPS with 7 threads on a 30-NVMe pool: above the host class estimate',
  'smartos847-1': 'NVMe pool of unnamed drives: class span PLP..consumer, measured at the PLP end with 32 jobs',
  'smartos847-2': 'same system as above',
};

describe('calibration set', () => {
  it('has ≥ 30 published records, each with a URL and a quote, and ≥ 30 scorable', () => {
    expect(records.length).toBeGreaterThanOrEqual(30);
    expect(scorable.length).toBeGreaterThanOrEqual(30);
    for (const r of records) { expect(r.source.url).toMatch(/^https?:\/\//); expect(r.source.quote.length).toBeGreaterThan(0); }
  });

  it('DEFAULT_PARAMS are what the fit on the whole set gives', () => {
    expect(fit(scorable)).toEqual(DEFAULT_PARAMS);
  });

  it('every known miss names a scorable record', () => {
    for (const id of Object.keys(KNOWN_MISSES)) expect(scorable.map((s) => s.record.id)).toContain(id);
  });

  for (const s of scorable) {
    const miss = KNOWN_MISSES[s.record.id];
    it(`${s.record.id} (${s.group}): measured ${Math.round(s.measured)} IOPS ${miss ? 'outside the range (known miss)' : 'inside the forecast range'}`, () => {
      const p = predict(s, DEFAULT_PARAMS);
      const inside = s.measured >= p.low && s.measured <= p.high;
      expect(inside, `${s.record.id}: ${p.low}–${p.high} (forecast ${p.iops})${miss ? `; known miss: ${miss}` : ''}`).toBe(!miss);
    });
  }
});
