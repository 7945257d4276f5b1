/**
 * bash and zsh completion scripts generated from the command definitions: commands, subcommands,
 * options, the choices of choice options and positionals, file names for path values.
 */
import { EXIT, type CliIO, type CommandDef } from '../command.ts';
import { COMMANDS } from '../defs/index.ts';
import { optionDetails, valueName } from './help.ts';

interface Node { path: string[]; def: CommandDef }

function walk(defs: readonly CommandDef[], prefix: string[] = []): Node[] {
  return defs.flatMap((d) => [{ path: [...prefix, d.name], def: d }, ...walk(d.subcommands ?? [], [...prefix, d.name])]);
}

const shq = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function bashCompletion(defs: readonly CommandDef[] = COMMANDS): string {
  const nodes = walk(defs);
  const cases: string[] = [];
  for (const { path, def } of nodes) {
    const opts = [...def.options.map((o) => `--${o.name}`), '--help'];
    const subs = (def.subcommands ?? []).map((s) => s.name);
    const valueCases = def.options.filter((o) => o.type !== 'flag').map((o) => {
      const names = [`--${o.name}`, ...(o.short ? [`-${o.short}`] : [])].join('|');
      const action = o.choices ? `COMPREPLY=($(compgen -W ${shq(o.choices.join(' '))} -- "$cur"))`
        : o.type === 'path' ? 'COMPREPLY=($(compgen -f -- "$cur"))' : 'COMPREPLY=()';
      return `        ${names}) ${action}; return ;;`;
    });
    const pos = def.positionals?.[0];
    // Options after a dash; otherwise subcommands, the first positional's values, or the options.
    const words = subs.length ? `COMPREPLY=($(compgen -W ${shq(subs.join(' '))} -- "$cur"))`
      : pos?.choices ? `COMPREPLY=($(compgen -W ${shq(pos.choices.join(' '))} -- "$cur"))`
        : pos?.path ? 'COMPREPLY=($(compgen -f -- "$cur"))'
          : `COMPREPLY=($(compgen -W ${shq(opts.join(' '))} -- "$cur"))`;
    cases.push(`    ${shq(path.join(' '))})
      case "$prev" in
${valueCases.join('\n')}
      esac
      if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W ${shq(opts.join(' '))} -- "$cur")); else ${words}; fi
      return ;;`);
  }
  const top = defs.map((d) => d.name).join(' ');
  return `# bash completion for zfs-advisor (generated from the command definitions: zfs-advisor completion bash)
_zfs_advisor() {
  local cur prev path i w
  cur="\${COMP_WORDS[COMP_CWORD]}"
  prev="\${COMP_WORDS[COMP_CWORD-1]}"
  COMPREPLY=()
  if (( COMP_CWORD == 1 )); then
    COMPREPLY=($(compgen -W ${shq(`${top} --help --version`)} -- "$cur"))
    return
  fi
  # The command path: the leading words that name a command or subcommand.
  path="\${COMP_WORDS[1]}"
  for (( i = 2; i < COMP_CWORD; i++ )); do
    w="\${COMP_WORDS[i]}"
    case "$path $w" in
${nodes.filter((n) => n.path.length > 1).map((n) => `      ${shq(n.path.join(' '))}) path="$path $w" ;;`).join('\n')}
      *) break ;;
    esac
  done
  case "$path" in
${cases.join('\n')}
  esac
}
complete -F _zfs_advisor zfs-advisor
`;
}

const zq = (s: string) => s.replace(/\\/g, '\\\\').replace(/'/g, `'\\''`).replace(/:/g, '\\:').replace(/\[/g, '\\[').replace(/\]/g, '\\]');

function zshSpecs(def: CommandDef): string[] {
  const specs = def.options.map((o) => {
    const help = zq(optionDetails(o).split(';')[0]!.replace(/\.$/, ''));
    const names = o.short ? `{-${o.short},--${o.name}}` : `--${o.name}`;
    const rep = o.multiple ? '*' : '';
    if (o.type === 'flag') return `'${rep}${names}[${help}]'`;
    const action = o.choices ? `(${o.choices.join(' ')})` : o.type === 'path' ? '_files' : ' ';
    const sep = o.short ? '' : '=';
    return `${o.short ? '' : rep}${o.short ? `'(-${o.short} --${o.name})'` : ''}'${names}${sep}[${help}]:${zq(valueName(o))}:${action}'`;
  });
  specs.push(`'(-h --help)'{-h,--help}'[show help]'`);
  (def.positionals ?? []).forEach((p, i) => {
    const action = p.choices ? `(${p.choices.join(' ')})` : p.path ? '_files' : ' ';
    specs.push(`'${p.variadic ? '*' : `${i + 1}`}:${zq(p.name)}:${action}'`);
  });
  return specs;
}

export function zshCompletion(defs: readonly CommandDef[] = COMMANDS): string {
  const fns: string[] = [];
  const fnName = (path: string[]) => `_zfs_advisor_${path.join('_').replace(/-/g, '_')}`;
  const emit = (path: string[], def: CommandDef) => {
    const subs = def.subcommands ?? [];
    if (subs.length) {
      // A command with its own handler too (bench PROFILE … / bench suite …): its options as well.
      const own = def.handler ? `\n  _arguments -s ${zshSpecs(def).join(' \\\n    ')}` : '';
      fns.push(`${fnName(path)}() {
  local -a subcmds
  subcmds=(${subs.map((s) => `'${s.name}:${zq(s.summary)}'`).join(' ')})
  if (( CURRENT == 2 )); then _describe -t commands 'subcommand' subcmds;${own ? '' : ' return;'} fi
  case "\${words[2]}" in
${subs.map((s) => `    ${s.name}) shift words; (( CURRENT-- )); ${fnName([...path, s.name])}; return ;;`).join('\n')}
  esac${own}
}`);
      for (const s of subs) emit([...path, s.name], s);
    } else {
      fns.push(`${fnName(path)}() {
  _arguments -s ${zshSpecs(def).join(' \\\n    ')}
}`);
    }
  };
  for (const d of defs) emit([d.name], d);
  return `#compdef zfs-advisor
# zsh completion for zfs-advisor (generated from the command definitions: zfs-advisor completion zsh)
${fns.join('\n\n')}

_zfs_advisor() {
  local -a cmds
  cmds=(${defs.map((d) => `'${d.name}:${zq(d.summary)}'`).join(' ')})
  if (( CURRENT == 2 )); then
    _describe -t commands 'zfs-advisor command' cmds
    _arguments '--version[print the version]' '--help[show help]'
    return
  fi
  shift words; (( CURRENT-- ))
  case "\${words[1]}" in
${defs.map((d) => `    ${d.name}) ${fnName([d.name])} ;;`).join('\n')}
  esac
}

_zfs_advisor "$@"
`;
}

/** `zfs-advisor completion bash|zsh`. */
export async function runCompletion({ positionals }: { positionals: string[] }, io: CliIO): Promise<number> {
  io.stdout(positionals[0] === 'zsh' ? zshCompletion() : bashCompletion());
  return EXIT.ok;
}
