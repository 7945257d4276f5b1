import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { datasetNameProblem, poolNameProblem } from '../../server/src/sizing/dataset-name.ts';
import { datasetOfPath, resolveDataset, resolveTarget } from '../../server/src/sizing/resolve-target.ts';
import { fakeRunner } from './support-fake-runner.ts';

describe('datasetNameProblem (OpenZFS naming rules)', () => {
  it('accepts real dataset names', () => {
    for (const n of ['tank', 'tank/media', 'rpool/data/subvol-100-disk-0', 'pool_1/a.b:c-d', 'tank/My Photos', 'fsingle']) {
      expect(datasetNameProblem(n), n).toBeNull();
    }
  });
  it('refuses traversal, empty components, options, paths, snapshots and foreign characters', () => {
    const bad: Record<string, RegExp> = {
      'tank/../x': /"\.\." component/,
      'tank/./x': /"\." component/,
      '..': /"\.\." component/,
      'tank//x': /empty component/,
      'tank/': /ends with/,
      '-o': /begin with a letter/,
      '/etc': /starts with "\/"/,
      'tank/x@snap': /snapshot/,
      'tank#bm': /snapshot/,
      'tank/$(reboot)': /character ZFS does not allow/,
      'tank/a;b': /character ZFS does not allow/,
      'tank/a%b': /character ZFS does not allow/,
      '1tank': /begin with a letter/,
      'mirror': /reserved/,
      'c0t0d0': /reserved/,
      '': /empty/,
    };
    for (const [name, why] of Object.entries(bad)) expect(datasetNameProblem(name), name).toMatch(why);
    expect(datasetNameProblem(`tank/${'a'.repeat(260)}`)).toMatch(/longer than 255/);
    expect(poolNameProblem('tank/x')).toMatch(/no "\/"/);
    expect(poolNameProblem('tank')).toBeNull();
  });
});

// `zfs get -Hp -o property,value mounted,mountpoint,recordsize NAME` prints one "property\tvalue" line per
// property (values as in /work/shared/samples/zfs-fuse/zfs_get_-H_-p_all_fsingle.txt; the real command
// runs against zfs-fuse in live-zfs-fuse.test.ts).
const getOutput = (mounted: string, mountpoint: string, recordsize = '131072') =>
  `mounted\t${mounted}\nmountpoint\t${mountpoint}\nrecordsize\t${recordsize}\n`;

describe('resolveDataset', () => {
  it('returns the mountpoint and recordsize of a mounted dataset, asking zfs for mounted and mountpoint', async () => {
    const f = fakeRunner(() => ({ stdout: getOutput('yes', '/mnt/tank/media', '1048576') }));
    const r = await resolveDataset('tank/media', f.run);
    expect(r).toEqual({ ok: true, value: { path: '/mnt/tank/media', dataset: 'tank/media', recordsize: 1048576 } });
    expect(f.calls).toEqual([{ program: 'zfs', args: ['get', '-Hp', '-o', 'property,value', 'mounted,mountpoint,recordsize', 'tank/media'], timeoutMs: 30_000 }]);
  });

  it('refuses an unmounted dataset instead of walking the empty directory under it', async () => {
    const f = fakeRunner(() => ({ stdout: getOutput('no', '/mnt/tank/media') }));
    const r = await resolveDataset('tank/media', f.run);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toBe('tank/media is not mounted (mounted=no); its mountpoint /mnt/tank/media holds none of its files — mount it (zfs mount tank/media) or pass the directory of a mounted copy');
  });

  it('refuses mountpoint=none and legacy and suggests the path form', async () => {
    for (const mp of ['none', 'legacy']) {
      const f = fakeRunner(() => ({ stdout: getOutput(mp === 'legacy' ? 'yes' : 'no', mp) }));
      const r = await resolveDataset('rpool/ROOT', f.run);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.message).toContain(`mountpoint=${mp}`);
        expect(r.message).toContain('pass the mounted directory instead (zfs-advisor sizes /path/to/mount)');
      }
    }
  });

  it('refuses a volume (no mounted/mountpoint values) and reports zfs failures with their stderr', async () => {
    const vol = fakeRunner(() => ({ stdout: 'recordsize\t-\n' }));
    const r1 = await resolveDataset('tank/vol1', vol.run);
    expect(r1).toEqual({ ok: false, message: 'tank/vol1: zfs get printed no mounted/mountpoint values (is it a volume or snapshot?)' });
    const missing = fakeRunner(() => ({ exitCode: 1, stderr: "cannot open 'tank/nope': dataset does not exist\n" }));
    const r2 = await resolveDataset('tank/nope', missing.run);
    expect(r2).toEqual({ ok: false, message: "zfs get -Hp -o property,value mounted,mountpoint,recordsize tank/nope: exit 1: cannot open 'tank/nope': dataset does not exist" });
  });

  it('never runs zfs for an invalid name', async () => {
    const f = fakeRunner(() => ({ stdout: getOutput('yes', '/') }));
    for (const name of ['tank/../x', '-H', 'tank//x', 'tank/a`id`']) {
      const r = await resolveDataset(name, f.run);
      expect(r.ok, name).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/is not a valid ZFS dataset name/);
    }
    expect(f.calls).toEqual([]);
  });
});

describe('resolveTarget', () => {
  const dir = mkdtempSync(join(tmpdir(), 'resolve-target-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('walks an existing directory as is (auto and path), and refuses a path for kind=dataset', async () => {
    const f = fakeRunner(() => undefined);
    expect(await resolveTarget(dir, { run: f.run })).toEqual({ ok: true, value: { path: dir, dataset: null, recordsize: null } });
    expect(await resolveTarget(dir, { kind: 'path', run: f.run })).toEqual({ ok: true, value: { path: dir, dataset: null, recordsize: null } });
    const asDataset = await resolveTarget(dir, { kind: 'dataset', run: f.run });
    expect(asDataset.ok).toBe(false);
    if (!asDataset.ok) expect(asDataset.message).toMatch(/starts with "\/"/);
    expect(f.calls).toEqual([]);
  });

  it('kind=path never falls back to zfs; auto takes a non-directory as a dataset name', async () => {
    const f = fakeRunner(() => ({ stdout: getOutput('yes', '/mnt/tank') }));
    expect(await resolveTarget('tank', { kind: 'path', run: f.run })).toEqual({ ok: false, message: 'tank: no such directory' });
    expect(f.calls).toEqual([]);
    expect(await resolveTarget('tank', { run: f.run })).toEqual({ ok: true, value: { path: '/mnt/tank', dataset: 'tank', recordsize: 131072 } });
    const traversal = await resolveTarget('tank/../x', { run: f.run });
    expect(traversal.ok).toBe(false);
    expect(f.calls).toHaveLength(1);
  });
});

describe('datasetOfPath', () => {
  it('reads name and recordsize from zfs list PATH, with the path made absolute', async () => {
    const f = fakeRunner(() => ({ stdout: 'tank/media\t1048576\n' }));
    expect(await datasetOfPath('some/dir', f.run)).toEqual({ dataset: 'tank/media', recordsize: 1048576 });
    expect(f.calls[0]!.args.at(-1)).toBe(join(process.cwd(), 'some/dir'));
    const none = fakeRunner(() => ({ exitCode: 1, stderr: 'cannot open \'/tmp\': not a ZFS filesystem\n' }));
    expect(await datasetOfPath('/tmp', none.run)).toBeNull();
  });
});
