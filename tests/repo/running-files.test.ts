/**
 * The harness's running-files markers (tests/support/running-files.ts): a measurement that must have
 * the host to itself waits on them, so a marker that is never seen, or never goes, would let it
 * measure beside the suite or hang it.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { markRunning, othersRunning, runningDir, waitUntilAlone } from '../support/running-files.ts';

it('this file is marked as running by the setup file, under its own path', () => {
  expect(othersRunning('/nowhere')).toContain(import.meta.filename);
});

describe('running-files markers', () => {
  let dir: string;
  let saved: string | undefined;
  beforeEach(() => {
    saved = process.env.ZFS_ADVISOR_TEST_RUNNING_DIR;
    dir = mkdtempSync(join(tmpdir(), 'zfs-advisor-running-test-'));
    process.env.ZFS_ADVISOR_TEST_RUNNING_DIR = dir;
  });
  afterEach(() => {
    process.env.ZFS_ADVISOR_TEST_RUNNING_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('lists the other running files, not the asking one, and forgets a file once unmarked', () => {
    expect(runningDir()).toBe(dir);
    const unmarkA = markRunning('/repo/tests/a.test.ts');
    const unmarkB = markRunning('/repo/tests/b.test.ts');
    expect(othersRunning('/repo/tests/a.test.ts')).toEqual(['/repo/tests/b.test.ts']);
    expect(othersRunning('/repo/tests/c.test.ts').sort()).toEqual(['/repo/tests/a.test.ts', '/repo/tests/b.test.ts']);
    unmarkB();
    expect(othersRunning('/repo/tests/a.test.ts')).toEqual([]);
    unmarkA();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('does not count a file whose process died without unmarking it, nor a half-written marker', () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(join(dir, 'crashed.json'), JSON.stringify({ file: '/repo/tests/crashed.test.ts', pid: Number(dead.stdout) }));
    writeFileSync(join(dir, 'partial.json'), '{"file":"/repo/tes');
    expect(othersRunning('/repo/tests/a.test.ts')).toEqual([]);
  });

  it('waits until the others end, and gives up after its limit saying which still run', async () => {
    const unmark = markRunning('/repo/tests/b.test.ts');
    setTimeout(unmark, 300);
    const done = await waitUntilAlone('/repo/tests/a.test.ts', 10_000, 50);
    expect(done.stillRunning).toEqual([]);
    expect(done.waitedMs).toBeGreaterThanOrEqual(250);

    const stuck = markRunning('/repo/tests/stuck.test.ts');
    const gaveUp = await waitUntilAlone('/repo/tests/a.test.ts', 200, 50);
    expect(gaveUp.stillRunning).toEqual(['/repo/tests/stuck.test.ts']);
    stuck();
  });
});
