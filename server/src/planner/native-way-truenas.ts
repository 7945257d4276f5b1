/**
 * What each TrueNAS release accepts when a plan is sent to it (issue 36 §1), read in the
 * platform's own source (the fixtures of tests/planner/truenas-platform.test.ts name each commit):
 *
 * - `midclt call`'s job flag. CORE 13.3 (middleware `client/client.py`) and SCALE 24.10
 *   (truenas/api_client release/24.10.2.4) define `-j/--job` with `type=bool`: it takes a value, and
 *   `-job` parses as `-j ob` (true). From 25.04 (api_client release/25.04.2.6, 25.10.6, stable/26,
 *   master = 27) it is `action='store_true'`: `-job` stops with "argument -j/--job: ignored explicit
 *   argument 'ob'" and `-j` / `--job` is the spelling.
 * - The transports: REST (`/api/v2.0`) up to 25.10, removed in 26.04 (middleware b7f13f74c7);
 *   JSON-RPC 2.0 over `wss://HOST/api/current` from 25.04.
 * - The model of `pool.update`: `id` an integer, then `{topology}`; `PoolUpdateArgs` is first in
 *   `api/v25_10_0/pool.py`; up to 25.04 the method declares `@accepts(Int('id'), Patch(...))` in
 *   `plugins/pool_/pool.py` (CORE: `plugins/pool.py`).
 * - From 26 (middleware stable/26 `plugins/pool_/pool.py`, `__common_validation`): "A special vdev
 *   with no redundancy is not allowed when data vdevs are redundant" — for the vdevs being added
 *   and the pool's existing special vdevs alike; `force_topology` bypasses it (not on Enterprise).
 * Pure.
 */
import type { Citation } from '../model/finding.ts';

export interface TrueNasRelease {
  /** CORE (FreeBSD, 13.x and FreeNAS before it) or SCALE / Community Edition (Linux, 20.x on). */
  line: 'core' | 'scale';
  /** Year-based major and minor (25.04 → 25, 4); null when the version was not read. */
  major: number | null;
  minor: number | null;
  /** As reported (system.info `version`, /etc/version), or null. */
  text: string | null;
}

/** `TrueNAS-13.3-U1.2`, `FreeNAS-11.2-U8`, `TrueNAS-SCALE-24.10.2`, `25.04.2.4`, `26.0.0-BETA.1` → the release. */
export function trueNasRelease(distribution: 'truenas-core' | 'truenas-scale', version: string | null | undefined): TrueNasRelease {
  const text = version?.trim() || null;
  const m = text ? /(\d+)\.(\d+)/.exec(text) : null;
  const major = m ? Number(m[1]) : null;
  const minor = m ? Number(m[2]) : null;
  // CORE numbers its releases 11–13; SCALE from 20.12 on.
  const line = distribution === 'truenas-core' || (major !== null && major < 20) ? 'core' : 'scale';
  return { line, major, minor, text };
}

const atLeast = (r: TrueNasRelease, major: number, minor = 0): boolean | null =>
  r.major === null || r.minor === null ? null : r.major > major || (r.major === major && r.minor >= minor);

/** The release's name as its users write it: "TrueNAS CORE 13.3", "TrueNAS 25.04", "TrueNAS SCALE (version not read)". */
export function releaseName(r: TrueNasRelease): string {
  if (r.line === 'core') return `TrueNAS CORE${r.major !== null ? ` ${r.major}.${r.minor}` : ''}`;
  if (r.major === null) return 'TrueNAS SCALE';
  return `TrueNAS ${r.major < 25 ? 'SCALE ' : ''}${r.major}.${String(r.minor).padStart(2, '0')}`;
}

/** The `midclt call` job flag this release's client parses; null version → the current spelling. */
export function midcltJobFlag(r: TrueNasRelease): '-job' | '-j' {
  if (r.line === 'core') return '-job';
  return atLeast(r, 25, 4) === false ? '-job' : '-j';
}

export interface TrueNasTransports {
  /** JSON-RPC 2.0 over wss://HOST/api/current (25.04+); null when unknown (printed with its release range). */
  jsonRpc: boolean | null;
  /** REST /api/v2.0 (CORE, SCALE up to 25.10; removed in 26.04). */
  rest: boolean | null;
}

export function transports(r: TrueNasRelease): TrueNasTransports {
  if (r.line === 'core') return { jsonRpc: false, rest: true };
  const v2504 = atLeast(r, 25, 4);
  const v26 = atLeast(r, 26, 0);
  return { jsonRpc: v2504, rest: v26 === null ? null : !v26 };
}

/** The heading of the API block: the transports this release speaks, said for it. */
export function apiHeading(r: TrueNasRelease): string {
  const name = releaseName(r);
  const t = transports(r);
  if (r.line === 'core') return `Through the ${name} API (REST, https://HOST/api/v2.0; or midclt on the box)`;
  if (t.jsonRpc === null) return `Through the ${name} API (JSON-RPC 2.0 over wss://HOST/api/current from 25.04; REST up to 25.10, removed in 26; or midclt on the box — its job flag is -j from 25.04, -job on 24.10)`;
  if (!t.jsonRpc) return `Through the ${name} API (REST, https://HOST/api/v2.0; or midclt on the box)`;
  if (t.rest) return `Through the ${name} API (JSON-RPC 2.0 over wss://HOST/api/current, or REST https://HOST/api/v2.0; or midclt on the box)`;
  return `Through the ${name} API (JSON-RPC 2.0 over wss://HOST/api/current — ${name} has no REST API; or midclt on the box)`;
}

const MW = 'https://github.com/truenas/middleware/blob';

/** Where this release's `pool.update` model is written. */
export function poolUpdateCitation(r: TrueNasRelease): Citation {
  if (r.line === 'core') {
    return { source: 'TrueNAS middleware 13.3: pool.update (@accepts(Int(\'id\'), Patch(\'pool_create\', \'pool_update\', …)))', locator: 'plugins/pool.py', url: `${MW}/TN-13.3-U1.2/src/middlewared/middlewared/plugins/pool.py` };
  }
  if (atLeast(r, 25, 10) === false) {
    const branch = atLeast(r, 25, 4) ? 'release/25.04.2.6' : 'release/24.10.2.4';
    return { source: `TrueNAS middleware ${branch.slice(8)}: pool.update (@accepts(Int('id'), Patch('pool_create', 'pool_update', …)))`, locator: 'plugins/pool_/pool.py', url: `${MW}/${branch}/src/middlewared/middlewared/plugins/pool_/pool.py` };
  }
  // 25.10 and unknown: the first API folder with PoolUpdateArgs; 26 and 27 have their own.
  const folder = r.major !== null && r.major >= 27 ? 'v27_0_0' : r.major === 26 ? 'v26_0_0' : 'v25_10_0';
  const ref = r.major !== null && r.major >= 27 ? 'master' : r.major === 26 ? 'stable/26' : 'release/25.10.0';
  return { source: 'TrueNAS middleware: pool.update (PoolUpdateArgs: id an integer, data {topology})', locator: `api/${folder}/pool.py`, url: `${MW}/${ref}/src/middlewared/middlewared/api/${folder}/pool.py` };
}

export const SPECIAL_REFUSAL = 'A special vdev with no redundancy is not allowed when data vdevs are redundant.';

/** Whether this release refuses a special vdev without redundancy under redundant data vdevs: true from 26, null when unknown. */
export function refusesSingleSpecial(r: TrueNasRelease): boolean | null {
  if (r.line === 'core') return false;
  return atLeast(r, 26, 0);
}

export const REFUSAL_CITATION: Citation = {
  source: 'TrueNAS middleware 26: pool.create/pool.update topology validation',
  locator: 'plugins/pool_/pool.py (stable/26 @ c61eb9a4)',
  url: `${MW}/stable/26/src/middlewared/middlewared/plugins/pool_/pool.py`,
};
