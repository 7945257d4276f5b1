/**
 * Issue 20 benchmark: start-up of the `zfs-advisor` command, side by side with `node -e 0` in the
 * same run. Each round runs every case once, in turn (alternating, so a change of load on this
 * shared machine hits all cases alike); medians over ROUNDS. Wall time is measured around the
 * process; peak RSS is GNU time's %M of the node process. Targets: `zfs-advisor --version`
 * ≤ 2× `node -e 0` and ≤ 60 MiB.
 *
 * The bundle is rebuilt first (dist/cli.mjs, what server/bin/zfs-advisor.js runs when fresh);
 * ZFS_ADVISOR_TSX=1 forces the TypeScript sources through tsx, for comparison.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain .mjs build script without type declarations
import { buildServer, bundleIsFresh } from '../build-server.mjs';
import { timedWithRss } from './processes.ts';

const ROUNDS = Number(process.env.CLI_BENCH_ROUNDS ?? 21);
const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'server', 'bin', 'zfs-advisor.js');

interface Case { label: string; args: string[]; env?: Record<string, string> }

const median = (xs: number[]): number => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]!; };

const once = (c: Case) => timedWithRss([process.execPath, ...c.args], { env: { ...process.env, ...c.env } });

export default async function cliBench(): Promise<string> {
  await buildServer();
  if (!bundleIsFresh()) throw new Error('the bundle is not fresh right after building it');
  const empty = mkdtempSync(join(tmpdir(), 'bench-cli-'));
  const cases: Case[] = [
    { label: '`node -e 0` (floor)', args: ['-e', '0'] },
    { label: '`zfs-advisor --version` (bundle)', args: [BIN, '--version'] },
    { label: '`zfs-advisor sizes --help` (bundle)', args: [BIN, 'sizes', '--help'] },
    { label: '`zfs-advisor sizes EMPTY_DIR` (bundle)', args: [BIN, 'sizes', empty] },
    { label: '`zfs-advisor --version` (tsx, ZFS_ADVISOR_TSX=1)', args: [BIN, '--version'], env: { ZFS_ADVISOR_TSX: '1' } },
    { label: '`zfs-advisor sizes EMPTY_DIR` (tsx)', args: [BIN, 'sizes', empty], env: { ZFS_ADVISOR_TSX: '1' } },
  ];
  try {
    const loadStart = loadavg().map((x) => x.toFixed(1)).join(' ');
    for (const c of cases) await once(c); // warm the page cache
    const ms = cases.map(() => [] as number[]);
    const rss = cases.map(() => [] as number[]);
    for (let i = 0; i < ROUNDS; i++) {
      for (const [k, c] of cases.entries()) {
        const r = await once(c);
        ms[k]!.push(r.ms);
        rss[k]!.push(r.rssMiB);
      }
    }
    const floor = median(ms[0]!);
    const rows = cases.map((c, k) => `| ${c.label} | ${median(ms[k]!).toFixed(0)} | ${(median(ms[k]!) / floor).toFixed(2)}× | ${median(rss[k]!).toFixed(1)} | ${Math.max(...rss[k]!).toFixed(1)} |`);
    const v = median(ms[1]!) / floor;
    const vRss = Math.max(...rss[1]!);
    return [
      '## cli: start-up of the `zfs-advisor` command (issue 20)',
      '',
      `${ROUNDS} rounds, each running every case once in turn; medians. Wall time measured around the process (GNU \`/usr/bin/time\` included for every case alike), peak RSS is its %M. ` +
        `The machine is shared with other engineers' builds and tests (load average at start ${loadStart}, at end ${loadavg().map((x) => x.toFixed(1)).join(' ')}): single runs vary by ±50 %, the alternation and medians keep the ratios comparable.`,
      '',
      '| command | median ms | vs `node -e 0` | median RSS MiB | max RSS MiB |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      `Targets: \`zfs-advisor --version\` ≤ 2× \`node -e 0\` — ${v <= 2 ? 'met' : 'NOT met'} (${v.toFixed(2)}×); ≤ 60 MiB — ${vRss <= 60 ? 'met' : 'NOT met'} (max ${vRss.toFixed(1)} MiB).`,
      'The bundle is dist/cli.mjs (esbuild, built by `npm ci` through `prepare`, by `npm start` and in the .deb); server/bin/zfs-advisor.js checks it is newer than every source (one stat per source file) and otherwise runs the sources through tsx.',
    ].join('\n');
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}
