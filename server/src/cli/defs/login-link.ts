import { defineCommand, type OptionDef } from '../command.ts';
import { JSON_OPTION } from './shared.ts';

export const DEFAULT_SOCKET = '/run/zfs-advisor/api.sock';

export const options = [
  { name: 'socket', type: 'path', value: 'PATH', example: DEFAULT_SOCKET, description: `The running server's Unix socket (default $ZFS_ADVISOR_SOCKET, else ${DEFAULT_SOCKET}, the service's)` },
  { name: 'sign-out-everywhere', type: 'flag', description: 'Instead: end every browser session and void every unused login link (the API token stays)' },
  JSON_OPTION,
] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'login-link',
  summary: 'Ask the running server, over its Unix socket, for a new one-time login link for a browser (or sign out everywhere).',
  description: 'Talks to the server through its Unix socket, which only root (or the operator group the admin names with --socket-group / '
    + 'ZFS_ADVISOR_SOCKET_GROUP) can connect to, so no token is needed. The link signs one browser in once, within 24 hours; '
    + '--sign-out-everywhere ends every session instead.',
  options,
  environment: [{ name: 'ZFS_ADVISOR_SOCKET', description: 'The server\'s Unix socket when --socket is not given.' }],
  examples: [
    { command: 'sudo zfs-advisor login-link', description: 'A link to open in the browser at the end of an SSH tunnel.' },
    { command: 'sudo zfs-advisor login-link --sign-out-everywhere', description: 'End every browser session (a lost laptop).' },
  ],
  handler: 'login-link',
});
