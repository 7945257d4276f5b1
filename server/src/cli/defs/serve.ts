import { defineCommand, type OptionDef } from '../command.ts';
import { DATA_DIR_ENV, DATA_DIR_OPTION } from './shared.ts';

export const SERVE_OPTIONS = [
  { name: 'host', type: 'string', value: 'ADDRESS', example: '0.0.0.0', description: 'The address to listen on; off loopback the API token is required', default: '127.0.0.1' },
  { name: 'port', type: 'integer', unit: 'TCP port', min: 0, max: 65535, example: '8080', description: 'The port to listen on (0: any free port)', default: '8080' },
  DATA_DIR_OPTION,
  { name: 'base-path', type: 'string', value: '/PREFIX', example: '/zfs', description: 'Serve under this path prefix (behind a reverse proxy)' },
  { name: 'demo', type: 'flag', description: 'Show the bundled demo system even when this host has ZFS' },
  { name: 'no-demo', type: 'flag', description: 'Never add the demo host' },
  { name: 'snapshot', type: 'path', value: 'DIR', example: './snap', description: 'Show a snapshot written by `zfs-advisor capture` as the local host (a capture from another machine); benchmarks and size walks are off' },
  { name: 'bench-dir', type: 'path', value: 'DIR', example: '/bench', description: 'Container mode: a local host without zpool, benchmarks confined to path targets inside DIR' },
  { name: 'public-name', type: 'string', value: 'NAME', example: 'nas.example.lan', multiple: true, description: 'A name clients use in the Host header besides loopback, this machine\'s name and the bound address (a reverse proxy that keeps Host, the NAS\'s DNS name); other names get 421' },
  { name: 'open-loopback', type: 'flag', description: 'On loopback, ask for no credential (every local account can then use the server; logged as a warning). Default: a credential is required, from the one-time login link printed at start or the API token' },
  { name: 'bench-allow', type: 'path', value: 'DIR', example: '/tank/scratch', multiple: true, description: 'A directory path benchmarks from the API may write in (only existing directories below it, reached without symlinks); without one, the API runs no path benchmarks' },
  { name: 'bench-max-runtime', type: 'integer', unit: 'seconds', min: 5, max: 3600, example: '1200', description: 'The ceiling for a benchmark\'s wall-clock time; the API may set the limit only at or below it (default 600)' },
  { name: 'bench-max-load', type: 'number', unit: '1-minute load', min: 0.1, max: 1000, example: '16', description: 'The ceiling for the load at which a benchmark may start or go on; the API may only set it lower (default max(4, 2 × CPUs))' },
  { name: 'bench-max-pool-write-wait', type: 'integer', unit: 'ms', min: 1, max: 60000, example: '5000', description: 'The ceiling for the pool write latency before a benchmark is stopped; the API may only set it lower (default 2000)' },
  { name: 'sizes-allow', type: 'path', value: 'DIR', example: '/srv/data', multiple: true, description: 'A directory size walks from the API may measure besides mounted ZFS datasets (the only way on a machine without ZFS)' },
  { name: 'socket', type: 'path', value: 'PATH', example: '/run/zfs-advisor/api.sock', description: 'Also listen on this Unix socket, for local clients (zfs-advisor login-link, Cockpit) that need no token there; its directory must be this user\'s own, and only this user (or --socket-group) can connect' },
  { name: 'socket-group', type: 'string', value: 'GROUP', example: 'zfs-advisor', description: 'An operator group whose members may connect to --socket too (socket 0660, its directory 0750)' },
  { name: 'trusted-origin', type: 'string', value: 'URL', example: 'https://nas.example.lan', multiple: true, description: 'The origin (scheme://host[:port]) of a trusted front end (reverse proxy, portal) whose pages may send changes; other origins get 403' },
] as const satisfies readonly OptionDef[];

export const SERVE_ENV = [
  DATA_DIR_ENV,
  { name: 'ZFS_ADVISOR_BENCH_DIR', description: 'As --bench-dir (the flag wins).' },
  { name: 'ZFS_ADVISOR_NO_DEMO', description: 'Set to 1 for --no-demo.' },
  { name: 'ZFS_ADVISOR_PUBLIC_NAMES', description: 'As --public-name, comma-separated (the flag wins).' },
  { name: 'ZFS_ADVISOR_BENCH_ALLOW', description: 'As --bench-allow, comma-separated (the flag wins).' },
  { name: 'ZFS_ADVISOR_SIZES_ALLOW', description: 'As --sizes-allow, comma-separated (the flag wins).' },
  { name: 'ZFS_ADVISOR_TRUSTED_ORIGINS', description: 'As --trusted-origin, comma-separated (the flag wins).' },
  { name: 'ZFS_ADVISOR_SOCKET', description: 'As --socket (the flag wins).' },
  { name: 'ZFS_ADVISOR_SOCKET_GROUP', description: 'As --socket-group (the flag wins).' },
] as const;

export const options = SERVE_OPTIONS;

export default defineCommand({
  name: 'serve',
  summary: 'Run the web UI and API until stopped (127.0.0.1:8080 by default).',
  description: 'Binding off loopback requires the API token, generated on first start and printed once. Stop with Ctrl-C or SIGTERM.',
  options,
  environment: SERVE_ENV,
  examples: [{ command: 'zfs-advisor serve --host 0.0.0.0 --port 8080', description: 'Serve on every interface (the token is printed once).' }],
  handler: 'serve',
});
