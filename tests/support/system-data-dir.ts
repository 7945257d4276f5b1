/**
 * What the system data directory (/var/lib/zfs-advisor, the installed service's) looks like:
 * whether it exists, and every entry below it with its size and modification time. The test run
 * records it before and compares after (summary-reporter.ts); tests/repo/system-data-dir.test.ts
 * compares around commands run as root without $ZFS_ADVISOR_DATA_DIR.
 */
import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SYSTEM_DATA_DIR } from '../../server/src/data-dir.ts';

export function systemDataDirState(dir: string = SYSTEM_DATA_DIR): string[] {
  if (!existsSync(dir)) return ['(absent)'];
  const out: string[] = [];
  const walk = (d: string) => {
    const st = lstatSync(d);
    out.push(`${d} ${st.isDirectory() ? 'dir' : st.size} ${st.mtimeMs}`);
    if (st.isDirectory()) for (const e of readdirSync(d).sort()) walk(join(d, e));
  };
  walk(dir);
  return out;
}

/** Lines that differ, for the failure message ("+" now there, "-" gone). */
export function stateChanges(before: string[], after: string[]): string[] {
  const b = new Set(before);
  const a = new Set(after);
  return [...before.filter((x) => !a.has(x)).map((x) => `- ${x}`), ...after.filter((x) => !b.has(x)).map((x) => `+ ${x}`)];
}
