/**
 * One import for the device, counter and benchmark parsers (smartctl, nvme-cli, lsblk, diskinfo,
 * kstat, zpool iostat, fio, Optane model table).
 */
export { decodeSmartctlExit, type SmartctlExitStatus } from './smartctl-exit.ts';
export {
  parseSmartctl, smartctlReportFromJson, toSmartctlContract, driveFromSmartctl, driveIdOf,
  type SmartctlReport, type SmartctlContract, type PlpState,
} from './smartctl.ts';
export { matchOptane, normaliseOptaneModel } from './optane-match.ts';
export { parseNvmeList, type NvmeList, type NvmeNamespace } from './nvme-list.ts';
export { parseNvmeSmartLog, type NvmeSmartLog } from './nvme-smart-log.ts';
export { parseLsblk, flattenLsblk, type LsblkDevice } from './lsblk.ts';
export { parseDiskinfo, type Diskinfo, type DiskinfoSyncWrite } from './diskinfo.ts';
export { parseKstat, isWrappedCounter, UINT64_WRAP_THRESHOLD, type KstatSnapshot } from './kstat.ts';
export {
  parseZpoolIostat, parseIostatTime, columnsFromHeader,
  type ZpoolIostat, type IostatTable, type IostatRow, type IostatHistogram, type IostatHistogramBucket, type IostatParseOptions,
} from './zpool-iostat.ts';
export { parseFio, extractJsonObjects, toFioContract, type FioResult, type FioJob, type FioDirection } from './fio.ts';
