/**
 * `zfs-advisor start` — what `npm start` runs: `serve` with the defaults (127.0.0.1:8080, data in
 * /var/lib/zfs-advisor for root or ~/.local/state/zfs-advisor; `zfs-advisor info` says which), the demo snapshot when this
 * machine has no ZFS (said so), and the URL printed. Extra options are passed on to `serve`, and
 * so is its environment (ZFS_ADVISOR_BENCH_DIR for container mode, ZFS_ADVISOR_NO_DEMO=1).
 */
import type { CliCommand } from '../command.ts';
import { runServe } from './serve.ts';

const start: CliCommand = {
  summary: 'Start the app on this machine with the defaults (what `npm start` runs)',
  run: (args, io) => runServe(args, io, { host: '127.0.0.1', port: Number(process.env.ZFS_ADVISOR_PORT ?? 8080) }),
};
export default start;
