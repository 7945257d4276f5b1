/**
 * The findings list, validated and serialised once per (host, newest assessment, acknowledgement
 * version, query) and then served as is: the UI and dashboards poll it, and validating and
 * serialising every finding on every request was most of its cost.
 *
 * Invalidation: a new assessment changes the newest assessment's id (and generation time, in
 * case SQLite reuses the id of a deleted row); acknowledging, withdrawing or deleting a host goes
 * through the API, which calls `invalidate(hostId)`. Nothing else writes acknowledgements.
 */
import type { PreparedJson } from './route.ts';

/** Distinct queries kept per host (severity × pool × status); beyond that the host starts over. */
const MAX_QUERIES_PER_HOST = 64;

interface HostEntry {
  /** Newest assessment and acknowledgement version the entries were built for. */
  stamp: string;
  byQuery: Map<string, PreparedJson>;
}

export interface FindingsCache {
  /** The cached answer for this host state and query, built (and kept) when absent. */
  get(hostId: string, assessment: { id: number; generatedAt: string } | null, query: Record<string, unknown>, build: () => PreparedJson): PreparedJson;
  /** Acknowledgements of the host changed (or the host was removed). */
  invalidate(hostId: string): void;
}

export function createFindingsCache(): FindingsCache {
  const hosts = new Map<string, HostEntry>();
  const ackVersions = new Map<string, number>();
  return {
    get(hostId, assessment, query, build) {
      const stamp = `${assessment ? `${assessment.id}@${assessment.generatedAt}` : 'none'}#${ackVersions.get(hostId) ?? 0}`;
      let entry = hosts.get(hostId);
      if (!entry || entry.stamp !== stamp) {
        entry = { stamp, byQuery: new Map() };
        hosts.set(hostId, entry);
      }
      const key = JSON.stringify(Object.keys(query).sort().map((k) => [k, query[k]]));
      let hit = entry.byQuery.get(key);
      if (!hit) {
        hit = build();
        if (entry.byQuery.size >= MAX_QUERIES_PER_HOST) entry.byQuery.clear();
        entry.byQuery.set(key, hit);
      }
      return hit;
    },
    invalidate(hostId) {
      ackVersions.set(hostId, (ackVersions.get(hostId) ?? 0) + 1);
      hosts.delete(hostId);
    },
  };
}
