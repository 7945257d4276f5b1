/**
 * Lab cases (issue 24 §4, §6): each is a pool recipe, the rules it must trigger, and the commands that
 * follow the advice, after which those findings must be gone. Adding a case is a few lines here.
 * Drive variables in the scripts: $ZD1…$ZD6 (virtio disks, by-id paths), $NV1…$NV6 (NVMe by-id paths),
 * $BIG1…$BIG3 (8 TiB sparse virtio disks, for rules about large disks).
 */
import { byId, hdd, nvme, type LabDrive, type ZfsLine } from '../../lab/vm.ts';

export const ZD = Array.from({ length: 6 }, (_, i) => hdd(`ZD000${i + 1}`, '1G'));
export const NV = Array.from({ length: 6 }, (_, i) => nvme(`NV000${i + 1}`, '1G'));
export const BIG = Array.from({ length: 3 }, (_, i) => hdd(`BIG000${i + 1}`, '8T'));
export const LAB_DRIVES: LabDrive[] = [...ZD, ...NV, ...BIG];

/**
 * Shell variables naming every lab drive by its stable path, prepended to each case's scripts; and one
 * guard. Under TCG on a loaded host udev can still be probing a freshly wiped or labelled disk when
 * `zpool` opens it, and the open fails with EBUSY ("one or more devices is currently unavailable": the
 * 8 TiB raidz1 case on 2.3 in CI, 2026-11-28). `zpool create|add|attach` wait for udev and try again,
 * up to three times, for that error only, and say so on stderr; every other error is the command's own.
 */
export const DRIVE_VARS = [
  ...ZD.map((d, i) => `ZD${i + 1}=${byId(d)}`), ...NV.map((d, i) => `NV${i + 1}=${byId(d)}`), ...BIG.map((d, i) => `BIG${i + 1}=${byId(d)}`),
  `zpool() {
  case "$1" in create|add|attach) ;; *) command zpool "$@"; return ;; esac
  local try err rc
  for try in 1 2 3; do
    rc=0; { err=$(command zpool "$@" 2>&1 1>&3) || rc=$?; } 3>&1
    [ $rc = 0 ] && return 0
    case "$err" in *"currently unavailable"*) [ $try -lt 3 ] || break; echo "lab: zpool $1: a device was busy; after udev settles, try $((try + 1))" >&2; udevadm settle -t 60 || true; sleep 2 ;; *) break ;; esac
  done
  printf '%s\\n' "$err" >&2; return 1
}`,
].join('\n');

/**
 * Pools get a throw-away mountpoint and are destroyed after their case (resetGuest), so nothing
 * outlives it. They are in the default cache file, as on most hosts: `zdb -C` then reads their
 * configuration in the capture's first round. A pool made without one (cachefile=none, as TrueNAS's
 * own cache path looks to zdb) costs every capture a `zdb -e -C POOL`, which scans every device's labels
 * (2.4 s of the emulated CPU, about half of a capture): the all-classes case keeps that path covered.
 */
export const CREATE = 'zpool create -f -O mountpoint=/lab/pools/tank -o ashift=12';

export interface LabCase {
  name: string;
  setup: string;
  /** Rule ids whose findings must appear (about pool `tank` or its datasets). */
  fires: string[];
  /** Follows the advice; then every rule of `fires` must be silent about the same subject. */
  fix: string;
  /** The OpenZFS lines it runs on (default: every line the lab boots, lab/vm.ts LAB_VERSIONS). */
  lines?: ZfsLine[];
}

export const CASES: LabCase[] = [
  {
    name: 'dataset properties: compression off, sync disabled, recordsize 4K, special_small_blocks = recordsize',
    setup: `${CREATE} tank mirror $ZD1 $ZD2 special mirror $NV1 $NV2
zfs create -o compression=off tank/nocomp
zfs create -o sync=disabled tank/nosync
zfs create -o recordsize=4K tank/tiny
zfs create -o recordsize=128K -o special_small_blocks=128K tank/allspecial`,
    fires: ['compression-off', 'sync-disabled', 'recordsize-too-small', 'special-small-blocks-value'],
    // On 2.1 compression was off by default, so every dataset inherited off from the pool's root: the
    // finding named them all, and the fix is the root's property, which the others then inherit.
    fix: `zfs set compression=lz4 tank && zfs inherit compression tank/nocomp
zfs inherit sync tank/nosync
zfs inherit recordsize tank/tiny
zfs set special_small_blocks=32K tank/allspecial`,
  },
  {
    name: 'a disk offline: the pool is DEGRADED until it is back',
    setup: `${CREATE} tank mirror $ZD1 $ZD2
zpool offline tank $ZD2-part1`,
    fires: ['pool-health'],
    fix: 'zpool online tank $ZD2-part1 && zpool wait -t resilver tank',
  },
  {
    name: 'no redundancy: a single-disk pool, then the disk mirrored',
    setup: `${CREATE} tank $ZD1`,
    fires: ['no-redundancy'],
    fix: 'zpool attach -w tank $ZD1-part1 $ZD2',
  },
  {
    name: 'a single log device, then mirrored',
    setup: `${CREATE} tank mirror $ZD1 $ZD2 log $NV1`,
    fires: ['slog-single-device'],
    fix: 'zpool attach tank $NV1-part1 $NV2',
  },
  {
    name: 'a special vdev less redundant than the data vdevs, then a 3-way mirror like the raidz2',
    setup: `${CREATE} tank raidz2 $ZD1 $ZD2 $ZD3 $ZD4 special mirror $NV1 $NV2`,
    fires: ['special-redundancy'],
    fix: 'zpool attach tank $NV1-part1 $NV3',
  },
  {
    name: 'raidz1 of 8 TiB disks, then rebuilt as raidz2 as advised',
    setup: `${CREATE} tank raidz1 $BIG1 $BIG2 $BIG3`,
    fires: ['raidz1-large-disks'],
    fix: `zpool destroy tank
zpool labelclear -f $BIG1-part1; zpool labelclear -f $BIG2-part1; zpool labelclear -f $BIG3-part1
${CREATE} tank raidz2 $BIG1 $BIG2 $BIG3`,
  },
  {
    name: 'pool over 80 % full, then space freed',
    setup: `${CREATE} tank mirror $ZD1 $ZD2
zfs create -o compression=off tank/fill
dd if=/dev/zero of=/lab/pools/tank/fill/blob bs=1M count=800 status=none; sync; zpool sync tank`,
    fires: ['pool-capacity'],
    fix: 'rm /lab/pools/tank/fill/blob; sync; zpool sync tank; sleep 2; zpool sync tank',
  },
  {
    name: 'a special vdev of another ashift than the data vdevs (no vdev can ever be removed), then the pool rebuilt with one ashift',
    // zpool add refuses a vdev of another sector size unless forced (-f), which is how such pools come
    // about. A log vdev of another ashift is no finding: log vdevs can always be removed.
    setup: `zpool create -f -O mountpoint=/lab/pools/tank -o ashift=9 tank mirror $ZD1 $ZD2
zpool add -f -o ashift=12 tank special mirror $NV1 $NV2`,
    fires: ['ashift-mismatch'],
    fix: `zpool destroy tank
for d in $ZD1 $ZD2 $NV1 $NV2; do zpool labelclear -f $d-part1; done
${CREATE} tank mirror $ZD1 $ZD2 special mirror $NV1 $NV2`,
  },
  {
    name: 'a 4 KiB-block zvol on raidz2: padding, then recreated with a larger volblocksize',
    setup: `${CREATE} tank raidz2 $ZD1 $ZD2 $ZD3 $ZD4
zfs create -V 128M -o volblocksize=4K tank/vm-disk`,
    fires: ['raidz-small-block-padding'],
    fix: `zfs destroy tank/vm-disk
zfs create -V 128M -o volblocksize=64K tank/vm-disk`,
  },
];
