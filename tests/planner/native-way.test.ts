/**
 * TrueNAS-native plans (issue 26 §3): on a TrueNAS host every pool-changing plan gives the UI
 * steps and the API request (pool.update with the topology, exact JSON), then the shell commands
 * marked as a fallback; on Proxmox VE the shell is the native way; elsewhere nothing changes.
 * On the TrueNAS CORE demo (reference 000), a SCALE host (Linux, disks by id) and a Proxmox host,
 * for add-slog/add-special plans, partition plans and the rules' findings.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadInventory } from '../../server/src/gather/load.ts';
import { assess } from '../../server/src/assess/assess.ts';
import type { Inventory } from '../../server/src/model/inventory.ts';
import { planAddVdev } from '../../server/src/planner/add-vdev.ts';
import { nativeWayForCommands, parseZpoolAdd } from '../../server/src/planner/native-way.ts';
import { nativeWayLines } from '../../server/src/planner/native-way-text.ts';
import { drive, group, host, leaf, pool } from '../support/builders.ts';

const demo = async (): Promise<Inventory> => (await loadInventory({ demo: true })).inventory;
const onHost = (inv: Inventory, distribution: Inventory['host']['distribution'], platform: Inventory['host']['platform'] = inv.host.platform): Inventory => ({ ...inv, host: { ...inv.host, distribution, platform } });

describe('plans on TrueNAS CORE (the demo of reference 000)', () => {
  it('add-slog: the UI steps, pool.query then pool.update with the log topology, the zpool commands as the fallback', async () => {
    const inv = await demo();
    expect(inv.host.distribution).toBe('truenas-core');
    const plan = planAddVdev({ kind: 'slog', pool: inv.pools[0]!, devices: ['/dev/nvd1'], host: inv.host, pools: inv.pools, drives: inv.drives, openzfs: inv.host.zfs.openzfs });
    const n = plan.native!;
    expect(n.platform).toBe('truenas-core');
    expect(n.shell).toBe('fallback');
    expect(n.uiSteps[0]).toBe('Open Storage → Pools, click the gear of bench-pool and choose Add Vdevs (the Pool Manager opens).');
    expect(n.uiSteps[1]).toBe('Click ADD VDEV, choose Log, give it the disk nvd1 and the layout Stripe.');
    expect(n.api.map((r) => r.method)).toEqual(['pool.query', 'pool.update']);
    expect(n.api[0]!.params).toEqual([[['name', '=', 'bench-pool']], { get: true }]);
    // The demo is a capture: TrueNAS's id of the pool is not in it, so the first request asks and the
    // second carries no string where the integer goes; CORE's midclt takes `-job` (issue 36).
    expect(n.api[1]!.params).toEqual([null, { topology: { log: [{ type: 'STRIPE', disks: ['nvd1'] }] } }]);
    expect(n.api[1]!.poolIdFrom).toBe(0);
    expect(n.api[1]!.rest).toEqual({ method: 'PUT', path: '/api/v2.0/pool/id/<id of bench-pool>', body: { topology: { log: [{ type: 'STRIPE', disks: ['nvd1'] }] } } });
    expect(n.api[1]!.midclt).toBe(`midclt call -job pool.update "$(midclt call pool.query '[["name","=","bench-pool"]]' '{"get":true}' | jq .id)" '{"topology":{"log":[{"type":"STRIPE","disks":["nvd1"]}]}}'`);
    // The shell steps are unchanged: they are the fallback.
    expect(plan.steps.at(-1)!.display).toBe('zpool add -o ashift=12 bench-pool log /dev/nvd1');
  });

  it('the CLI prints the UI, then the API, then the shell commands under "Shell (fallback)"', () => {
    const bin = join(import.meta.dirname, '..', '..', 'server', 'bin', 'zfs-advisor.js');
    const r = spawnSync(process.execPath, [bin, 'plan', 'add-slog', '--demo', '--devices', '/dev/nvd1'], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const at = (s: string) => r.stdout.indexOf(s);
    expect(at('In the TrueNAS CORE UI:')).toBeGreaterThan(0);
    expect(at('Through the TrueNAS CORE API')).toBeGreaterThan(at('In the TrueNAS CORE UI:'));
    expect(at('REST: PUT /api/v2.0/pool/id/<id of bench-pool> {"topology":{"log":[{"type":"STRIPE","disks":["nvd1"]}]}}')).toBeGreaterThan(at('Through the TrueNAS CORE API'));
    expect(at('Shell (fallback)')).toBeGreaterThan(at('REST: PUT'));
    expect(at('zpool add -o ashift=12 bench-pool log /dev/nvd1')).toBeGreaterThan(at('Shell (fallback)'));
  });

  it('a partition plan has no TrueNAS way: the shell is the only one, and it says so', async () => {
    const inv = await demo();
    const plan = planAddVdev({ kind: 'slog', pool: inv.pools[0]!, devices: ['/dev/nvd1'], host: inv.host, pools: inv.pools, drives: inv.drives, openzfs: '2.1.6', partitions: [{ role: 'slog', sizeBytes: 16 * 2 ** 30 }, { role: 'special', sizeBytes: 30 * 2 ** 30 }] });
    expect(plan.native).toMatchObject({ platform: 'truenas-core', shell: 'only', uiSteps: [], api: [] });
    expect(plan.native!.summary).toContain('whole disks only');
  });

  it('the slog-benefit finding carries the same TrueNAS way, in the report and the assess text', async () => {
    const inv = await demo();
    const { assessment } = assess(inv);
    const slog = assessment.findings.find((f) => f.ruleId === 'slog-benefit')!;
    expect(slog.action!.native!.api[1]!.params[1]).toEqual({ topology: { log: [{ type: 'STRIPE', disks: ['nvd1'] }] } });
    // Findings whose commands change no pool get none.
    for (const f of assessment.findings) {
      const changesPool = f.action?.commands.some((c) => /^zpool (add|attach|detach|remove|replace|split)\b/.test(c)) ?? false;
      expect(Boolean(f.action?.native), f.ruleId).toBe(changesPool);
    }
  });
});

describe('plans on TrueNAS SCALE (Linux, disks by id)', () => {
  const scale = host('2.3.0', { distribution: 'truenas-scale' });
  const drives = ['a', 'b', 'c', 'd'].map((x, i) => drive(`nvme-optane-${x}`, { devPath: `/dev/nvme${i}n1`, aliases: [`/dev/nvme${i}n1`], media: 'nvme' }));
  const tank = pool('tank', [group('mirror', 'mirror-0', [leaf('/dev/disk/by-id/ata-a'), leaf('/dev/disk/by-id/ata-b')])], { ashift: 12 });

  it('add-special (a mirror): the disks by their TrueNAS names in a MIRROR of the special class; JSON-RPC for 25.04+', () => {
    const plan = planAddVdev({ kind: 'special', pool: tank, devices: [drives[0]!.byIdPath!, drives[1]!.byIdPath!], host: scale, pools: [tank], drives, openzfs: '2.3.0' });
    const n = plan.native!;
    expect(n.platform).toBe('truenas-scale');
    expect(n.uiSteps).toEqual([
      'Open Storage, find tank and click Manage Devices, then Add VDEV.',
      'Choose Metadata, give it the disks nvme0n1, nvme1n1 and the layout Mirror.',
      'Review the new layout, then confirm to update the pool.',
    ]);
    expect(n.api[1]!.params).toEqual([null, { topology: { special: [{ type: 'MIRROR', disks: ['nvme0n1', 'nvme1n1'] }] } }]);
    const lines = nativeWayLines(n).join('\n');
    expect(lines).toContain('JSON-RPC: {"jsonrpc":"2.0","id":2,"method":"pool.update","params":[<id of tank>,{"topology":{"special":[{"type":"MIRROR","disks":["nvme0n1","nvme1n1"]}]}}]}');
    expect(lines).toContain('Shell (fallback)');
  });

  it('a finding on a SCALE host: the rule\'s placeholders become the disks of the request', async () => {
    const inv = onHost(await demo(), 'truenas-scale', 'linux');
    const n = nativeWayForCommands(inv.host, ['zpool add -n tank special mirror /dev/disk/by-id/<ssd-1> /dev/disk/by-id/<ssd-2>', 'zpool add tank special mirror /dev/disk/by-id/<ssd-1> /dev/disk/by-id/<ssd-2>'], []);
    expect(n!.api[1]!.params).toEqual([null, { topology: { special: [{ type: 'MIRROR', disks: ['<ssd-1>', '<ssd-2>'] }] } }]);
    // A layout still to choose: the UI is the way, pool.update once chosen; no invented JSON.
    const open = nativeWayForCommands(inv.host, ['zpool add -n tank <vdev layout matching the existing ones, disks by id>'], []);
    expect(open).toMatchObject({ platform: 'truenas-scale', shell: 'fallback', api: [] });
    expect(open!.uiSteps[0]).toContain('Manage Devices');
  });
});

describe('plans on Proxmox VE and on plain hosts', () => {
  it('Proxmox VE: the shell is the native way, said with its documentation', async () => {
    const inv = onHost(await demo(), 'proxmox-ve', 'linux');
    const plan = planAddVdev({ kind: 'slog', pool: inv.pools[0]!, devices: ['/dev/disk/by-id/nvme-x'], host: inv.host, pools: inv.pools, drives: inv.drives, openzfs: '2.2.0' });
    expect(plan.native).toMatchObject({ platform: 'proxmox-ve', shell: 'native', uiSteps: [], api: [] });
    expect(plan.native!.summary).toContain('the shell is the native way');
    expect(plan.native!.citations[0]!.url).toContain('pve.proxmox.com');
    const { assessment } = assess(inv);
    expect(assessment.findings.find((f) => f.ruleId === 'slog-benefit')!.action!.native!.shell).toBe('native');
  });

  it('plain Linux: no native way, the commands stand alone', async () => {
    const inv = onHost(await demo(), 'other', 'linux');
    expect(planAddVdev({ kind: 'slog', pool: inv.pools[0]!, devices: ['/dev/disk/by-id/nvme-x'], host: inv.host, pools: inv.pools, drives: inv.drives, openzfs: '2.2.0' }).native).toBeNull();
    expect(assess(inv).assessment.findings.some((f) => f.action?.native)).toBe(false);
  });
});

describe('reading zpool add', () => {
  it('classes, layouts, stripes and options', () => {
    expect(parseZpoolAdd('zpool add -f -o ashift=12 tank mirror /dev/da1 /dev/da2 mirror /dev/da3 /dev/da4 log /dev/nvd1 /dev/nvd2 cache /dev/nvd3')).toEqual({
      pool: 'tank', dryRun: false, additions: [
        { section: 'data', type: 'MIRROR', disks: ['da1', 'da2'] },
        { section: 'data', type: 'MIRROR', disks: ['da3', 'da4'] },
        { section: 'log', type: 'STRIPE', disks: ['nvd1', 'nvd2'] },
        { section: 'cache', type: 'STRIPE', disks: ['nvd3'] },
      ],
    });
    expect(parseZpoolAdd('zpool add -n tank raidz2 a b c d')?.dryRun).toBe(true);
    expect(parseZpoolAdd('zpool add tank draid2:4d:1s a b c d e f g')).toBeNull();
    expect(parseZpoolAdd('zpool remove tank mirror-1')).toBeNull();
  });
});
