/**
 * `zfs-advisor forecast [--snapshot DIR | --demo [NAME] | --inventory FILE] --pool POOL
 *   [--slog DEVICE | --slog-model "TEXT"] [--mirrored] [--rw randwrite|write] [--bs 4k|…|1m]
 *   [--iodepth N] [--numjobs N] [--sync always|fsync|none] [--json]`:
 * sync-write IOPS of a workload on a pool now and with a log device (server/src/forecast/).
 */
import type { CliCommand } from '../command.ts';
import { EXIT } from '../command.ts';
import { DEMO_SNAPSHOTS } from '../../gather/load.ts';
import { loadForAssessment, type LoadOptions } from '../../assess/load-inventory.ts';
import { artifactsFromInventory } from '../../model/artifacts.ts';
import { BLOCK_SIZES, ForecastRequest, renderForecast, runForecast } from '../../forecast/request.ts';

const USAGE = `usage: zfs-advisor forecast [--snapshot DIR | --demo [${DEMO_SNAPSHOTS.join('|')}] | --inventory FILE] --pool POOL
       [--slog DEVICE | --slog-model "MODEL TEXT"] [--mirrored] [--rw randwrite|write] [--bs ${Object.keys(BLOCK_SIZES).join('|')}]
       [--iodepth N] [--numjobs N] [--sync always|fsync|none] [--json]\n`;

type Parsed = { ok: true; load: LoadOptions; json: boolean; req: unknown } | { ok: false; message: string };

const VALUED = new Set(['--snapshot', '--inventory', '--pool', '--slog', '--slog-model', '--rw', '--bs', '--iodepth', '--numjobs', '--sync']);

function intArg(flag: string, v: string): number | string {
  if (!/^\d+$/.test(v)) return `${flag} takes a whole number, got "${v}"`;
  return Number(v);
}

export function parseForecastArgs(args: string[]): Parsed {
  const load: LoadOptions = {};
  const req: Record<string, unknown> = {};
  const workload: Record<string, unknown> = {};
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf('=');
    const [flag, inline] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    if (flag === '--json' && inline === undefined) { json = true; continue; }
    if (flag === '--mirrored' && inline === undefined) { req['mirrored'] = true; continue; }
    if (flag === '--demo') {
      load.demo = true;
      const name = inline ?? ((DEMO_SNAPSHOTS as readonly string[]).includes(args[i + 1] ?? '') ? args[++i] : undefined);
      if (name !== undefined) {
        if (!(DEMO_SNAPSHOTS as readonly string[]).includes(name)) return { ok: false, message: `--demo takes one of ${DEMO_SNAPSHOTS.join(', ')}` };
        load.demoName = name;
      }
      continue;
    }
    if (!VALUED.has(flag)) return { ok: false, message: `unknown option ${a}` };
    const v = inline ?? args[++i];
    if (v === undefined || v === '' || (inline === undefined && v.startsWith('--'))) return { ok: false, message: `${flag} needs a value` };
    switch (flag) {
      case '--snapshot': load.snapshot = v; break;
      case '--inventory': load.inventoryFile = v; break;
      case '--pool': req['pool'] = v; break;
      case '--slog': req['slog'] = v; break;
      case '--slog-model': req['slogModel'] = v; break;
      case '--rw': workload['rw'] = v; break;
      case '--sync': workload['sync'] = v; break;
      case '--bs': {
        const b = BLOCK_SIZES[v.toLowerCase()];
        if (b === undefined) return { ok: false, message: `--bs takes one of ${Object.keys(BLOCK_SIZES).join(', ')}` };
        workload['bs'] = b;
        break;
      }
      default: {
        const n = intArg(flag, v);
        if (typeof n === 'string') return { ok: false, message: n };
        workload[flag === '--iodepth' ? 'iodepth' : 'numjobs'] = n;
      }
    }
  }
  if ([load.snapshot, load.demo, load.inventoryFile].filter(Boolean).length > 1) return { ok: false, message: 'choose one of --snapshot, --demo and --inventory' };
  if (!req['pool']) return { ok: false, message: '--pool is required' };
  return { ok: true, load, json, req: { ...req, workload } };
}

const command: CliCommand = {
  summary: 'Sync-write IOPS of a pool now and with a given SLOG device (calibrated model, with ranges).',
  async run(args, io) {
    const p = parseForecastArgs(args);
    if (!p.ok) { io.stderr(`zfs-advisor forecast: ${p.message}\n${USAGE}`); return EXIT.usage; }
    const req = ForecastRequest.safeParse(p.req);
    if (!req.success) {
      const issue = req.error.issues[0]!;
      io.stderr(`zfs-advisor forecast: ${issue.path.length ? `${issue.path.join('.')}: ` : ''}${issue.message}\n${USAGE}`);
      return EXIT.usage;
    }
    const loaded = await loadForAssessment(p.load);
    if (!loaded.ok) { io.stderr(`zfs-advisor forecast: ${loaded.message}\n`); return EXIT.badInput; }
    const r = runForecast(artifactsFromInventory(loaded.inventory), req.data);
    if (!r.ok) { io.stderr(`zfs-advisor forecast: ${r.message}\n`); return EXIT.badInput; }
    io.stdout(p.json ? `${JSON.stringify(r.result, null, 2)}\n` : renderForecast(r.result));
    return EXIT.ok;
  },
};
export default command;
