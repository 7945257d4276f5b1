/** `plan add-slog` prints the sync-write forecast for the devices it is given. */
import { describe, expect, it } from 'vitest';
import { main } from '../../server/src/cli/main.ts';
import type { CliIO } from '../../server/src/cli/command.ts';
import { planAddVdev } from '../../server/src/planner/add-vdev.ts';
import { planSlogForecast } from '../../server/src/forecast/plan-forecast.ts';
import { benchDataset, benchPool, da1, da3, evo850, host000, p1600x } from '../fixtures/rules/slog-fixtures.ts';
import { dataset, drive, host, leaf, pool } from '../support/builders.ts';

function capture(): { io: CliIO; out: () => string } {
  let o = '';
  return { io: { stdout: (s) => { o += s; }, stderr: () => {}, stdin: async () => '', isTTY: false }, out: () => o };
}

describe('plan add-slog forecast', () => {
  it('for the P1600X of the 000 host: the measured 13.7k at QD1 and 39.2k at QD16', () => {
    const plan = planAddVdev({ kind: 'slog', pool: benchPool, devices: ['/dev/nvd1'], host: host000, pools: [benchPool], drives: [da1, da3, p1600x], openzfs: '2.1.6', datasets: [benchDataset] });
    expect(plan.forecast!.qd1.with!.iops).toBe(13_700);
    expect(plan.forecast!.qd16.with!.iops).toBe(39_200);
    expect(plan.forecast!.summary[0]).toMatch(/^Forecast, 4 KiB sync writes on bench-pool/);
    expect(plan.forecast!.summary[1]).toContain('P1600X');
  });

  it('a consumer SATA SSD forecasts far less than the Optane on the same pool', () => {
    const opts = { kind: 'slog' as const, pool: benchPool, host: host000, pools: [benchPool], drives: [da1, da3, p1600x, evo850], openzfs: '2.1.6', datasets: [benchDataset] };
    const evo = planAddVdev({ ...opts, devices: [evo850.devPath!] });
    const optane = planAddVdev({ ...opts, devices: ['/dev/nvd1'] });
    expect(evo.forecast!.qd1.with!.iops * 3).toBeLessThan(optane.forecast!.qd1.with!.iops);
  });

  it('a pool on an iSCSI LUN: "now" is said to be a guess (the LUN is not measured), not a hard disk\'s figure', () => {
    const lun = drive('lun0', { model: 'LIO-ORG TrueNAS iSCSI Disk', media: 'hdd', rotational: true, rpm: null, transport: 'scsi' });
    const nvme = drive('nvme0', { model: 'INTEL SSDPEK1A118GA', media: 'nvme', transport: 'nvme', rotational: false, rpm: null });
    const p = pool('tank', [leaf('sdb', { driveId: lun.id })]);
    const f = planSlogForecast({ pool: p, host: host('2.2.6'), drives: [lun, nvme], datasets: [dataset('tank', { sync: 'always' })], deviceDrives: [nvme], label: '/dev/nvme0n1' });
    expect(f.qd1.now.guess).toContain('virtual disks or LUNs');
    expect(f.summary[0]).toContain('(the pool\'s devices are not measured: a guess)');
    expect(f.summary[0]).not.toMatch(/×/);
  });

  it('special plans carry no forecast', () => {
    const plan = planAddVdev({ kind: 'special', pool: benchPool, devices: ['/dev/nvd1'], host: host000, pools: [benchPool], drives: [da1, da3, p1600x], openzfs: '2.1.6', acceptLowerRedundancy: true });
    expect(plan.forecast).toBeUndefined();
  });

  it('the CLI prints the forecast lines', async () => {
    const c = capture();
    expect(await main(['plan', 'add-slog', '--demo', '--pool', 'bench-pool', '--devices', '/dev/nvd1'], c.io)).toBe(0);
    expect(c.out()).toContain('Forecast, 4 KiB sync writes on bench-pool');
    expect(c.out()).toContain('39,200');
  });
});
