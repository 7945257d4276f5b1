/**
 * The system data directory (/var/lib/zfs-advisor) belongs to the installed service: commands run
 * from this source checkout as root, with no $ZFS_ADVISOR_DATA_DIR (what `npm start` and a
 * developer's `npx zfs-advisor` do), use the user's state directory instead, say so in `info`,
 * and leave /var/lib/zfs-advisor as it was (not even created). The whole test run is checked the
 * same way by tests/support/summary-reporter.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SYSTEM_DATA_DIR } from '../../server/src/data-dir.ts';
import { stateChanges, systemDataDirState } from '../support/system-data-dir.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'server', 'bin', 'zfs-advisor.js');
const home = mkdtempSync(join(tmpdir(), 'zfsa-sysdir-home-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** The environment of a root shell: no test data directory, no XDG state, HOME a fresh directory. */
function rootEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home };
  delete env.ZFS_ADVISOR_DATA_DIR;
  delete env.XDG_STATE_HOME;
  return env;
}

function run(args: string[], until?: RegExp): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: rootEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; if (until?.test(out)) p.kill('SIGTERM'); });
    p.stderr.setEncoding('utf8').on('data', (d: string) => { err += d; });
    p.on('error', reject);
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

describe('the system data directory', () => {
  const root = process.getuid?.() === 0;
  if (!root && process.env.CI === 'true') throw new Error('this check needs root under CI=true (the rule it checks is the one for root)');

  it.runIf(root)('info, start and a demo report from this checkout as root keep out of /var/lib/zfs-advisor', async () => {
    const before = systemDataDirState();
    const info = await run(['info', '--json']);
    expect(info.code, info.err).toBe(0);
    const i = JSON.parse(info.out) as { dataDir: string; dataDirSource: string; dataDirWhy: string; dataDirRule: string; sourceCheckout: boolean };
    expect(i.sourceCheckout).toBe(true);
    expect(i.dataDir).toBe(join(home, '.local', 'state', 'zfs-advisor'));
    expect(i.dataDirWhy).toContain('source checkout');
    expect(i.dataDirRule).toContain(SYSTEM_DATA_DIR);
    const text = await run(['info']);
    expect(text.out).toMatch(/^the rule: +--data-dir, else \$ZFS_ADVISOR_DATA_DIR, else \/var\/lib\/zfs-advisor for root running the installed program/m);

    // `start` opens the store and adds its hosts; stopped once it announced its URL.
    const start = await run(['start', '--port', '0', '--no-demo'], /running at http/);
    expect(start.out).toMatch(/running at http/);
    expect(existsSync(join(home, '.local', 'state', 'zfs-advisor', 'zfs-advisor.db'))).toBe(true);
    const report = await run(['report', '--demo', '--format', 'json']);
    expect(report.code, report.err).toBe(0);
    expect(stateChanges(before, systemDataDirState())).toEqual([]);
  }, 120_000);
});
