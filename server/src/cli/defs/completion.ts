import { defineCommand, type OptionDef } from '../command.ts';

export const options = [] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'completion',
  summary: 'Print the bash or zsh completion script.',
  description: 'The .deb installs both; for a checkout, load one in your shell as shown below.',
  positionals: [{ name: 'SHELL', description: 'the shell to complete for', required: true, choices: ['bash', 'zsh'] }],
  options,
  examples: [
    { command: 'source <(zfs-advisor completion bash)', description: 'Complete zfs-advisor commands and options in this bash session.' },
    { command: 'zfs-advisor completion zsh > ~/.zfunc/_zfs-advisor', description: 'Install the zsh completion (with ~/.zfunc in $fpath).' },
  ],
  handler: 'completion',
});
