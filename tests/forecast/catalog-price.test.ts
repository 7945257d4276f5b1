/**
 * Issue 34 §3: the buying card ranks by price class, and a price class rests on one published
 * price (url, quote, date) in device-catalog.json — never a guessed number. The schema refuses a
 * price without its source; every device the purchase list can propose says its price or null.
 */
import { describe, expect, it } from 'vitest';
import { CATALOG, CatalogEntrySchema, PRICE_BANDS, PriceSource, currentPlpNvme, findEntry, priceClassOf } from '../../server/src/forecast/catalog.ts';
import { P1600X_MODEL } from '../../server/src/forecast/slog-choice.ts';

const full = { usd: 1520, capacityGb: 375, kind: 'launch-rcp', date: '2017-03', url: 'http://gamersnexus.net/news-pc/2845-intel-optane-dc-p4800x-ssd', quote: 'a 375GB PCIe 3.0 x4 NVMe HHHL device costing $1520' };
const entry = (price: unknown) => ({ ...findEntry('INTEL SSDPED1K375GA')!, price });

describe('device catalog prices', () => {
  it('a sourced price parses, in an entry too', () => {
    expect(PriceSource.safeParse(full).success).toBe(true);
    expect(CatalogEntrySchema.safeParse(entry(full)).success).toBe(true);
    expect(CatalogEntrySchema.safeParse(entry(null)).success).toBe(true);
  });

  it.each([
    ['no url', { url: undefined }],
    ['no quote', { quote: undefined }],
    ['no date', { date: undefined }],
    ['a url a reader cannot open', { url: 'anandtech review' }],
    ['a date that is not a date', { date: 'spring 2021' }],
    ['an empty quote', { quote: '' }],
    ['no capacity the price is for', { capacityGb: undefined }],
    ['a kind the catalog does not know', { kind: 'guess' }],
    ['a number that is not a price', { usd: 0 }],
    ['a class typed in instead of earned', { class: 'low' }],
  ])('refuses a price with %s', (_label, patch) => {
    const bad = { ...full, ...patch };
    expect(PriceSource.safeParse(bad).success).toBe(false);
    expect(CatalogEntrySchema.safeParse(entry(bad)).success).toBe(false);
  });

  it('every device the purchase list can propose carries a price key: a sourced price or null ("price not known")', () => {
    const buyable = [findEntry(P1600X_MODEL)!, ...currentPlpNvme()];
    expect(buyable.map((e) => e.id)).toEqual(['optane-p1600x', 'micron-7450', 'samsung-pm9a3', 'solidigm-d7-p5520']);
    for (const e of buyable) expect(e.price === null || PriceSource.safeParse(e.price).success, e.id).toBe(true);
    for (const e of buyable) expect('price' in e, e.id).toBe(true);
  });

  it('bands from _meta: low up to $150, mid up to $500, high above, with their reasoning', () => {
    expect(PRICE_BANDS).toMatchObject({ low: 150, mid: 500 });
    expect(PRICE_BANDS.reasoning).toMatch(/price of one unit, not per GB/);
    expect([150, 151, 500, 501].map((usd) => priceClassOf({ ...full, kind: 'retail', usd }))).toEqual(['low', 'mid', 'mid', 'high']);
    expect(priceClassOf(null)).toBeNull();
    expect(priceClassOf(undefined)).toBeNull();
  });

  it('every price in the catalog has its source; discontinued Optane prices are launch or buyer-reported, never a today\'s street price', () => {
    const prices = CATALOG.entries.filter((e) => e.price).map((e) => [e.id, e.price!] as const);
    expect(prices.map(([id]) => id)).toEqual(['optane-800p', 'optane-900p-905p', 'optane-p4800x', 'optane-p5800x']);
    for (const [id, p] of prices) {
      // The quote states the number (thousands written 1,520 or 1.224 in the source's language).
      expect(p.quote.replace(/(\d)[.,](\d{3})/g, '$1$2'), id).toMatch(new RegExp(`(^|\\D)${p.usd}(\\D|$)`));
      expect(['launch-rcp', 'user-reported'], id).toContain(p.kind);
    }
  });
});
