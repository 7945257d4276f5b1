// Entry of the worker threads when the server runs from the TypeScript sources (tsx, tests):
// register tsx in this thread, then load the worker module given as the thread's first argument
// (relative to server/src). The esbuild bundle starts dist/<name>.mjs instead (see threads.ts).
import { register } from 'tsx/esm/api';

register();
const entry = process.argv[2];
if (!entry || !/^[a-z-]+\/[a-z-]+\.ts$/.test(entry)) throw new Error(`worker-boot: bad entry ${entry}`);
await import(new URL(`../${entry}`, import.meta.url).href);
