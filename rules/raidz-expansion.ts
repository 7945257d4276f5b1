/**
 * A raidz expansion (`zpool attach POOL raidzP-N DISK`, OpenZFS 2.3+) in progress or finished, as
 * `zpool status` reports it: what it means for the data already on the pool and what to do (and
 * not do) meanwhile.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { atLeast } from './engine/version.ts';
import { fact, kb } from './lib/layout-citations.ts';
import { EXPAND } from './lib/expand-dedup-citations.ts';
import { isRaidz, parityOf, realTopLevel, widthOf } from './lib/layout-geometry.ts';
import { formatBytes } from '../server/src/text/format.ts';
import type { Pool, RaidzExpansion } from '../server/src/model/inventory.ts';

/** `zfs rewrite` exists since 2.3.4 (zfs-facts B9). */
const REWRITE_SINCE = '2.3.4';

/** Data:parity of a raidz group of `width` disks with `parity` parity disks, as "3 data + 1 parity". */
const ratio = (width: number, parity: number): string => `${width - parity} data + ${parity} parity`;

function expansionFinding(pool: Pool, e: RaidzExpansion, openzfs: string | null): FindingDraft {
  const vdev = realTopLevel(pool, 'data').find((v) => v.name === e.vdev && isRaidz(v));
  const width = vdev ? widthOf(vdev) : null;
  const parity = vdev ? parityOf(vdev) : null;
  const ratios = width !== null && parity !== null
    ? `Blocks written before the expansion keep the ratio they were written with (at most ${ratio(width - 1, parity)} per row); new blocks get ${ratio(width, parity)}. `
    : 'Blocks written before the expansion keep their old data-to-parity ratio; new blocks use the new width. ';
  const rewriteKnown = openzfs !== null;
  const canRewrite = rewriteKnown && atLeast(openzfs, REWRITE_SINCE);
  const rewrite = canRewrite
    ? '`zfs rewrite -r` rewrites existing files in place so they take the new ratio (blocks shared with snapshots are then stored twice until those snapshots go); send/receive does the same for whole datasets.'
    : `Existing data takes the new ratio only when rewritten: send/receive, a copy, or \`zfs rewrite\` (OpenZFS ${REWRITE_SINCE} and later${rewriteKnown ? `; this host runs ${openzfs}` : ''}).`;
  const evidence: FindingDraft['evidence'] = [
    { label: 'raidz vdev', value: e.vdev },
    { label: 'state', value: e.state },
    { label: 'copied', value: e.copiedBytes, unit: 'bytes' },
    { label: 'to copy', value: e.totalBytes, unit: 'bytes' },
    { label: 'done', value: e.progressPct, unit: '%' },
    { label: e.state === 'finished' ? 'finished' : 'started', value: e.state === 'finished' ? e.endedAt : e.startedAt },
  ];
  if (width !== null) evidence.push({ label: 'width now', value: width, unit: 'disks' });
  if (e.waitingForResilver !== null) evidence.push({ label: 'paused for a resilver or zpool clear', value: e.waitingForResilver });

  if (e.state === 'in-progress') {
    const paused = e.waitingForResilver === true;
    return {
      severity: paused ? 'warning' : 'info',
      title: paused
        ? `raidz expansion of ${e.vdev} in ${pool.name} is paused until the vdev is healthy again`
        : `raidz expansion of ${e.vdev} in ${pool.name} is in progress${e.progressPct !== null ? ` (${e.progressPct} % copied)` : ''}`,
      subject: { kind: 'vdev', id: `${pool.name}/${e.vdev}`, pool: pool.name },
      evidence,
      explanation:
        `The expansion reads all allocated space of ${e.vdev} and rewrites it across the disks including the new one` +
        (e.totalBytes !== null ? ` (${formatBytes(e.copiedBytes)} of ${formatBytes(e.totalBytes)} so far)` : '') +
        '; the added disk contributes space only when it completes, and a scrub of the whole pool starts then. ' +
        'Redundancy is kept throughout; while the copy runs those disks are busy with it, so expect slower pool I/O. ' +
        (paused ? 'It is paused because a disk of the group failed: replace or clear the disk and it continues. ' : '') +
        'No second expansion can start on this pool until this one ends (OpenZFS refuses it). ' + ratios + rewrite,
      action: {
        summary: paused
          ? 'Restore the raidz group (replace the failed disk or clear the error); the expansion resumes by itself. Do not attach another disk meanwhile.'
          : 'Let it finish before attaching another disk; follow it with zpool status or wait for it.',
        commands: [`zpool status ${pool.name}`, `zpool wait -t raidz_expand ${pool.name}`],
        reversible: 'yes',
        reversibleWhy: 'Watching and waiting change nothing. (The expansion itself cannot be undone: a disk attached to a raidz group stays in it.)',
      },
      citations: [EXPAND.attachCopy, EXPAND.oneAtATime, EXPAND.wait, EXPAND.status],
      confidence: 'high',
    };
  }
  return {
    severity: 'info',
    title: `${e.vdev} in ${pool.name} was expanded: data written before keeps the old data-to-parity ratio`,
    subject: { kind: 'vdev', id: `${pool.name}/${e.vdev}`, pool: pool.name },
    evidence,
    explanation:
      `zpool status reports the expansion of ${e.vdev} as finished${e.endedAt ? ` (${e.endedAt})` : ''}. ` + ratios +
      'The pool\'s space accounting keeps the assumed ratio of the old width, so zfs list and df report slightly less space than new blocks actually take. ' + rewrite,
    action: {
      summary: canRewrite
        ? 'Optional: rewrite older data so it gains the new width\'s space efficiency (mind snapshots: rewritten blocks they hold are kept twice).'
        : 'Optional: rewrite older data (send/receive or a copy) so it gains the new width\'s space efficiency.',
      commands: canRewrite ? ['zfs rewrite -r <directory on a dataset of this pool>'] : [`zfs send -R ${pool.name}/<dataset>@<snap> | zfs receive ${pool.name}/<dataset>-new`],
      reversible: 'partly',
      reversibleWhy: 'The data stays the same; the space its old copies held in snapshots is freed only when those snapshots are destroyed.',
    },
    citations: [EXPAND.attachRatio, EXPAND.width, EXPAND.rewrite],
    confidence: 'high',
  };
}

export default defineRule({
  meta: {
    id: 'raidz-expansion',
    title: 'raidz expansion in progress or done',
    category: 'capacity',
    defaultSeverity: 'info',
    requiredArtifacts: ['Pools'],
    optionalArtifacts: ['Host'],
    description:
      'A raidz group grown with zpool attach (OpenZFS 2.3+) copies all its data while the expansion runs, allows no second expansion meanwhile, and leaves existing blocks at the old data-to-parity ratio until they are rewritten. Learn more: [raidz space, padding and resilience: raidz expansion](docs/kb/raidz-space.md#raidz-expansion).',
    citations: [kb('raidz-space', 'raidz expansion'), fact('C2'), fact('C13'), EXPAND.attachRatio, EXPAND.oneAtATime],
    appliesTo: { minVersion: '2.3', maxVersion: null },
  },
  check({ Pools, Host }) {
    const findings: FindingDraft[] = [];
    for (const pool of Pools) {
      if (pool.expansion && pool.expansion.state !== 'unknown') findings.push(expansionFinding(pool, pool.expansion, Host?.zfs.openzfs ?? null));
    }
    if (findings.length === 0) return notApplicable('zpool status reports no raidz expansion on any pool.');
    return fired(findings);
  },
});
