#!/usr/bin/env node
// The `zfs-advisor` command. The sources are TypeScript run through tsx's loader, so
// `npx zfs-advisor` works right after `npm ci` with no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
