/**
 * raidz1 (or draid1) on large hard disks or wide vdevs: one disk of margin during a resilver that
 * takes days. A judgement call, and the finding says so (zfs-facts G9).
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_001, doc, fact, kb, man } from './lib/layout-citations.ts';
import {
  drivesOf, fmtTB, mediaOf, memberSizeBytes, parityOf, realTopLevel, vdevLabel, vdevSubjectId, widthOf,
} from './lib/layout-geometry.ts';
import { commandPath, leaves } from './lib/topology.ts';
import { newDevice } from './lib/commands.ts';

/**
 * Issue 3 asks for a warning from 4 TB; zfs-facts G9 puts the community line at ~8–10 TB.
 * Heuristic, weak evidence. A marketed "4 TB" disk has 4.00e12 bytes, but when only `zpool list`
 * is known the member size is the vdev size over its width (10.9 TiB / 3 ≈ 3.996e12, after
 * labels and alignment), so the line sits at 3.9e12: a "4 TB" disk counts whichever way its size
 * was learned, a 3.84 TB SSD-class size or anything smaller does not.
 */
export const LARGE_DISK_BYTES = 3.9e12;
/** The marketed size the threshold stands for, for the text. */
const LARGE_DISK_LABEL = '4 TB';
/** Above this the warning is stronger: G9's "~8–10 TB" where both sides of the dispute start to agree. */
export const VERY_LARGE_DISK_BYTES = 8e12;
/** "wider than 5": every extra disk is one more that can fail during the resilver (001, C17). Heuristic. */
export const MAX_RAIDZ1_WIDTH = 5;
/** Effective healing-resilver rate on HDD raidz, the middle of C15's 50–150 MB/s [heuristic]. */
export const RESILVER_BYTES_PER_SEC = 100e6;
/** Fleet annual failure rate, Backblaze 2024 ≈ 1.6 % (C16). Independent failures only. */
export const ANNUAL_FAILURE_RATE = 0.016;
/** Consumer HDD datasheet unrecoverable-read-error bound: 1 per 10^14 bits (C18), a worst case. */
export const URE_BITS = 1e14;
const HOURS_PER_YEAR = 8766;

export default defineRule({
  meta: {
    id: 'raidz1-large-disks',
    title: 'raidz1 on large disks or wide vdevs',
    category: 'redundancy',
    defaultSeverity: 'warning',
    requiredArtifacts: ['Pools'],
    optionalArtifacts: ['Drives', 'Host'],
    description:
      'A raidz1 (or draid1) vdev has one disk of margin; while it resilvers a failed disk — days on large hard disks — a second disk failure loses the pool, and a read error loses the blocks it hits. Whether that risk is acceptable is a judgement call that depends on backups. Learn more: [raidz space, padding and resilience: raidz1 and large disks](docs/kb/raidz-space.md#raidz1-and-large-disks).',
    citations: [kb('raidz-space', 'raidz1 and large disks'), doc(DOC_001, 'Be Safe, Not Sorry; raid reliability'), fact('G9'), fact('C15'), fact('C17'), fact('C18'), fact('C19'), fact('C20'), man('zpoolconcepts', 7, 'raidz')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives: maybeDrives, Host }) {
    const Drives = maybeDrives ?? [];
    const findings: FindingDraft[] = [];
    let candidates = 0;
    const unjudged: string[] = [];
    for (const pool of Pools) {
      for (const v of realTopLevel(pool, 'data')) {
        if (parityOf(v) !== 1) continue;
        candidates++;
        const width = widthOf(v);
        const size = memberSizeBytes(v, Drives);
        const media = mediaOf(drivesOf(v, Drives));
        const large = size !== null && size >= LARGE_DISK_BYTES && media !== 'flash';
        const wide = width > MAX_RAIDZ1_WIDTH;
        // Unknown size (or unknown media on a large member) leaves the question open, not answered.
        if (!large && !wide && size === null) unjudged.push(`${pool.name}/${v.name}`);
        if (!large && !wide) continue;

        // Resilver reads what is allocated on each surviving disk (C14, C15).
        const perDisk = v.allocBytes != null
          ? v.allocBytes / width
          : pool.allocBytes != null ? pool.allocBytes / Math.max(1, realTopLevel(pool, 'data').reduce((n, x) => n + widthOf(x), 0))
            : size;
        const resilverHours = perDisk != null ? perDisk / RESILVER_BYTES_PER_SEC / 3600 : null;
        const secondFailure = resilverHours != null
          ? 1 - Math.exp(-(width - 1) * ANNUAL_FAILURE_RATE * resilverHours / HOURS_PER_YEAR) : null;
        const readBytes = perDisk != null ? perDisk * (width - 1) : null;
        const cleanRead = readBytes != null ? Math.exp(-8 * readBytes / URE_BITS) : null;
        // Large hard disks or very wide vdevs warn; a merely wide raidz1 of small disks is a suggestion.
        const strong = large || width > 8;
        const veryLarge = size !== null && size >= VERY_LARGE_DISK_BYTES && media !== 'flash';

        const disks = leaves(v).map((l) => commandPath(l, Drives));
        findings.push({
          severity: strong ? 'warning' : 'suggestion',
          title: `${vdevLabel(v)} in ${pool.name} has one disk of redundancy${size ? ` on ${fmtTB(size)} disks` : ''}`,
          subject: { kind: 'vdev', id: vdevSubjectId(pool, v), pool: pool.name },
          evidence: [
            { label: 'layout', value: v.type === 'draid' ? `draid1 (${v.name})` : 'raidz1' },
            { label: 'width', value: width, unit: 'disks' },
            { label: 'member size', value: size, unit: 'bytes' },
            { label: 'media', value: media },
            { label: 'estimated resilver time', value: resilverHours != null ? Math.round(resilverHours) : null, unit: 'h' },
            { label: 'second whole-disk failure during that resilver (independent failures, AFR 1.6 %)', value: secondFailure != null ? Number((secondFailure * 100).toFixed(3)) : null, unit: '%' },
            { label: 'naive chance of reading the survivors without one URE at 1e-14/bit', value: cleanRead != null ? Number((cleanRead * 100).toFixed(1)) : null, unit: '%' },
          ],
          explanation:
            `During a resilver of this ${width}-wide raidz1 every surviving disk is read in full${resilverHours != null ? ` — about ${Math.round(resilverHours)} h at ~100 MB/s (a heuristic rate)` : ''}, and until it finishes the vdev has no redundancy left: a second whole-disk failure loses the pool. ` +
            `From independent failures alone that chance is small${secondFailure != null ? ` (≈${(secondFailure * 100).toFixed(2)} %)` : ''}, but drives from one batch fail together and the resilver itself stresses them (the calomel.org raidz article reports "around 8 %" from experience). ` +
            `The unrecoverable-read-error argument is disputed: datasheets give 1 per 10^14 bits as a bound${cleanRead != null ? ` (naively ${(cleanRead * 100).toFixed(0)} % chance of a clean read)` : ''}, observed rates are far lower, and on ZFS a read error costs only the affected files, not the pool. ` +
            `${veryLarge ? 'At 8 TB and more both sides of the dispute agree the margin is thin. ' : ''}This is a judgement call, not a defect: with tested backups raidz1 can be fine; without them raidz2 has significantly better mean time to data loss. The thresholds (${LARGE_DISK_LABEL} disks, more than ${MAX_RAIDZ1_WIDTH} wide) are heuristics.`,
          action: {
            summary: 'Keep verified backups and scrub regularly; when the pool is next rebuilt, use raidz2 (parity cannot be changed in place).',
            commands: [
              `zpool scrub ${pool.name}`,
              `zfs snapshot -r ${pool.name}@pre-migration && zfs send -R ${pool.name}@pre-migration | zfs receive -u BACKUPPOOL/${pool.name}`,
              `zpool create -o ashift=12 NEWPOOL raidz2 ${disks.join(' ')} ${newDevice(Host, 'one-more-disk')}`,
            ],
            reversible: 'partly',
            reversibleWhy: 'Scrubs and backups change nothing on the pool. Moving to raidz2 means copying the data out, destroying and re-creating the pool: the old layout cannot be restored without another full copy.',
          },
          confidence: 'medium',
        });
      }
    }
    if (candidates === 0) return notApplicable('No raidz1 or draid1 data vdevs.');
    if (findings.length === 0 && unjudged.length > 0) {
      return notApplicable(`Cannot judge ${unjudged.join(', ')}: the member disk sizes are unknown (no drive sizes from lsblk/smartctl and no per-vdev size from zpool list -v).`);
    }
    return fired(findings);
  },
});
