/**
 * The inventory of the local host when this machine has no `zpool` but the server still runs
 * benchmarks in a mounted directory (container mode). The pools are on the machine hosting the
 * container and are read through its TrueNAS API when such a host is configured; otherwise this
 * minimal inventory says plainly what is missing, with one error gap per artifact that needs
 * ZFS (so the rules report them as missing evidence instead of judging an empty system).
 */
import { hostname, release } from 'node:os';
import { INVENTORY_SCHEMA_VERSION, type Gap, type Inventory } from '../model/inventory.ts';

/** The artifacts a machine without `zpool` cannot provide. */
const ZFS_ARTIFACTS = ['Pools', 'Datasets', 'Drives', 'ZilStats', 'ArcStats'] as const;

export const NO_ZPOOL_MESSAGE = 'no zpool in this container: the pools belong to the machine hosting it. Add that machine as a TrueNAS (or Proxmox VE) host to see them; benchmarks here run only in the mounted benchmark directory';

export function minimalLocalInventory(opts: { capturedAt: string; benchDir: string | null; extraGaps?: Gap[] }): Inventory {
  const gaps: Gap[] = ZFS_ARTIFACTS.map((artifact) => ({ artifact, source: 'zpool list', message: NO_ZPOOL_MESSAGE, line: null, severity: 'error' }));
  return {
    schemaVersion: INVENTORY_SCHEMA_VERSION,
    source: {
      kind: 'local',
      label: opts.benchDir ? `${hostname()} (container; benchmarks in ${opts.benchDir})` : hostname(),
      capturedAt: opts.capturedAt,
      demo: false,
      redacted: false,
    },
    host: {
      hostname: hostname(),
      platform: process.platform === 'linux' || process.platform === 'freebsd' || process.platform === 'darwin' ? process.platform : 'unknown',
      distribution: 'unknown',
      distributionVersion: null,
      kernel: release(),
      zfs: { userland: null, kernel: null, openzfs: null, flavour: 'unknown' },
      // A container sees the host's total memory, not its own limit: unknown is the honest answer.
      memoryBytes: null,
    },
    pools: [],
    drives: [],
    datasets: [],
    zil: null,
    arc: null,
    gaps: [...gaps, ...(opts.extraGaps ?? [])],
  };
}
