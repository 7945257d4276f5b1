/**
 * Each test file gets its own directory for the host-wide benchmark lock (server/src/bench/host-lock.ts),
 * inherited by the CLIs and servers it starts. Test files run in parallel and several run real fio
 * benchmarks; with the machine's real lock they would refuse each other. tests/security/host-lock.test.ts
 * shares one directory between two processes on purpose, and checks the default locations.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.ZFS_ADVISOR_LOCK_DIR = mkdtempSync(join(tmpdir(), 'zfs-advisor-test-lock-'));
