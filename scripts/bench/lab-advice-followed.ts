/**
 * `npm run bench -- lab-advice-followed`: the Optane advice followed on real OpenZFS in the lab
 * guest (tests/lab/advice-followed.lab-bench.ts), forecast gain against measured gain for six
 * workloads and two log candidates. Needs root, QEMU and the lab image (lab/build-image.sh builds it
 * on first use: about 15 minutes); the run itself takes about 15 minutes on two cores, and it
 * measures only once no other test file of the run is running. Its section is the one the test
 * writes; the raw numbers stay in ZFS_ADVISOR_LAB_RESULTS (a temp directory) for
 * tests/lab/reforecast.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export default async function labAdviceFollowed(): Promise<string> {
  if (process.getuid?.() !== 0) throw new Error('needs root (the lab guest\'s image and QEMU): run it as root');
  const out = process.env.ZFS_ADVISOR_LAB_RESULTS ?? mkdtempSync(join(tmpdir(), 'zfs-advisor-advice-followed-'));
  const r = spawnSync(process.execPath, [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'tests/lab/vitest.lab-bench.config.ts'], {
    cwd: root, env: { ...process.env, ZFS_ADVISOR_LAB_RESULTS: out }, stdio: ['ignore', 'inherit', 'inherit'],
  });
  const section = join(out, 'section.md');
  if (!existsSync(section)) throw new Error(`the lab run ended (exit ${r.status ?? r.signal}) before it measured; its output is above, its files in ${out}`);
  const verdict = r.status === 0 ? 'Every workload within ±35 %.' : 'Not every workload within ±35 % (the table says which); the run\'s output is above.';
  return `${readFileSync(section, 'utf8').trim()}\n\n${verdict} Raw numbers, the capture and the stored runs: \`${out}\` (recompute with \`npx tsx tests/lab/reforecast.ts ${out}\`).`;
}
