/**
 * Evidence artifacts that come from measuring rather than reading configuration:
 * the workload fingerprint (observe), size histograms (sizes) and benchmark results (bench).
 * Defined here so the rules can depend on their shape before the collectors exist.
 */
import { z } from 'zod';
import { VdevClass } from './inventory.ts';

/** A power-of-two histogram bin: values in (previous upper, upperBytes]. */
export const SizeBin = z.object({
  upperBytes: z.number(),
  count: z.number(),
  bytes: z.number(),
  cumulativeBytes: z.number(),
  cumulativeCount: z.number(),
});
export type SizeBin = z.infer<typeof SizeBin>;

export const LatencyBin = z.object({ upperNs: z.number(), count: z.number() });

/** What the pool was asked to do during an observation window. */
export const WorkloadFingerprint = z.object({
  startedAt: z.string(),
  endedAt: z.string(),
  windowSeconds: z.number(),
  /** 'live' = measured on this host now; 'recorded' = replayed counter pairs (tests, snapshots). */
  source: z.enum(['live', 'recorded']),
  zil: z
    .object({
      commitsPerSec: z.number(),
      /** itx bytes per second written through the ZIL (copied + indirect + needcopy). */
      itxBytesPerSec: z.number(),
      bytesToSlogPerSec: z.number().nullable(),
      bytesToMainPoolPerSec: z.number().nullable(),
      indirectBytesPerSec: z.number().nullable(),
      copiedBytesPerSec: z.number().nullable(),
    })
    .nullable(),
  pools: z.array(
    z.object({
      pool: z.string(),
      readIops: z.number(),
      writeIops: z.number(),
      readBytesPerSec: z.number(),
      writeBytesPerSec: z.number(),
      /** Share of written bytes that went through the ZIL (0..1), null when not attributable. */
      syncWriteShare: z.number().nullable(),
      syncWriteIops: z.number().nullable(),
      /** Sync-write latency per vdev class from `zpool iostat -w` (syncq_write + disk). */
      syncWriteLatencyMs: z.partialRecord(VdevClass, z.object({ p50: z.number().nullable(), p99: z.number().nullable() })).default({}),
      /** Request sizes from `zpool iostat -r`: share of I/Os at or below 32 KiB. */
      smallWriteShare: z.number().nullable(),
      smallReadShare: z.number().nullable(),
      writeSizes: z.array(SizeBin).default([]),
      readSizes: z.array(SizeBin).default([]),
      /**
       * Written bytes per second split by how they reached the pool (added for issue 10; optional so
       * older stored fingerprints still parse). `syncAsyncBasis` says how they were attributed.
       */
      syncWriteBytesPerSec: z.number().nullable().optional(),
      asyncWriteBytesPerSec: z.number().nullable().optional(),
      syncAsyncBasis: z.enum(['request-size-histogram', 'zil-log-bytes']).nullable().optional(),
    }),
  ),
  datasets: z
    .array(z.object({ dataset: z.string(), commitsPerSec: z.number(), syncBytesPerSec: z.number() }))
    .default([]),
  arc: z
    .object({
      hitRatio: z.number().nullable(),
      metadataHitRatio: z.number().nullable(),
      /** demand+prefetch metadata misses per second: metadata-heavy indicator. */
      metadataMissesPerSec: z.number().nullable(),
      metadataShareOfMisses: z.number().nullable(),
    })
    .nullable(),
  notes: z.array(z.string()).default([]),
});
export type WorkloadFingerprint = z.infer<typeof WorkloadFingerprint>;

/** Result of `zfs-advisor sizes` (walk) or the parsed `zdb -Lbbbs` histogram. */
export const SizeHistogram = z.object({
  target: z.string(),
  dataset: z.string().nullable(),
  pool: z.string().nullable(),
  /** walk: files read here; zdb: the pool's block statistics; table: a size table made elsewhere (sizes --from-histogram). */
  method: z.enum(['walk', 'zdb', 'table']),
  recordsize: z.number(),
  ashift: z.number(),
  files: z.number(),
  totalBytes: z.number(),
  fileBins: z.array(SizeBin),
  blockBins: z.array(SizeBin),
  /** For each candidate special_small_blocks value, what would land on the special class. */
  candidates: z.array(
    z.object({
      specialSmallBlocks: z.number(),
      smallBlockBytes: z.number(),
      metadataBytes: z.number(),
      totalBytes: z.number(),
    }),
  ),
  metadataBasis: z.string(),
  capturedAt: z.string(),
  notes: z.array(z.string()).default([]),
});
export type SizeHistogram = z.infer<typeof SizeHistogram>;

export const LatencyPercentiles = z.object({
  meanNs: z.number().nullable(),
  p50Ns: z.number().nullable(),
  p99Ns: z.number().nullable(),
  p999Ns: z.number().nullable(),
});

/**
 * The latency of the operation that made a write durable — the number an owner of a database or
 * NFS share waits on: fio's `sync` section (fsync/fdatasync after each write) or the write's
 * completion latency (`clat`) when the write itself was synchronous (O_SYNC, sync=always).
 */
export const SyncOpLatency = z.object({
  source: z.enum(['sync', 'clat']),
  operation: z.enum(['fsync', 'fdatasync', 'write']),
  meanNs: z.number().nullable(),
  p50Ns: z.number().nullable(),
  p99Ns: z.number().nullable(),
  p999Ns: z.number().nullable(),
});
export type SyncOpLatency = z.infer<typeof SyncOpLatency>;

/** Load and I/O wait while fio ran, and the ARC's hit share during reads (null where unreadable). */
export const BenchSystemKpi = z.object({
  load1Max: z.number().nullable(),
  load1Mean: z.number().nullable(),
  iowaitPctMean: z.number().nullable(),
  arcHitPct: z.number().nullable(),
  /**
   * Share of all CPUs busy (neither idle nor in I/O wait) while fio ran, and how many CPUs there
   * were: a many-writer run near 100 % was bound by the host, not by a device. Absent in runs
   * stored before they were recorded.
   */
  cpuBusyPctMean: z.number().nullable().optional(),
  cpus: z.number().optional(),
});
export type BenchSystemKpi = z.infer<typeof BenchSystemKpi>;

export const BenchmarkSummary = z.object({
  id: z.string(),
  profile: z.string(),
  pool: z.string().nullable(),
  target: z.string(),
  startedAt: z.string(),
  status: z.enum(['completed', 'aborted', 'failed', 'refused']),
  /** 'property' = sync=always on the dataset; 'fio-sync' = fio --sync/--fsync fallback; 'async'. */
  syncMode: z.enum(['property', 'fio-sync', 'fio-fsync', 'async']),
  iodepth: z.number(),
  /**
   * fio threads the run started, one outstanding I/O each. Absent in runs stored before they were
   * threads: those used posixaio, which on Linux ran one descriptor's I/Os one at a time, so their
   * iodepth was no concurrency.
   */
  writers: z.number().optional(),
  blockSize: z.number(),
  readIops: z.number(),
  writeIops: z.number(),
  readBytesPerSec: z.number(),
  writeBytesPerSec: z.number(),
  writeLatency: LatencyPercentiles.nullable(),
  readLatency: LatencyPercentiles.nullable(),
  wallSeconds: z.number().nullable(),
  fioRuntimeSeconds: z.number().nullable(),
  /** Wall time and fio's runtime differ by more than 10 % (002's KPI). */
  wallTimeMismatch: z.boolean(),
  topologyFingerprint: z.string().nullable(),
  notes: z.array(z.string()).default([]),
  /** Optional: absent in runs stored before suites existed. */
  targetKind: z.enum(['dataset', 'zvol', 'path', 'device']).optional(),
  /** The target is ZFS (a dataset, a zvol, or a directory on ZFS): only then may wording name the ZIL. */
  zfsTarget: z.boolean().optional(),
  /** The effective sync setting and I/O mode of the run (a suite's matrix cell). */
  sync: z.enum(['always', 'standard', 'disabled']).optional(),
  io: z.enum(['direct', 'buffered']).optional(),
  suiteId: z.string().nullable().optional(),
  syncOpLatency: SyncOpLatency.nullable().optional(),
  /**
   * CPU time fio's threads spent per completed I/O (user + system, µs): the host's own share of
   * each write, in the writer's context, which no faster device removes. Null when fio reported no
   * CPU times; absent in runs stored before it was recorded.
   */
  cpuUsPerIo: z.number().nullable().optional(),
  /**
   * Bytes of the test file (a time-based run that writes more than this wrapped around and rewrote
   * blocks still dirty in memory). Absent in runs stored before it was recorded.
   */
  fileBytes: z.number().optional(),
  system: BenchSystemKpi.nullable().optional(),
  /** One server-authored sentence on how writes were made durable (or not) on this target. */
  syncText: z.string().nullable().optional(),
  /**
   * Raw-device runs: which device was measured (lsblk's serial and WWN at the time), so a forecast
   * can use the measurement for the same drive wherever its path moved. Absent for other targets
   * and for runs stored before it existed.
   */
  device: z.object({ serial: z.string().nullable(), wwn: z.string().nullable(), sizeBytes: z.number().nullable() }).nullable().optional(),
});
export type BenchmarkSummary = z.infer<typeof BenchmarkSummary>;
