/** Every ZFS output parser, one import for callers (collectors, CLI `parse`, inventory builder). */
export { parseDraidName, isDraidSpareName } from './draid-name.ts';
export { parseZfsVersion } from './zfs-version.ts';
export { parseZpoolStatus } from './zpool-status.ts';
export { parseZpoolStatusJson } from './zpool-status-json.ts';
export { parseScanText } from './zpool-status-scan.ts';
export { parseZpoolList, ZpoolListPool, ZpoolListVdev } from './zpool-list.ts';
export { parseZpoolGet, ZpoolProperties } from './zpool-get.ts';
export { parseZfsGet, ZfsGetDataset } from './zfs-get.ts';
export { parseZdbConfig, topLevelAshifts, ZdbPoolConfig, ZdbVdev } from './zdb-config.ts';
