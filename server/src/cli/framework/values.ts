/**
 * Reads one option value by its declared type. A bad value becomes a usage error that names the
 * option, what kind of value it wants (with the unit) and an example, so the fix is in the message.
 */
import type { OptionDef } from '../command.ts';
import { parseHumanNumber } from '../../parsers/common.ts';
import { parseDiskSize } from '../../planner/space.ts';
import { usageError } from './errors.ts';

/** "10m" → 600, "30s" → 30, "1h" → 3600, "45" → 45; null when unreadable or not positive. */
export function parseDurationSec(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(text.trim());
  if (!m) return null;
  return Number(m[1]) * { s: 1, m: 60, h: 3600 }[m[2] ?? 's']!;
}

/** How each type is described in "is not …" and "give …". */
const KIND: Record<OptionDef['type'], { noun: string; give: string }> = {
  flag: { noun: 'a flag', give: 'leave out the value' },
  string: { noun: 'a value', give: 'give a value' },
  path: { noun: 'a path', give: 'give a path' },
  integer: { noun: 'a whole number', give: 'give a whole number' },
  number: { noun: 'a number', give: 'give a number' },
  size: { noun: 'a size', give: 'give bytes with a binary unit (K = 1024)' },
  'disk-size': { noun: 'a disk size', give: 'give the size of one disk as sold (T = 10^12 bytes, TiB = 2^40)' },
  duration: { noun: 'a duration', give: 'give seconds, or minutes/hours with m/h' },
  choice: { noun: 'one of the choices', give: 'give one of' },
  time: { noun: 'a date and time', give: 'give an ISO 8601 time' },
};

function range(o: OptionDef): string {
  const unit = o.unit ? ` ${o.unit}` : '';
  if (o.min !== undefined && o.max !== undefined) return ` from ${o.min} to ${o.max}${unit}`;
  if (o.min !== undefined) return ` of at least ${o.min}${unit}`;
  if (o.max !== undefined) return ` of at most ${o.max}${unit}`;
  return unit ? ` (${o.unit})` : '';
}

export function badValue(o: OptionDef, text: string): Error {
  const k = KIND[o.type];
  const example = o.example ? `, e.g. --${o.name} ${o.example}` : '';
  if (o.type === 'choice') return usageError(`--${o.name} "${text}" is not one of the choices`, `give one of ${(o.choices ?? []).join(', ')}${example}`);
  return usageError(`--${o.name} "${text}" is not ${k.noun}${range(o)}`, `${k.give}${example}`);
}

/** The value of option `o` from its text, checked against its type and bounds. */
export function readValue(o: OptionDef, text: string): string | number {
  let n: number | null = null;
  switch (o.type) {
    case 'string': case 'path':
      if (text === '') throw usageError(`--${o.name} is empty`, `give ${o.value ?? 'a value'}${o.example ? `, e.g. --${o.name} ${o.example}` : ''}`);
      return text;
    case 'choice':
      if (!(o.choices ?? []).includes(text)) throw badValue(o, text);
      return text;
    case 'time':
      if (!/^\d{4}-\d\d-\d\d/.test(text) || Number.isNaN(Date.parse(text))) throw badValue(o, text);
      return text;
    case 'integer': n = /^-?\d+$/.test(text.trim()) ? Number(text) : null; break;
    case 'number': n = /^-?\d+(?:\.\d+)?$/.test(text.trim()) ? Number(text) : null; break;
    case 'size': n = parseHumanNumber(text); break;
    case 'disk-size': n = parseDiskSize(text); break;
    case 'duration': n = parseDurationSec(text); break;
    case 'flag': throw usageError(`--${o.name} takes no value`, `write --${o.name} alone`);
  }
  if (n === null || !Number.isFinite(n)) throw badValue(o, text);
  // A size of nothing or less is never meant.
  if ((o.type === 'size' || o.type === 'disk-size' || o.type === 'duration') && n <= 0 && o.min === undefined) throw badValue(o, text);
  if ((o.min !== undefined && n < o.min) || (o.max !== undefined && n > o.max)) throw badValue(o, text);
  return n;
}
