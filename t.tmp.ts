import { generateTree } from './tests/sizing/generate-tree.ts';
import { walkTree } from './server/src/sizing/walker.ts';
const n = Number(process.argv[2]);
let t = performance.now();
if (n) generateTree('/tmp/h3/gen', n);
console.log('gen', (performance.now()-t)/1000);
t = performance.now();
const r = await walkTree('/tmp/h3/gen', { recordsize: 131072, ashift: 12 });
console.log('walk', (performance.now()-t)/1000, r.stats.files, process.memoryUsage().rss/1e6);
