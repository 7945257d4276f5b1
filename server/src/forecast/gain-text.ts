/** The forecast's gain in words, shared by the CLI (request.ts renderForecast) and the page (ForecastPanel.vue). */
import type { ForecastResult } from './forecast.ts';
import { formatGain, formatGainRange } from '../text/format.ts';

/**
 * The forecast's gain in words, for the CLI and the page alike: the point gain with its range where
 * they differ, the range alone where one side is a guess (no point forecast), null without a device.
 */
export function gainText(r: Pick<ForecastResult, 'gain' | 'gainRange'>): string | null {
  const range = r.gainRange && (r.gain === null || r.gainRange.low !== r.gain || r.gainRange.high !== r.gain)
    ? formatGainRange(r.gainRange.low, r.gainRange.high) : null;
  if (r.gain !== null) return range ? `${formatGain(r.gain)} (range ${range})` : formatGain(r.gain);
  return range ? `${range} (a guess: no point forecast)` : null;
}
