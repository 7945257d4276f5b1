/**
 * Issue 35 §3, played by a real unprivileged account against the root service: while size walks of
 * its own directory (inside the operator's place) run through the API, it swaps a directory of that
 * tree — and, for the second target, a directory above it — for a symlink to a root-only directory,
 * again and again. The walks go from a descriptor of the checked place (opened O_DIRECTORY|
 * O_NOFOLLOW, re-judged where it really is) and open every directory below it O_NOFOLLOW relative
 * to its parent, so no walk counts a byte of the root-only directory, and no error example names it.
 * Before this, a walk that read the swapped directory by name measured it (the test fails on that code within a dozen walks).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { canPlayLocalUser, createLocalUser, type LocalUser } from './support/local-user.ts';

const SWAP = join(import.meta.dirname, 'support', 'swap-dirs.mjs');
const live = canPlayLocalUser();
const dirs: string[] = [];
const tmp = (p: string, mode: number) => { const d = realpathSync(mkdtempSync(join(tmpdir(), p))); chmodSync(d, mode); dirs.push(d); return d; };
const SECRET_FILE_BYTES = 64 * 1024 * 1024;

let user: LocalUser;
let server: RunningServer;
let scratch: string;
let secret: string;

/** A tree the account owns: NAME/{a,b,c}/d000..d009, each with 20 small files (at most 100 bytes). */
function ownTree(parent: string, name: string): string {
  const top = join(parent, name);
  mkdirSync(top);
  for (const mid of ['a', 'b', 'c']) {
    mkdirSync(join(top, mid));
    for (let d = 0; d < 10; d++) {
      const sub = join(top, mid, `d${String(d).padStart(3, '0')}`);
      mkdirSync(sub);
      for (let f = 0; f < 20; f++) writeFileSync(join(sub, `f${f}`), 'x'.repeat(f * 5));
      chownSync(sub, user.uid, user.gid);
    }
    chownSync(join(top, mid), user.uid, user.gid);
  }
  chownSync(top, user.uid, user.gid);
  return top;
}

beforeAll(async () => {
  if (!live) return;
  user = await createLocalUser();
  scratch = tmp('zfsa-sizes-place-', 0o1777);
  secret = tmp('zfsa-sizes-secret-', 0o700);
  // Shaped like the account's tree, so a walk led there finds what it looks for (b, …).
  for (const name of ['b', 'd000', 'd001', 'd002', 'd003', 'd004', 'd005', 'd006', 'd007', 'd008', 'd009']) {
    const sub = join(secret, name);
    mkdirSync(sub);
    for (let f = 0; f < 2; f++) { const p = join(sub, `SECRETFILE${f}`); writeFileSync(p, ''); truncateSync(p, SECRET_FILE_BYTES); }
  }
  const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(tmp('zfsa-sizes-data-', 0o700), 'd'), demo: false, zfs: false, noDemo: true, uiDir: null, assessOnStart: false, logSink: () => {}, sizesAllow: [scratch] });
  if (!r.ok) throw new Error(r.message);
  server = r.server;
  await fetch(new URL('api/hosts', server.url), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ kind: 'local', name: 'here' }) });
}, 60_000);
afterAll(async () => {
  await server?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
  await user?.remove();
});

async function walk(path: string): Promise<{ status: number; record?: { status: string; histogram: { totalBytes: number } | null; stats: { errorExamples?: string[]; mountPointExamples?: string[] } | null; message: string | null } }> {
  const res = await fetch(new URL('api/hosts/here/sizes', server.url), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ path }) });
  if (res.status !== 202) return { status: res.status };
  const id = ((await res.json()) as { id: number }).id;
  for (;;) {
    const r = (await (await fetch(new URL(`api/sizes/${id}`, server.url))).json()) as NonNullable<Awaited<ReturnType<typeof walk>>['record']>;
    if (r.status !== 'running') return { status: 202, record: r };
    await new Promise((x) => setTimeout(x, 50));
  }
}

describe.runIf(live)('size walks while the account swaps directories for links to a root-only one', () => {
  it('no walk counts the root-only directory or names it, whether a directory inside the tree or above the target is swapped', async () => {
    const mine = join(scratch, 'mine');
    mkdirSync(mine);
    chownSync(mine, user.uid, user.gid);
    ownTree(mine, 'tree');
    const deep = ownTree(mine, 'upper');
    const stop = join(scratch, 'stop');
    const runs: { target: string; swapped: string }[] = [
      { target: join(mine, 'tree'), swapped: 'a' }, // a directory inside the walked tree
      { target: join(deep, 'b'), swapped: 'upper' }, // a directory above the target
    ];
    const outcomes: string[] = [];
    for (const { target, swapped } of runs) {
      const parent = swapped === 'upper' ? mine : target;
      if (existsSync(stop)) rmSync(stop);
      const attacker = user.run(['node', SWAP, parent, swapped, secret, stop], { timeoutMs: 120_000 });
      try {
        for (let i = 0; i < 12; i++) {
          const r = await walk(target);
          if (r.status !== 202) { outcomes.push(String(r.status)); continue; }
          const rec = r.record!;
          outcomes.push(rec.status);
          expect(rec.histogram?.totalBytes ?? 0, JSON.stringify(rec.stats)).toBeLessThan(SECRET_FILE_BYTES);
          const words = JSON.stringify([rec.stats, rec.message, rec.histogram]);
          expect(words).not.toContain(secret);
          expect(words).not.toMatch(/SECRET/);
          expect(words).not.toMatch(/\/proc\/\d+\/fd/);
        }
      } finally {
        writeFileSync(stop, '');
        expect(Number((await attacker).stdout.trim())).toBeGreaterThan(0); // the attack really ran
      }
    }
    // Every walk ended one way or another: measured (the real tree, or with the swapped entry as an
    // error), or refused when the target itself resolved outside at the moment it was opened.
    expect(outcomes.every((o) => ['completed', '400', '403'].includes(o)), outcomes.join(' ')).toBe(true);
    expect(outcomes.filter((o) => o === 'completed').length).toBeGreaterThan(0);
  }, 180_000);
});
