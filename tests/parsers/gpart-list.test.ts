/** `gpart list` (FreeBSD): partition names, sizes, GPT labels, uuids and types from a real output. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseGpartList } from '../../server/src/parsers/gpart-list.ts';

const text = readFileSync(join(import.meta.dirname, '../fixtures/devices/gpart-list-freebsd-ada0-boot-zfs.txt'), 'utf8');

describe('parseGpartList', () => {
  it('reads the real ada0 table: two providers with exact byte sizes, labels and types; the consumer is not a partition', () => {
    const r = parseGpartList(text);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.issues).toEqual([]);
    expect(r.value).toEqual([{
      name: 'ada0', scheme: 'GPT', providers: [
        { name: 'ada0p1', index: 1, sizeBytes: 524288, label: 'gptboot0', rawuuid: 'ea73cdb7-7bdf-11e9-8cbc-b870f41e1ef2', type: 'freebsd-boot' },
        { name: 'ada0p2', index: 2, sizeBytes: 250058113024, label: 'zfs0', rawuuid: 'ea79d37e-7bdf-11e9-8cbc-b870f41e1ef2', type: 'freebsd-zfs' },
      ],
    }]);
  });

  it('refuses text that is not gpart list, and notes stray lines before the first geom', () => {
    expect(parseGpartList('hello\n').ok).toBe(false);
    const r = parseGpartList(`junk line\n${text}`);
    expect(r.ok && r.issues.map((i) => i.line)).toEqual([1]);
  });
});
