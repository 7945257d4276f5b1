/**
 * The benchmark profiles. Each one answers one question an owner actually asks and names the
 * reference document its method comes from, so a result can be read next to the published one.
 */
import { z } from 'zod';

export const ProfileId = z.enum([
  'sync-write-4k-qd1',
  'sync-write-4k-qd16',
  'async-write-4k',
  'seq-write-1m',
  'seq-read-1m',
  'rand-read-4k',
  'mixed-70-30-4k',
]);
export type ProfileId = z.infer<typeof ProfileId>;

export const Profile = z.object({
  id: ProfileId,
  title: z.string(),
  /** The question this profile answers, in the owner's words. */
  question: z.string(),
  /** Reference document (shared/reference) and what in it this follows. */
  reference: z.string(),
  rw: z.enum(['randwrite', 'write', 'read', 'randread', 'randrw']),
  blockSize: z.number(),
  iodepth: z.number(),
  /** Share of reads in a mixed job (fio rwmixread). */
  rwmixread: z.number().nullable(),
  /** Every write must be durable before it counts (sync=always, or fio's sync/fsync fallback). */
  sync: z.boolean(),
  /** Reads must come from the disks, not the ARC: primarycache=metadata on the temporary dataset. */
  readsFromDisk: z.boolean(),
  /** Writes data at all (a read-only profile still lays out its file first). */
  writes: z.boolean(),
});
export type Profile = z.infer<typeof Profile>;

const K = 1024;
const M = 1024 * 1024;

export const PROFILES: readonly Profile[] = [
  {
    id: 'sync-write-4k-qd1',
    title: 'Sync write 4k, QD1',
    question: 'What does one synchronous write cost me now (database commit, NFS/VM flush, one at a time)?',
    reference: '[Intel Optane P1600X & P4800X as ZFS SLOG/ZIL](https://austinsnerdythings.com/tag/nvme): fio randwrite bs=4k iodepth=1 on a sync=always dataset (SLOG comparison)',
    rw: 'randwrite', blockSize: 4 * K, iodepth: 1, rwmixread: null, sync: true, readsFromDisk: false, writes: true,
  },
  {
    id: 'sync-write-4k-qd16',
    title: 'Sync write 4k, QD16',
    question: 'How many synchronous writes per second can the pool absorb when many clients write at once?',
    reference: '[Intel Optane P1600X & P4800X as ZFS SLOG/ZIL](https://austinsnerdythings.com/tag/nvme): fio randwrite bs=4k iodepth=16 on a sync=always dataset',
    rw: 'randwrite', blockSize: 4 * K, iodepth: 16, rwmixread: null, sync: true, readsFromDisk: false, writes: true,
  },
  {
    id: 'async-write-4k',
    title: 'Async write 4k (ceiling)',
    question: 'What does the pool do without sync? The ceiling a SLOG can approach, never exceed.',
    reference: '[OpenZFS zvol performance issues](https://coda.io/@ff0/zvol-performance-issues) (sync vs async on the same pool) and [napp-it allocation classes](https://www.napp-it.org/doc/downloads/special-vdev.pdf)',
    rw: 'randwrite', blockSize: 4 * K, iodepth: 16, rwmixread: null, sync: false, readsFromDisk: false, writes: true,
  },
  {
    id: 'seq-write-1m',
    title: 'Sequential write 1M',
    question: 'How fast can large files (backups, media) be written?',
    reference: '[ZFS Raidz Performance, Capacity and Integrity](https://calomel.org/zfs_raid_speed_capacity.html) (sequential write per layout)',
    rw: 'write', blockSize: M, iodepth: 4, rwmixread: null, sync: false, readsFromDisk: false, writes: true,
  },
  {
    id: 'seq-read-1m',
    title: 'Sequential read 1M',
    question: 'How fast can large files be read back from the disks (not from RAM)?',
    reference: '[ZFS Raidz Performance, Capacity and Integrity](https://calomel.org/zfs_raid_speed_capacity.html) (sequential read per layout)',
    rw: 'read', blockSize: M, iodepth: 4, rwmixread: null, sync: false, readsFromDisk: true, writes: false,
  },
  {
    id: 'rand-read-4k',
    title: 'Random read 4k',
    question: 'How many small random reads per second do the disks give when the cache misses?',
    reference: '[ZFS Raidz Performance, Capacity and Integrity](https://calomel.org/zfs_raid_speed_capacity.html) (random I/O: mirrors vs raidz) and [napp-it allocation classes](https://www.napp-it.org/doc/downloads/special-vdev.pdf)',
    rw: 'randread', blockSize: 4 * K, iodepth: 16, rwmixread: null, sync: false, readsFromDisk: true, writes: false,
  },
  {
    id: 'mixed-70-30-4k',
    title: 'Mixed 70/30 read/write 4k',
    question: 'How does the pool hold up under sustained mixed I/O, like a VM store?',
    reference: '[A bit about SSD performance and Optane SSDs](https://www.truenas.com/community/resources/a-bit-about-ssd-perfomance-and-optane-ssds-when-youre-planning-your-next-ssd.149/) (sustained mixed I/O) and [OpenZFS zvol performance issues](https://coda.io/@ff0/zvol-performance-issues)',
    rw: 'randrw', blockSize: 4 * K, iodepth: 16, rwmixread: 70, sync: false, readsFromDisk: true, writes: true,
  },
];

export function listProfiles(): readonly Profile[] {
  return PROFILES;
}

export function getProfile(id: string): Profile | null {
  return PROFILES.find((p) => p.id === id) ?? null;
}

/**
 * Random writes only: records the size of one write, as 000 measured (`zfs set recordsize=4k`), so
 * a write replaces whole records and no record is read or rewritten around it: the largest power of
 * two that divides the write (ZFS takes only those), at most 128K, which every pool and zfs-fuse
 * accept (larger records need the large_blocks feature; a larger write covers whole 128K records).
 * Everything else keeps the 128K default a user's datasets have.
 */
export function recordsizeFor(p: Pick<Profile, 'rw' | 'blockSize'>): number {
  if (p.rw !== 'randwrite') return 128 * 1024;
  let rs = 512;
  while (rs < 128 * 1024 && p.blockSize % (rs * 2) === 0) rs *= 2;
  return rs;
}
