import { defineCommand } from '../command.ts';
import { SERVE_ENV, SERVE_OPTIONS } from './serve.ts';

export const options = SERVE_OPTIONS;

export default defineCommand({
  name: 'start',
  summary: 'Start the app on this machine with the defaults (what `npm start` runs).',
  description: '`serve` with the defaults: 127.0.0.1, port $ZFS_ADVISOR_PORT or 8080, the data directory for this user, and the demo when this machine has no ZFS (said so). The URL is printed.',
  options,
  environment: [...SERVE_ENV, { name: 'ZFS_ADVISOR_PORT', description: 'The port when --port is not given.' }],
  examples: [{ command: 'zfs-advisor start', description: 'Start on http://127.0.0.1:8080/.' }],
  handler: 'start',
});
