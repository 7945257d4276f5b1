import { describe, expect, it } from 'vitest';
import { gainText } from '../../server/src/forecast/gain-text.ts';

describe('the forecast gain in words (CLI and page)', () => {
  it.each([
    [{ gain: 2.2, gainRange: { low: 1.6, high: 3.1 } }, '2.2× (range 1.60–3.1×)'],
    [{ gain: 1, gainRange: { low: 1, high: 1 } }, '1.00×'],
    [{ gain: null, gainRange: { low: 1.2, high: 40 } }, '1.20–40× (a guess: no point forecast)'],
    [{ gain: null, gainRange: null }, null],
    [{ gain: 110.4, gainRange: { low: 40.2, high: 99.6 } }, '110× (range 40–100×)'],
  ])('%j → %s', (r, text) => {
    expect(gainText(r)).toBe(text);
  });
});
