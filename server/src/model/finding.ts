/**
 * Findings: what a rule says about one subject, with the evidence, the why, a citation and the
 * exact command a person would run. The app prints commands; it never runs a pool-changing one.
 */
import { z } from 'zod';

export const Severity = z.enum(['critical', 'warning', 'suggestion', 'info']);
export type Severity = z.infer<typeof Severity>;
export const SEVERITY_ORDER: Record<Severity, number> = { critical: 0, warning: 1, suggestion: 2, info: 3 };

export const RuleCategory = z.enum(['slog', 'special', 'redundancy', 'workload', 'capacity', 'health', 'device']);
export type RuleCategory = z.infer<typeof RuleCategory>;

/** A reference: one of the project's documents (by file name) or an OpenZFS man page/doc URL. */
export const Citation = z.object({
  source: z.string(),
  /** Section, fact number or quote locator, e.g. "A3" in zfs-facts.md or "QD1 table". */
  locator: z.string().nullable().default(null),
  url: z.string().nullable().default(null),
});
export type Citation = z.infer<typeof Citation>;

export const Subject = z.object({
  kind: z.enum(['host', 'pool', 'vdev', 'dataset', 'drive']),
  /** Pool name, `pool/vdev-name`, dataset name or drive id. */
  id: z.string(),
  pool: z.string().nullable().default(null),
});
export type Subject = z.infer<typeof Subject>;

export const Evidence = z.object({
  label: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
  unit: z.string().nullable().default(null),
});
export type Evidence = z.infer<typeof Evidence>;

export const Reversibility = z.enum(['yes', 'no', 'partly']);

/** One request to a platform's own API (server/src/planner/native-way.ts writes them). */
export const PlatformRequest = z.object({
  /** What the request does, one sentence. */
  purpose: z.string(),
  /** The middleware method, e.g. `pool.update`. */
  method: z.string(),
  /** Its parameters exactly as sent: JSON-RPC 2.0 `params` (TrueNAS 25.04+, wss://HOST/api/current) and `midclt call` arguments. */
  params: z.array(z.unknown()),
  /** The REST form for releases that have it (TrueNAS CORE, SCALE up to 25.10; removed in 26), or null. */
  rest: z.object({ method: z.enum(['GET', 'PUT', 'POST']), path: z.string(), body: z.unknown().nullable() }).nullable(),
  /** The same call from the TrueNAS shell through the middleware client (not zpool), in the spelling the release's midclt parses. */
  midclt: z.string(),
  /**
   * When the pool's id is not known: the index of the earlier request whose answer's `id` goes in
   * `params[0]` (then null: the JSON never carries a string where TrueNAS wants an integer).
   */
  poolIdFrom: z.number().int().nonnegative().nullable().optional(),
});
export type PlatformRequest = z.infer<typeof PlatformRequest>;

/**
 * How the platform itself changes the pool (TrueNAS: its UI or API, the shell only as a fallback;
 * Proxmox VE: the shell is its own way). Absent on plain Linux/FreeBSD hosts.
 */
export const NativeWay = z.object({
  platform: z.enum(['truenas-core', 'truenas-scale', 'proxmox-ve']),
  /** As people write it: "TrueNAS CORE", "TrueNAS SCALE", "Proxmox VE". */
  platformName: z.string(),
  /** One sentence: which way is this platform's and why. */
  summary: z.string(),
  /** The platform's UI, step by step (empty when it has no UI for this). */
  uiSteps: z.array(z.string()),
  /** API requests in order (empty when the platform has no API for this). */
  api: z.array(PlatformRequest),
  /** The shell commands of the plan: a fallback that bypasses the platform, its native way, or the only way. */
  shell: z.enum(['fallback', 'native', 'only']),
  shellWhy: z.string(),
  citations: z.array(Citation),
  /** TrueNAS: the release the requests are written for ("TrueNAS 25.10"; "TrueNAS SCALE" when the version was not read). */
  release: z.string().nullable().optional(),
  /** TrueNAS: the heading of the API block, naming the transports that release speaks. */
  apiHeading: z.string().nullable().optional(),
  /** TrueNAS: whether the release speaks JSON-RPC 2.0 (25.04+); null when the version was not read. */
  jsonRpc: z.boolean().nullable().optional(),
  /** What this release refuses of the plan, quoting it, and what the steps give instead; null when nothing. */
  refused: z.string().nullable().optional(),
});
export type NativeWay = z.infer<typeof NativeWay>;

export const Action = z.object({
  summary: z.string(),
  /** Exact commands, with /dev/disk/by-id paths where devices are named. Never executed by the app. */
  commands: z.array(z.string()),
  reversible: Reversibility,
  reversibleWhy: z.string(),
  /** On TrueNAS and Proxmox VE: the platform's own way, written after the rules ran (assess.ts). */
  native: NativeWay.nullable().optional(),
});
export type Action = z.infer<typeof Action>;

export const Confidence = z.enum(['high', 'medium', 'low']);
export type Confidence = z.infer<typeof Confidence>;
export type Reversibility = z.infer<typeof Reversibility>;

export const Finding = z.object({
  ruleId: z.string(),
  severity: Severity,
  title: z.string(),
  subject: Subject,
  evidence: z.array(Evidence),
  explanation: z.string(),
  action: Action.nullable(),
  citations: z.array(Citation),
  confidence: Confidence,
  /** Stable hash of ruleId + subject + evidence: an acknowledgement holds until this changes. */
  fingerprint: z.string(),
});
export type Finding = z.infer<typeof Finding>;

export const RuleStatus = z.enum(['fired', 'passed', 'not-applicable', 'needs-artifact', 'error']);
export type RuleStatus = z.infer<typeof RuleStatus>;

const RuleResultFields = {
  ruleId: z.string(),
  title: z.string(),
  category: RuleCategory,
  status: RuleStatus,
  /** Why it passed / did not apply / failed, in a sentence. */
  message: z.string().nullable(),
  missing: z.array(z.object({ artifact: z.string(), howToGet: z.string() })),
};

/** One rule's run with its findings (what `runRule` returns; rule tests read these). */
export const RuleRun = z.object({ ...RuleResultFields, findings: z.array(Finding) });
export type RuleRun = z.infer<typeof RuleRun>;

/**
 * One rule's result inside an assessment: its findings by fingerprint, in `Assessment.findings`
 * order. (Each finding is stored once: on a large host the findings are most of an assessment.)
 * Assessments stored before this had the findings here; they read as their fingerprints.
 */
export const RuleResult = z.preprocess(
  (v) => (v !== null && typeof v === 'object' && !('fingerprints' in v) && Array.isArray((v as { findings?: unknown }).findings)
    ? { ...v, fingerprints: ((v as { findings: { fingerprint?: unknown }[] }).findings).map((f) => f.fingerprint) }
    : v),
  z.object({ ...RuleResultFields, fingerprints: z.array(z.string()) }),
);
export type RuleResult = z.infer<typeof RuleResult>;

export const PoolSummary = z.object({
  pool: z.string(),
  counts: z.record(Severity, z.number()),
});

export const Assessment = z.object({
  generatedAt: z.string(),
  ruleCatalogVersion: z.string(),
  results: z.array(RuleResult),
  /** All findings of all rules, in the stable order: severity, pool, rule id, subject. */
  findings: z.array(Finding),
  summary: z.object({ counts: z.record(Severity, z.number()), pools: z.array(PoolSummary) }),
});
export type Assessment = z.infer<typeof Assessment>;
