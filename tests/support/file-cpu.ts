/**
 * Setup file: what each test file cost the machine in CPU seconds — its worker's own and those of the
 * children it waited for (a lab file's QEMU, Chromium, fio, tsc, buildah) — from when this setup file
 * is loaded (before the test file is imported) to the end of its last hook. One line per file,
 * appended to ZFS_ADVISOR_TEST_CPU_LOG (vitest.config.ts) for the timing table (timing-table.ts).
 */
import { appendFileSync } from 'node:fs';
import { afterAll } from 'vitest';
import { cpuSeconds } from '../../lab/proc-cpu.ts';

const start = cpuSeconds('self', { children: true });
// Registered before the test file's own hooks, so it runs after them (vitest runs after-hooks in reverse).
// eslint-disable-next-line no-empty-pattern
afterAll(({}, suite) => {
  const log = process.env.ZFS_ADVISOR_TEST_CPU_LOG;
  const used = cpuSeconds('self', { children: true }) - start;
  if (!log || !Number.isFinite(used)) return;
  const file = 'filepath' in suite ? String(suite.filepath) : suite.name;
  appendFileSync(log, `${used.toFixed(1)}\t${file}\n`);
});
