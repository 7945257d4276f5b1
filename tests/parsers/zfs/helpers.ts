/**
 * Small builders for hand-written expected trees: every value is still written out in the
 * tests; these only spare us repeating the fields that are the same on every healthy row.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ParsedPoolStatus, ScanInfo, VdevClass, VdevNode } from '../../../server/src/model/inventory.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/zfs/', import.meta.url));
export const fixture = (path: string): string => readFileSync(`${FIXTURES}${path}`, 'utf8');
export const fixturePath = (path: string): string => `${FIXTURES}${path}`;

type Extra = Partial<Omit<VdevNode, 'name' | 'children'>>;

/** A leaf disk, ONLINE 0 0 0, data class, unless `extra` says otherwise. */
export const disk = (name: string, extra: Extra = {}): VdevNode => ({
  class: 'data', type: 'disk', name, state: 'ONLINE', read: 0, write: 0, cksum: 0, note: null, children: [], ...extra,
});
export const file = (name: string, extra: Extra = {}): VdevNode => disk(name, { type: 'file', ...extra });
/** An interior vdev (mirror-0, raidz2-1, spare-0 …). */
export const group = (type: VdevNode['type'], name: string, children: VdevNode[], extra: Extra = {}): VdevNode => ({
  class: 'data', type, name, state: 'ONLINE', read: 0, write: 0, cksum: 0, note: null, children, ...extra,
});
/** A spare-section row: state only, no counters. */
export const spareRow = (name: string, state: string, note: string | null = null, type: VdevNode['type'] = 'disk'): VdevNode => ({
  class: 'spare', type, name, state, read: null, write: null, cksum: null, note, children: [],
});
/** Moves a subtree into an allocation class. */
export const inClass = (cls: VdevClass, n: VdevNode): VdevNode => ({ ...n, class: cls, children: n.children.map((c) => inClass(cls, c)) });

export const scan = (s: Partial<ScanInfo> & Pick<ScanInfo, 'kind' | 'state' | 'raw'>): ScanInfo => ({
  startedAt: null, endedAt: null, errors: null, progressPct: null, ...s,
});
export const NONE_REQUESTED: ScanInfo = scan({ kind: 'none', state: 'none', raw: 'none requested' });

export const pool = (p: Partial<ParsedPoolStatus> & Pick<ParsedPoolStatus, 'name' | 'vdevs'>): ParsedPoolStatus => ({
  state: 'ONLINE', status: null, action: null, see: null, scan: null, extraScans: [], errors: 'No known data errors',
  errorFiles: [], remove: null, ...p,
});

/** The parser's issue for a pool block without its closing `errors:` line (a cut output). */
export const isPartialIssue = (i: { message: string }): boolean => / partial read — /.test(i.message);
/**
 * What a cut output's pools look like: a pool block without `errors:` is a partial read, marked
 * `partial`; its state stays what its `state:` line said. Applied to expectations written from
 * the fixture text (many documentation examples stop after the config tree).
 */
export const partialRead = (pools: ParsedPoolStatus[]): ParsedPoolStatus[] => pools.map((p) => (p.errors === null ? { ...p, partial: true } : p));
