/**
 * The manual page zfs-advisor(1), in roff, generated from the same command definitions as
 * `--help` and the completions: every command and subcommand with its usage, options (value,
 * unit, default), environment and examples. `zfs-advisor man | man -l -` reads it in a checkout;
 * the .deb installs it (plugin/debian/build-deb.sh).
 */
import { EXIT, type CliIO, type CommandDef } from '../command.ts';
import { COMMANDS } from '../defs/index.ts';
import { optionDetails, optionSynopsis, usageLines } from './help.ts';

/** Text for roff: escape backslashes and dashes, and keep a line from starting with a control character. */
export function roffText(s: string): string {
  const t = s.replace(/\\/g, '\\e').replace(/-/g, '\\-').replace(/`([^`]+)`/g, '\\fB$1\\fR').replace(/[“”]/g, '"').replace(/[‘’]/g, "'")
    // Anything beyond ASCII as a groff Unicode escape (man's warnings treat raw bytes as errors).
    .replace(/[^ -~\n\t]/gu, (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`);
  return /^[.']/.test(t) ? `\\&${t}` : t;
}

function commandSection(def: CommandDef, path: string): string[] {
  const out = [`.SS ${roffText(`zfs-advisor ${path}`)}`, roffText(def.summary)];
  if (def.description) for (const para of def.description.split('\n\n')) out.push('.PP', roffText(para));
  if (def.needsZfs) out.push('.PP', 'Needs ZFS on this host.');
  out.push('.PP', '.nf', ...usageLines(def, `zfs-advisor ${path}`).map((u) => `\\fB${roffText(u)}\\fR`), '.fi');
  for (const p of def.positionals ?? []) out.push('.TP', `\\fI${roffText(p.name)}\\fR`, roffText(`${p.description}${p.choices ? ` (one of: ${p.choices.join(', ')})` : ''}${p.required ? '' : ' (optional)'}.`));
  for (const o of def.options) out.push('.TP', `\\fB${roffText(optionSynopsis(o))}\\fR`, roffText(optionDetails(o)));
  if (def.environment?.length) for (const e of def.environment) out.push('.TP', `\\fB${roffText(e.name)}\\fR (environment)`, roffText(e.description));
  for (const e of def.examples) out.push('.PP', roffText(e.description), '.PP', '.RS 4', '.nf', `\\fB$ ${roffText(e.command)}\\fR`, '.fi', '.RE');
  for (const s of def.subcommands ?? []) out.push(...commandSection(s, `${path} ${s.name}`));
  return out;
}

/** The whole page. `date` is YYYY-MM-DD (reproducible builds pass SOURCE_DATE_EPOCH's day). */
export function manPage(version: string, date: string, defs: readonly CommandDef[] = COMMANDS): string {
  const lines = [
    `.\\" Generated from the command definitions (server/src/cli/defs/) by \`zfs-advisor man\`; do not edit.`,
    `.TH ZFS\\-ADVISOR 1 "${date}" "zfs\\-advisor ${roffText(version)}" "User Commands"`,
    '.SH NAME',
    'zfs\\-advisor \\- look at a ZFS system the way an expert would and say, with evidence, what to change',
    '.SH SYNOPSIS',
    '.nf',
    '\\fBzfs\\-advisor\\fR \\fICOMMAND\\fR [\\fIoptions\\fR]',
    '\\fBzfs\\-advisor\\fR \\fICOMMAND\\fR \\fB\\-\\-help\\fR',
    '\\fBzfs\\-advisor \\-\\-version\\fR',
    '.fi',
    '.SH DESCRIPTION',
    'zfs\\-advisor reads a ZFS host (TrueNAS, Proxmox VE, Linux OpenZFS, FreeBSD), a captured snapshot of one, or a bundled demo, '
      + 'and reports findings with their evidence, the reason (with a link), the exact commands and whether they can be undone. '
      + 'It never runs a pool\\-changing command: plans are printed for you to run.',
    '.PP',
    'Output is for people by default; commands that offer \\fB\\-\\-json\\fR print the full model as JSON instead. '
      + 'Every command and subcommand answers \\fB\\-\\-help\\fR.',
    '.SH COMMANDS',
    ...defs.flatMap((d) => commandSection(d, d.name)),
    '.SH EXIT STATUS',
    '.TP', '0', 'Done.',
    '.TP', '1', 'Refused (an unsafe plan, a guard of a benchmark, no ZFS on this host) or failed.',
    '.TP', '2', 'An input named on the command line (file, snapshot, store) could not be read.',
    '.TP', '64', 'The command line is wrong. The message has the form \\fBzfs\\-advisor\\fR \\fICOMMAND\\fR: \\fIwhat is wrong\\fR \\(em \\fIwhat to do\\fR.',
    '.SH FILES',
    '.TP', '\\fI/var/lib/zfs\\-advisor\\fR', 'The evidence store of root (observations, size histograms, benchmark history); \\fI$XDG_STATE_HOME/zfs\\-advisor\\fR (\\fI~/.local/state/zfs\\-advisor\\fR) for other users; \\fBzfs\\-advisor info\\fR prints which one is used.',
    '.SH SEE ALSO',
    '\\fBzpool\\fR(8), \\fBzfs\\fR(8), \\fBzdb\\fR(8), \\fBfio\\fR(1)',
  ];
  return `${lines.join('\n')}\n`;
}

/** `zfs-advisor man`: the page on stdout. */
export async function runMan(_args: unknown, io: CliIO): Promise<number> {
  const { APP_VERSION } = await import('../../version.ts');
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  const date = (Number.isFinite(epoch) && epoch > 0 ? new Date(epoch * 1000) : new Date()).toISOString().slice(0, 10);
  io.stdout(manPage(APP_VERSION, date));
  return EXIT.ok;
}
