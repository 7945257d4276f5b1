/** Shared inputs for the report tests: demo and fixture snapshots assessed at a fixed time. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assess } from '../../server/src/assess/assess.ts';
import { DEMO_DIR, loadSnapshotInventory, type LoadedInventory } from '../../server/src/gather/load.ts';
import { reportBenchmarks } from '../../server/src/report/benchmarks.ts';
import type { ReportInput } from '../../server/src/report/render.ts';

export const GENERATED_AT = '2025-01-01T12:00:00.000Z';
export const APP_VERSION_FOR_TESTS = '0.0.0-test';
export const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'report');
export const REDACTION_SNAPSHOT = join(FIXTURES, 'redaction-snapshot');

export const benchHistory = (): unknown[] => JSON.parse(readFileSync(join(FIXTURES, 'bench-history.json'), 'utf8')) as unknown[];

export async function loadDemo(name: '000-hdd-mirror-optane' | '001-raidz2-12disk'): Promise<LoadedInventory> {
  return loadSnapshotInventory(join(DEMO_DIR, name), true);
}

/** What the CLI and the API pass to renderReport, at a fixed time and version. */
export function reportInput(loaded: LoadedInventory, benchmarks: unknown[] = []): ReportInput {
  const summaries = reportBenchmarks(benchmarks).benchmarks.map((b) => b.summary);
  const { assessment, optane } = assess(loaded.inventory, { Benchmarks: summaries.length ? summaries : undefined }, new Date(GENERATED_AT));
  return {
    inventory: loaded.inventory, raw: loaded.raw, assessment, optane, benchmarks,
    appVersion: APP_VERSION_FOR_TESTS, ruleCatalogVersion: assessment.ruleCatalogVersion, generatedAt: GENERATED_AT,
  };
}
