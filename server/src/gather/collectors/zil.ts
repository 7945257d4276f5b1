/**
 * ZilStats collector: `/proc/spl/kstat/zfs/zil` on Linux, `sysctl kstat.zfs.misc.zil` on FreeBSD (same counters, kstat parser reads both).
 * zfs-fuse mounts no kstats (we start it with --no-kstat-mount): recorded as a gap.
 */
import type { Gap, ZilStats } from '../../model/inventory.ts';
import { parseKstat } from '../../parsers/kstat.ts';
import { usable } from '../../snapshot/raw-set.ts';
import { gap, issueGaps, missingGap } from '../gaps.ts';
import { cmd, type Collector, type RawRequest } from '../request.ts';

const A = 'ZilStats';
const FILE = 'kstat-zil.txt';

export const zilCollector: Collector<ZilStats> = {
  artifact: A,
  requests(_raw, ctx): RawRequest[] {
    if (ctx.platform === 'linux') return [{ file: FILE, readPath: '/proc/spl/kstat/zfs/zil' }];
    if (ctx.platform === 'freebsd') return [{ file: FILE, commands: [cmd('sysctl', 'kstat.zfs.misc.zil')] }];
    return [];
  },
  build(raw) {
    const out = raw[FILE];
    if (!usable(out) || out.text.trim() === '') {
      return { value: null, gaps: [missingGap(A, FILE, out, 'ZIL commit counters unknown (sync-write activity cannot be measured)', 'error')] };
    }
    const r = parseKstat(out.text, 'zil');
    if (!r.ok) return { value: null, gaps: [gap(A, FILE, `unreadable kstat: ${r.error.message}`, 'error', r.error.line)] };
    const gaps: Gap[] = issueGaps(A, FILE, r.issues, 'info');
    if (r.value.wrapped.length) gaps.push(gap(A, FILE, `counters that wrapped below zero (not trusted): ${r.value.wrapped.join(', ')}`, 'info'));
    if (Object.keys(r.value.counters).length === 0) return { value: null, gaps: [...gaps, gap(A, FILE, 'no counters in kstat output', 'error')] };
    const { crtimeNs, snaptimeNs } = r.value;
    // snaptime − crtime: how long these counters have been counting (commits/s since load).
    const windowSeconds = crtimeNs !== null && snaptimeNs !== null && snaptimeNs > crtimeNs ? (snaptimeNs - crtimeNs) / 1e9 : null;
    return { value: { counters: r.value.counters, perDataset: {}, windowSeconds }, gaps };
  },
};
