/**
 * A fake OpenZFS platform for the zvol path, which this machine cannot run for real (zfs-fuse has
 * no zvols). `zpool`/`zfs` commands are answered from a small in-memory pool; a zvol is a sparse
 * regular file at <root>/dev/zvol/POOL/NAME and a dataset a directory under <root>/mnt. Every
 * command is recorded. fio is handed to the REAL runner, so the fio command lines under test are
 * the ones a real run executes, against the file standing in for /dev/zdN.
 */
import { mkdirSync, rmSync, existsSync, truncateSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runStreaming, type CommandResult, type RunOptions, type StreamOptions } from '../../server/src/exec/runner.ts';
import type { BenchExec } from '../../server/src/bench/exec.ts';

export interface FakeZfs extends BenchExec {
  calls: string[][];
  root: string;
  /** Names currently existing (datasets and zvols). */
  existing(): string[];
}

const STATUS = (pool: string) => `  pool: ${pool}\n state: ONLINE\nconfig:\n\n\tNAME        STATE     READ WRITE CKSUM\n\t${pool}        ONLINE       0     0     0\n\t  mirror-0  ONLINE       0     0     0\n\t    sda     ONLINE       0     0     0\n\t    sdb     ONLINE       0     0     0\n\nerrors: No known data errors\n`;

export function fakeZfs(root: string, pool: string): FakeZfs {
  const made = new Map<string, { kind: 'volume' | 'filesystem'; path: string; props: Record<string, string> }>();
  const calls: string[][] = [];
  const res = (program: string, args: string[], exitCode: number, stdout = '', stderr = ''): CommandResult =>
    ({ program, args, exitCode, signal: null, stdout, stderr, durationMs: 1, error: null });

  function answer(program: string, args: string[]): CommandResult {
    const a = args.join(' ');
    if (program === 'zpool' && args[0] === 'list') return res(program, args, 0, `${pool}\t10737418240\t1073741824\t9663676416\tONLINE\n`);
    if (program === 'zpool' && args[0] === 'status') return res(program, args, 0, STATUS(pool));
    if (program === 'zpool' && args[0] === 'iostat') return res(program, args, 2, '', 'invalid option (fake platform)');
    if (program !== 'zfs') return res(program, args, 127, '', `${program}: not on the fake platform`);
    if (a === `get -H -p -o value available ${pool}`) return res(program, args, 0, '8589934592\n');
    if (a === `get -H -o value sync ${pool}`) return res(program, args, 0, 'standard\n');
    if (args[0] === 'create') {
      const name = args.at(-1)!;
      const props: Record<string, string> = {};
      for (let i = 1; i < args.length - 1; i++) if (args[i] === '-o') { const [k, v] = args[++i]!.split('='); props[k!] = v!; }
      const vi = args.indexOf('-V');
      if (vi >= 0) {
        const path = join(root, 'dev', 'zvol', name);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, '');
        truncateSync(path, Number(args[vi + 1]));
        made.set(name, { kind: 'volume', path, props: { ...props, volsize: args[vi + 1]! } });
      } else {
        const path = join(root, 'mnt', name);
        mkdirSync(path, { recursive: true });
        made.set(name, { kind: 'filesystem', path, props: { recordsize: '131072', ...props } });
      }
      return res(program, args, 0);
    }
    const name = args.at(-1)!;
    const ds = made.get(name);
    if (args[0] === 'get' && args.includes('mountpoint')) return ds ? res(program, args, 0, `${ds.path}\n`) : res(program, args, 1, '', 'dataset does not exist');
    if (args[0] === 'get') return ds ? res(program, args, 0, Object.entries(ds.props).map(([k, v]) => `${k}\t${v}`).join('\n')) : res(program, args, 1, '', 'dataset does not exist');
    if (args[0] === 'list') return ds ? res(program, args, 0, `${name}\n`) : res(program, args, 1, '', `cannot open '${name}': dataset does not exist`);
    if (args[0] === 'destroy') {
      if (!ds) return res(program, args, 1, '', 'dataset does not exist');
      rmSync(ds.path, { recursive: true, force: true });
      made.delete(name);
      return res(program, args, 0);
    }
    return res(program, args, 1, '', `unsupported on the fake platform: zfs ${a}`);
  }

  return {
    calls, root,
    zvolDevDir: join(root, 'dev', 'zvol'),
    existing: () => [...made.keys()].filter((n) => existsSync(made.get(n)!.path)),
    run: async (program: string, args: string[], _o?: RunOptions) => { calls.push([program, ...args]); return answer(program, args); },
    stream: async (program: string, args: string[], o?: StreamOptions) => {
      calls.push([program, ...args]);
      if (program === 'fio') return runStreaming('fio', args, o);
      return answer(program, args);
    },
  };
}
