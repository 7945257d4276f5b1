/**
 * Recomputes the advice-followed forecasts with the code as it is now, from runs the lab test saved
 * (ZFS_ADVISOR_LAB_RESULTS: the capture, the stored benchmark runs, the measured gains), and prints
 * the table for each and the cells within ±35 % over all. A change to the model is checked against
 * several lab runs in seconds, instead of one ~10-minute run each:
 *
 *   npx tsx tests/lab/reforecast.ts RESULTS_DIR [RESULTS_DIR…]
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSnapshotInventory } from '../../server/src/gather/load.ts';
import { ADVICE_WORKLOADS, adviceArtifacts, adviceForecast, adviceTable, gainError, type AdviceRow } from './bench-lab.ts';

interface Saved { rows: AdviceRow[]; devices?: string[] }
/** Runs saved before the file named its devices used these (the test's candidates). */
const DEVICES = ['/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_FAST0001', '/dev/disk/by-id/nvme-QEMU_NVMe_Ctrl_SLOW0001'];

const dirs = process.argv.slice(2);
if (dirs.length === 0) { console.error('usage: npx tsx tests/lab/reforecast.ts RESULTS_DIR [RESULTS_DIR…]'); process.exit(64); }
let within = 0;
let all = 0;
for (const dir of dirs) {
  const saved = JSON.parse(readFileSync(join(dir, 'advice-followed.json'), 'utf8')) as Saved;
  const artifacts = adviceArtifacts((await loadSnapshotInventory(join(dir, 'capture'))).inventory, readFileSync(join(dir, 'history.json'), 'utf8'));
  const devices = saved.devices ?? DEVICES;
  const rows: AdviceRow[] = saved.rows.map((r, i) => {
    const w = ADVICE_WORKLOADS.find((x) => x.name === r.workload) ?? ADVICE_WORKLOADS[i]!;
    return {
      ...r,
      forecastNow: adviceForecast(artifacts, w, devices[0]!).now.iops,
      candidates: r.candidates.map((c, j) => {
        const f = adviceForecast(artifacts, w, devices[j]!);
        return { ...c, forecastWith: f.with!.iops, forecastGain: f.gain! };
      }),
    };
  });
  const cells = rows.flatMap((r) => r.candidates);
  within += cells.filter((c) => Math.abs(gainError(c)) <= 0.35).length;
  all += cells.length;
  console.log(`${dir}\n${adviceTable(rows)}\n`);
}
console.log(`within ±35 %: ${within} of ${all}`);
