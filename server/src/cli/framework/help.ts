/**
 * `--help` text, derived from a command's definition: usage, description, subcommands, options
 * (value, unit, default), environment and examples. Written to stdout, exit 0.
 */
import type { CommandDef, OptionDef } from '../command.ts';

/** Placeholder for an option's value: declared, else from its type. */
export function valueName(o: OptionDef): string {
  if (o.value) return o.value;
  switch (o.type) {
    case 'size': case 'disk-size': return 'SIZE';
    case 'duration': return 'DURATION';
    case 'integer': case 'number': return 'N';
    case 'path': return 'PATH';
    case 'choice': return (o.choices ?? []).join('|');
    case 'time': return 'TIME';
    default: return 'VALUE';
  }
}

/** `--name VALUE`, `-o, --output FILE`, `--demo [NAME]`. */
export function optionSynopsis(o: OptionDef): string {
  const flag = `${o.short ? `-${o.short}, ` : ''}--${o.name}`;
  if (o.type === 'flag') return flag;
  return o.optionalValue ? `${flag} [${valueName(o)}]` : `${flag} ${valueName(o)}`;
}

/** Usage lines (without the "zfs-advisor " prefix). */
export function usageLines(def: CommandDef, path: string): string[] {
  if (def.usage) return def.usage.map((u) => `${path} ${u}`.trimEnd());
  if (def.subcommands?.length && !def.handler) return [`${path} ${def.subcommands.map((s) => s.name).join('|')} [options]`];
  const pos = (def.positionals ?? []).map((p) => (p.required ? p.name : `[${p.name}]`) + (p.variadic ? '...' : '')).join(' ');
  const opts = def.options.length ? ' [options]' : '';
  return [`${path}${pos ? ` ${pos}` : ''}${opts}`];
}

/** The option's description with its unit, choices and default. */
export function optionDetails(o: OptionDef): string {
  const bits = [o.description.replace(/\.$/, '')];
  if (o.unit && o.type !== 'flag') bits.push(`unit: ${o.unit}`);
  if (o.type === 'choice' && o.choices && !o.value) { /* shown in the synopsis */ } else if (o.choices) bits.push(`one of ${o.choices.join(', ')}`);
  if (o.default) bits.push(`default: ${o.default}`);
  if (o.multiple) bits.push('may be repeated');
  return `${bits.join('; ')}.`;
}

function wrap(text: string, width: number, indent: string): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) { out.push(indent + line); line = word; } else line = line ? `${line} ${word}` : word;
    }
    out.push(indent + line);
  }
  return out;
}

const HELP_OPTION: OptionDef = { name: 'help', short: 'h', type: 'flag', description: 'Show this help and exit' };

/** Full help of one command; `path` is e.g. "zfs-advisor plan layouts". */
export function renderHelp(def: CommandDef, path: string): string {
  const lines: string[] = [`${path} — ${def.summary}`, '', 'Usage:'];
  for (const u of usageLines(def, path)) lines.push(`  ${u}`);
  if (def.description) lines.push('', ...wrap(def.description, 96, ''));
  if (def.needsZfs) lines.push('', 'Needs ZFS on this host (the zpool/zfs commands and the kernel module).');
  if (def.subcommands?.length) {
    lines.push('', 'Subcommands:');
    const w = Math.max(...def.subcommands.map((s) => s.name.length));
    for (const s of def.subcommands) lines.push(`  ${s.name.padEnd(w)}  ${s.summary}`);
    lines.push('', `Run \`${path} SUBCOMMAND --help\` for its options.`);
  }
  if (def.positionals?.length) {
    lines.push('', 'Arguments:');
    for (const p of def.positionals) {
      lines.push(`  ${p.name}${p.required ? '' : ' (optional)'}`, ...wrap(`${p.description}${p.choices ? ` One of: ${p.choices.join(', ')}.` : ''}`, 88, '      '));
    }
  }
  const options = [...def.options, HELP_OPTION];
  lines.push('', 'Options:');
  for (const o of options) lines.push(`  ${optionSynopsis(o)}`, ...wrap(optionDetails(o), 88, '      '));
  if (def.environment?.length) {
    lines.push('', 'Environment:');
    for (const e of def.environment) lines.push(`  ${e.name}`, ...wrap(e.description, 88, '      '));
  }
  lines.push('', def.examples.length > 1 ? 'Examples:' : 'Example:');
  for (const e of def.examples) lines.push(`  $ ${e.command}`, ...wrap(e.description, 88, '      '));
  return `${lines.join('\n')}\n`;
}

/** `zfs-advisor --help`: the command list. */
export function renderCommandList(defs: readonly CommandDef[], version: string | null): string {
  const w = Math.max(...defs.map((d) => d.name.length));
  const lines = [
    `zfs-advisor${version ? ` ${version}` : ''} — looks at a ZFS system the way an expert would and says, with evidence, what to change.`,
    '',
    'Usage:',
    '  zfs-advisor COMMAND [options]',
    '  zfs-advisor COMMAND --help',
    '  zfs-advisor --version',
    '',
    'Commands:',
    ...defs.map((d) => `  ${d.name.padEnd(w)}  ${d.summary}`),
    '',
    'Exit status: 0 done, 1 refused or failed, 2 an input could not be read, 64 the command line is wrong.',
    'Output is for people; add --json where offered for the machine-readable form.',
    '',
    'Example:',
    '  $ zfs-advisor assess --demo',
    '      Run every rule on the bundled demo system and print the findings.',
  ];
  return `${lines.join('\n')}\n`;
}
