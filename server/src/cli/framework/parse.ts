/**
 * Parses a command line against a command's definition: `--name value`, `--name=value`, `-x value`,
 * flags, repeated options, `--` (everything after it is positional), and the positionals' count and
 * choices. Everything wrong is a usage error in the common format (framework/errors.ts).
 */
import type { CommandDef, OptionDef } from '../command.ts';
import { usageError } from './errors.ts';
import { readValue } from './values.ts';

export interface Parsed {
  values: Record<string, unknown>;
  positionals: string[];
}

/** True when the arguments ask for help (before any `--`). */
export function wantsHelp(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === '--') return false;
    if (a === '--help' || a === '-h') return true;
  }
  return false;
}

function closest(word: string, options: readonly OptionDef[]): string {
  const near = options.filter((o) => o.name.startsWith(word.slice(0, 3)) || word.includes(o.name));
  return near.length ? `did you mean ${near.slice(0, 3).map((o) => `--${o.name}`).join(' or ')}? ` : '';
}

export function parseCommandLine(def: CommandDef, commandPath: string, args: readonly string[]): Parsed {
  const byName = new Map(def.options.map((o) => [o.name, o]));
  const byShort = new Map(def.options.filter((o) => o.short).map((o) => [o.short!, o]));
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  const help = `see zfs-advisor ${commandPath} --help`;

  const set = (o: OptionDef, v: unknown) => {
    if (o.multiple) {
      ((values[o.name] ??= []) as unknown[]).push(v);
      return;
    }
    if (o.name in values) throw usageError(`--${o.name} is given twice`, 'give it once');
    values[o.name] = v;
  };

  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { positionals.push(...args.slice(i + 1)); break; }
    let o: OptionDef | undefined;
    let inline: string | undefined;
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
      inline = eq > 0 ? a.slice(eq + 1) : undefined;
      o = byName.get(name);
      if (!o) throw usageError(`unknown option --${name}`, `${closest(name, def.options)}${help}`);
    } else if (/^-[A-Za-z]$/.test(a)) {
      o = byShort.get(a.slice(1));
      if (!o) throw usageError(`unknown option ${a}`, help);
    } else {
      positionals.push(a);
      continue;
    }
    if (o.type === 'flag') {
      if (inline !== undefined) throw usageError(`--${o.name} takes no value`, `write --${o.name} alone`);
      set(o, true);
      continue;
    }
    if (o.optionalValue) {
      // `--demo` alone, or `--demo NAME` when the next word is one of the choices.
      const next = args[i + 1];
      if (inline !== undefined) set(o, readValue(o, inline));
      else if (next !== undefined && (o.choices ?? []).includes(next)) { set(o, next); i++; }
      else set(o, true);
      continue;
    }
    let text = inline;
    if (text === undefined) {
      const next = args[i + 1];
      // A following option is not a value (`--snapshot --json`): say the value is missing.
      if (next === undefined || (next.startsWith('-') && next.length > 1 && !/^-\d/.test(next))) {
        throw usageError(`--${o.name} needs ${o.value ?? 'a value'}${o.unit ? ` (${o.unit})` : ''}`, o.example ? `e.g. --${o.name} ${o.example}` : help);
      }
      text = next;
      i++;
    }
    set(o, readValue(o, text));
  }

  const defs = def.positionals ?? [];
  const required = defs.filter((p) => p.required).length;
  const variadic = defs.some((p) => p.variadic);
  if (positionals.length < required) {
    const missing = defs.filter((p) => p.required)[positionals.length]!;
    throw usageError(`${missing.name} is missing`, `give ${missing.description.replace(/\.$/, '')}; ${help}`);
  }
  if (!variadic && positionals.length > defs.length) {
    const extra = positionals[defs.length]!;
    throw usageError(defs.length === 0 ? `unexpected argument "${extra}"` : `unexpected extra argument "${extra}"`, help);
  }
  positionals.forEach((v, idx) => {
    const p = defs[Math.min(idx, defs.length - 1)];
    if (p?.choices && !p.choices.includes(v)) throw usageError(`${p.name} "${v}" is not one of the choices`, `give one of ${p.choices.join(', ')}`);
  });
  return { values, positionals };
}
