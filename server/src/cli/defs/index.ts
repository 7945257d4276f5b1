/**
 * Every command, in the order `zfs-advisor --help` lists them. Add a command: write its
 * definition in defs/NAME.ts (see cli/command.ts for the conventions) and list it here.
 */
import type { CommandDef } from '../command.ts';
import parse from './parse.ts';
import inventory from './inventory.ts';
import capture from './capture.ts';
import assess from './assess.ts';
import optane from './optane.ts';
import forecast from './forecast.ts';
import bench from './bench.ts';
import observe from './observe.ts';
import sizes from './sizes.ts';
import plan from './plan.ts';
import report from './report.ts';
import serve from './serve.ts';
import start from './start.ts';
import completion from './completion.ts';
import info from './info.ts';
import loginLink from './login-link.ts';
import man from './man.ts';

export const COMMANDS: readonly CommandDef[] = [
  inventory, assess, optane, forecast, plan, sizes, observe, bench, report, capture, parse, serve, start, info, loginLink, completion, man,
];
