/**
 * Citations of the raidz-expansion and dedup-table rules: OpenZFS man pages and source at the
 * release tag the lab runs (zfs-2.4.4; the cited text is the same at zfs-2.3.9), with the line.
 */
import type { Citation } from '../../server/src/model/finding.ts';

const AT = 'https://github.com/openzfs/zfs/blob/zfs-2.4.4';
const at = (source: string, path: string, line: number, locator: string): Citation => ({
  source: `OpenZFS ${source} at zfs-2.4.4`, locator, url: `${AT}/${path}#L${line}`,
});

export const EXPAND = {
  attachRatio: at('zpool-attach(8)', 'man/man8/zpool-attach.8', 95, 'old blocks retain their old data-to-parity ratio; a scrub follows the expansion'),
  attachCopy: at('zpool-attach(8)', 'man/man8/zpool-attach.8', 80, 'the expansion reads all allocated space and rewrites it; pauses while a disk is failed'),
  oneAtATime: at('module/zfs/spa.c', 'module/zfs/spa.c', 8251, 'spa_vdev_attach: ZFS_ERR_RAIDZ_EXPAND_IN_PROGRESS'),
  width: at('module/zfs/vdev_raidz.c', 'module/zfs/vdev_raidz.c', 2667, 'logical width chosen by the block\'s physical birth txg'),
  wait: at('zpool-wait(8)', 'man/man8/zpool-wait.8', 80, 'raidz_expand activity'),
  rewrite: at('zfs-rewrite(8)', 'man/man8/zfs-rewrite.8', 41, 'rewrite blocks at a new location (2.3.4+)'),
  status: at('cmd/zpool/zpool_main.c', 'cmd/zpool/zpool_main.c', 10250, 'print_raidz_expand_status'),
} as const;

export const DEDUP = {
  fastFeature: at('zpool-features(7)', 'man/man7/zpool-features.7', 603, 'fast_dedup: enabled on new dedup tables; read-only compatible'),
  configure: at('module/zfs/ddt.c', 'module/zfs/ddt.c', 1550, 'ddt_configure: an existing table keeps its on-disk version'),
  log: at('module/zfs/ddt.c', 'module/zfs/ddt.c', 136, 'Dedup log: changed entries are logged and flushed gradually'),
  lookup: at('module/zfs/ddt.c', 'module/zfs/ddt.c', 93, 'Lifetime of an entry: a DDT is typically not held in memory all at once'),
  quotaProp: at('zpoolprops(7)', 'man/man7/zpoolprops.7', 371, 'dedup_table_quota'),
  overQuota: at('module/zfs/ddt.c', 'module/zfs/ddt.c', 1137, 'ddt_over_quota: auto limits only by a dedup or special class'),
  prune: at('zpool-ddtprune(8)', 'man/man8/zpool-ddtprune.8', 38, 'prune old unique entries'),
  pruneNeedsFast: at('module/zfs/zfs_ioctl.c', 'module/zfs/zfs_ioctl.c', 4649, 'zfs_ioc_ddt_prune: ENOTSUP without fast_dedup'),
  stats: at('module/zfs/ddt_stats.c', 'module/zfs/ddt_stats.c', 183, 'ddt_get_dedup_object_stats: on-disk and in-core size, log entries included'),
} as const;
