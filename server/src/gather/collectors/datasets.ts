/**
 * Datasets collector: `zfs get -j -p` (OpenZFS ≥ 2.3) or `zfs get -H -p all` text, typed into the
 * Dataset model. Properties a platform lacks stay null (zfs-fuse has no `sync`): said in a gap.
 */
import type { Dataset, Gap, PropertyValue } from '../../model/inventory.ts';
import { parseHumanNumber, parseRatio } from '../../parsers/common.ts';
import { parseZfsGet, type ZfsGetDataset } from '../../parsers/zfs.ts';
import { usable, type RawSet } from '../../snapshot/raw-set.ts';
import { gap, issueGaps, missingGap } from '../gaps.ts';
import { cmd, type Collector, type RawRequest } from '../request.ts';

const A = 'Datasets';

/**
 * The dataset properties the inventory keeps (`zfs get all` prints ~57 per filesystem): the typed
 * fields below, the sources the rules read (where a value is set), the sharing properties (exports
 * with sync=disabled) and `creation` (a pool's age). The raw output keeps everything else.
 */
/**
 * Properties a dataset keeps in `properties` (value and source as printed): the ones rules and the
 * forecast read there — where a setting comes from (local, inherited, default) and the raw values
 * with no typed copy (creation, the share properties).
 */
export const STORED_DATASET_PROPERTIES: ReadonlySet<string> = new Set([
  'creation', 'recordsize', 'volblocksize', 'compression', 'sync', 'logbias', 'special_small_blocks',
  'primarycache', 'dedup', 'sharenfs', 'sharesmb', 'shareiscsi',
]);
/** What the parser keeps of `zfs get all` (57 properties a filesystem): the stored ones and those with a typed copy. */
export const KEPT_DATASET_PROPERTIES: ReadonlySet<string> = new Set([
  ...STORED_DATASET_PROPERTIES, 'type', 'used', 'available', 'referenced', 'compressratio', 'quota', 'volsize', 'mountpoint',
]);
const keep = (property: string): boolean => KEPT_DATASET_PROPERTIES.has(property);

function parsedDatasets(raw: RawSet, gaps: Gap[]): ZfsGetDataset[] | null {
  const js = raw['zfs-get.json'];
  if (usable(js) && js.exitCode === 0 && js.text.trim().startsWith('{')) {
    const r = parseZfsGet(js.text, { keep });
    if (r.ok) { gaps.push(...issueGaps(A, 'zfs-get.json', r.issues, 'info')); return r.value; }
    gaps.push(gap(A, 'zfs-get.json', `unreadable zfs get JSON (${r.error.message}); using the text output`, 'info', r.error.line));
  }
  const t = raw['zfs-get.txt'];
  if (!usable(t)) { gaps.push(missingGap(A, 'zfs-get.txt', t, 'dataset properties (recordsize, sync, compression) unknown', 'error')); return null; }
  if (t.text.trim() === '' || /^no datasets available/m.test(t.text)) return [];
  const r = parseZfsGet(t.text, { keep });
  if (!r.ok) { gaps.push(gap(A, 'zfs-get.txt', `unreadable zfs get: ${r.error.message}`, 'error', r.error.line)); return null; }
  gaps.push(...issueGaps(A, 'zfs-get.txt', r.issues));
  return r.value;
}

const bytes = (pv: PropertyValue | undefined): number | null => (pv ? parseHumanNumber(pv.value) : null);
const text = (pv: PropertyValue | undefined): string | null => (pv && pv.value !== '-' && pv.value !== '' ? pv.value : null);
function oneOf<T extends string>(pv: PropertyValue | undefined, values: readonly T[]): T | null {
  const v = pv?.value.toLowerCase();
  return (values as readonly string[]).includes(v ?? '') ? (v as T) : null;
}

/** The properties kept with the dataset: values with a typed copy are not kept twice. */
function storedOnly(p: Record<string, PropertyValue>): Record<string, PropertyValue> {
  const out: Record<string, PropertyValue> = {};
  for (const k in p) if (STORED_DATASET_PROPERTIES.has(k)) out[k] = p[k]!;
  return out;
}

export function toDataset(d: ZfsGetDataset): Dataset {
  const p = d.properties;
  const quota = bytes(p.quota);
  return {
    name: d.name,
    pool: d.name.split(/[/@#]/)[0]!,
    type: d.type ?? (d.name.includes('@') ? 'snapshot' : d.name.includes('#') ? 'bookmark' : 'filesystem'),
    sync: oneOf(p.sync, ['standard', 'always', 'disabled'] as const),
    recordsize: bytes(p.recordsize),
    volblocksize: bytes(p.volblocksize),
    volsize: bytes(p.volsize),
    compression: text(p.compression),
    compressratio: p.compressratio ? parseRatio(p.compressratio.value) : null,
    specialSmallBlocks: bytes(p.special_small_blocks),
    logbias: oneOf(p.logbias, ['latency', 'throughput'] as const),
    primarycache: text(p.primarycache),
    dedup: text(p.dedup),
    usedBytes: bytes(p.used),
    availableBytes: bytes(p.available),
    referencedBytes: bytes(p.referenced),
    // quota 0 / none means "no quota".
    quotaBytes: quota === 0 ? null : quota,
    mountpoint: text(p.mountpoint),
    properties: storedOnly(p),
  };
}

export const datasetsCollector: Collector<Dataset[]> = {
  artifact: A,
  requests(): RawRequest[] {
    return [
      { file: 'zfs-get.txt', commands: [cmd('zfs', 'get', '-H', '-p', '-t', 'filesystem,volume', 'all'), cmd('zfs', 'get', '-H', '-p', 'all')], timeoutMs: 120_000 },
      { file: 'zfs-get.json', commands: [cmd('zfs', 'get', '-j', '--json-int', '-p', '-t', 'filesystem,volume', 'all')], timeoutMs: 120_000 },
    ];
  },
  build(raw) {
    const gaps: Gap[] = [];
    const list = parsedDatasets(raw, gaps);
    if (list === null) return { value: null, gaps };
    const datasets = list.map(toDataset);
    const fs = datasets.filter((d) => d.type === 'filesystem' || d.type === 'volume');
    if (fs.length > 0 && fs.every((d) => !('sync' in d.properties))) {
      gaps.push(gap(A, 'zfs-get.txt', 'no `sync` property reported (zfs-fuse or a ZFS before sync existed): sync-write behaviour unknown', 'info'));
    }
    return { value: datasets, gaps };
  },
};
