/**
 * A cut `zpool status` (a pipe closed early, a shortened paste) must never read as a complete,
 * healthy pool with fewer disks. Every prefix of real multi-vdev outputs that ends inside a
 * `config:` block is a partial read: the cut pool keeps the state its `state:` line printed (that
 * line comes before the config and is true of the whole pool) and is marked partial, an issue says
 * "output ends inside the config block", the pools before it are untouched — and the inventory
 * built from it says the tree may be incomplete.
 */
import { describe, expect, it } from 'vitest';
import { parseZpoolStatus } from '../../server/src/parsers/zpool-status.ts';
import { poolsCollector } from '../../server/src/gather/collectors/pools.ts';
import { fixture } from '../parsers/zfs/helpers.ts';

/** Line indexes (0-based, exclusive end) whose prefix ends inside some pool's config block. */
function cutsInsideConfig(lines: string[]): { end: number; pool: string }[] {
  const out: { end: number; pool: string }[] = [];
  let pool = '';
  let inConfig = false;
  for (let i = 0; i < lines.length; i++) {
    const m = /^\s*pool: (\S+)/.exec(lines[i]!);
    if (m) { pool = m[1]!; inConfig = false; }
    if (/^\s*errors:/.test(lines[i]!)) inConfig = false;
    if (inConfig && lines[i]!.trim() !== '') out.push({ end: i + 1, pool });
    if (/^config:/.test(lines[i]!)) { inConfig = true; out.push({ end: i + 1, pool }); }
  }
  return out;
}

describe('truncated zpool status', () => {
  for (const name of ['zfs-fuse--zpool_status_-v_LAB.txt', 'jc-linux-wwn-mirrors-upgrade-status.txt', 'zfs-fuse--zpool_status_fcomplex_SPARE_INUSE.txt']) {
    it(`every line prefix of ${name} ending inside config: is partial, never healthy`, () => {
      const text = fixture(`status/${name}`);
      const full = parseZpoolStatus(text);
      if (!full.ok) throw new Error(full.error.message);
      expect(full.value.every((p) => p.errors !== null)).toBe(true); // the whole output is complete
      const lines = text.split('\n');
      const cuts = cutsInsideConfig(lines);
      expect(cuts.length).toBeGreaterThan(5);
      for (const cut of cuts) {
        const r = parseZpoolStatus(lines.slice(0, cut.end).join('\n'));
        if (!r.ok) throw new Error(`${cut.end}: ${r.error.message}`);
        const last = r.value.at(-1)!;
        expect(last.name, `cut after line ${cut.end}`).toBe(cut.pool);
        expect(last.state, `cut after line ${cut.end}`).toBe(full.value.find((p) => p.name === cut.pool)!.state);
        expect(last.partial, `cut after line ${cut.end}`).toBe(true);
        expect(r.issues.some((i) => i.message.startsWith(`pool ${cut.pool}: partial read — output ends inside the config block`)), `cut after line ${cut.end}`).toBe(true);
        // The pools before the cut are read as in the full output.
        expect(r.value.slice(0, -1)).toEqual(full.value.slice(0, r.value.length - 1));
      }
    });
  }

  it('every character prefix inside the config block (a cut mid-row) is partial too', () => {
    const text = fixture('status/jc-linux-wwn-mirrors-upgrade-status.txt');
    const start = text.indexOf('config:');
    const end = text.indexOf('errors:');
    for (let n = start + 1; n < end; n++) {
      const r = parseZpoolStatus(text.slice(0, n));
      expect(r.ok).toBe(true);
      if (r.ok) expect([r.value[0]!.state, r.value[0]!.partial], `cut at ${n}`).toEqual(['ONLINE', true]);
    }
    // Cut right before errors: (only the line missing) is partial as well — no errors: line.
    const r = parseZpoolStatus(text.slice(0, end));
    expect(r.ok && r.value[0]!.partial).toBe(true);
  });

  it('the inventory built from a cut output keeps the printed state, marks the pool partial, and says why', () => {
    const text = fixture('status/jc-linux-wwn-mirrors-upgrade-status.txt');
    const cut = text.slice(0, text.indexOf('mirror-1'));
    const built = poolsCollector.build({ 'zpool-status.txt': { text: cut, command: ['zpool', 'status', '-v', '-P'], exitCode: 0, stderr: '', error: null } } as never, {} as never);
    const pool = built.value![0]!;
    expect(pool.state).toBe('ONLINE');
    expect(pool.partial).toBe(true);
    expect(pool.vdevs).toHaveLength(1); // what was read is kept, said to be partial
    expect(built.gaps.some((g) => /pool pool1: partial read — output ends inside the config block/.test(g.message))).toBe(true);
  });
});
