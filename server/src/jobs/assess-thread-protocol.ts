/**
 * What the main thread and the assessment worker (assess-worker.ts) exchange. Everything large
 * crosses as bytes already compressed for the store (transferred, not copied); the assessment
 * itself crosses once, already validated, so the main thread never re-parses it.
 */
import type { Artifacts } from '../model/artifacts.ts';
import type { Assessment } from '../model/finding.ts';
import type { Inventory } from '../model/inventory.ts';
import type { Counts } from '../model/jobs.ts';

export type ThreadRequest =
  /** Collect in the worker: this host, the demo or a snapshot directory (gather/load.ts options). */
  | { kind: 'load'; load: { demo?: boolean; snapshot?: string }; extra: Partial<Artifacts> }
  /** Already collected (a remote host's API answers): only rules and packing run in the worker. */
  | { kind: 'inventory'; inventory: Inventory; raw: unknown; extra: Partial<Artifacts> };

export interface PackedFinding { fingerprint: string; ruleId: string; severity: string; pool: string | null; title: string; json: string }

export interface ThreadOutcome {
  snapshot: { capturedAt: string; sourceKind: string; demo: boolean; inventoryGz: Uint8Array; rawGz: Uint8Array | null };
  assessment: Assessment;
  optane: unknown;
  counts: Counts;
  assessmentGz: Uint8Array;
  findings: PackedFinding[];
}

export type ThreadReply = { ok: true; outcome: ThreadOutcome } | { ok: false; name: string; message: string };
