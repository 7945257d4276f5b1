import { describe, expect, it } from 'vitest';
import { parseDraidName } from '../../../server/src/parsers/draid-name.ts';
import { parseZdbConfig, topLevelAshifts } from '../../../server/src/parsers/zdb-config.ts';
import { parseZfsGet } from '../../../server/src/parsers/zfs-get.ts';
import { parseZfsVersion } from '../../../server/src/parsers/zfs-version.ts';
import { parseZpoolGet } from '../../../server/src/parsers/zpool-get.ts';
import { fixture } from './helpers.ts';

describe('parseZpoolGet', () => {
  it('zfs-fuse human table of 12 pools', () => {
    const r = parseZpoolGet(fixture('get/zfs-fuse--zpool_get_all_ALLPOOLS.txt'));
    expect(r.ok && r.issues).toEqual([]);
    if (!r.ok) throw new Error(r.error.message);
    expect(Object.keys(r.value)).toHaveLength(12);
    expect(r.value.fsingle).toMatchObject({
      size: { value: '123M', source: null }, guid: { value: '5963964982304226966', source: 'default' },
      version: { value: '23', source: 'default' }, altroot: { value: '-', source: 'default' }, ashift: { value: '0', source: 'default' },
    });
  });
  it('zfs-fuse single pool: the guid wider than its VALUE column is read, with its source', () => {
    const text = fixture('get/zfs-fuse--zpool_get_all_fsingle.txt');
    const r = parseZpoolGet(text);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.issues).toEqual([]);
    expect(Object.keys(r.value.fsingle!)).toHaveLength(18);
    expect(r.value.fsingle!.guid).toEqual({ value: '5963964982304226966', source: 'default' });
    // The rows around it are still read by column.
    expect(r.value.fsingle!.health).toEqual({ value: 'ONLINE', source: null });
    expect(r.value.fsingle!.version).toEqual({ value: '23', source: 'default' });
    // A value with a space exactly at the SOURCE column edge (derived from the guid row) is not
    // cut there: the last word is the source only when it is a source word.
    const header = text.split('\n')[0]!;
    const spaced = parseZpoolGet(`${header}\nfsingle  comment        abcdefghijk lmnop  local\n`);
    expect(spaced.ok && spaced.value.fsingle!.comment).toEqual({ value: 'abcdefghijk lmnop', source: 'local' });
  });
  it('usage error of zfs-fuse (no -H) → error on line 1', () => {
    const r = parseZpoolGet(fixture('get/zfs-fuse--zpool_get_-H_all.txt'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.line).toBe(1);
  });
  it('-H -p tab rows', () => {
    const r = parseZpoolGet('tank\tsize\t7999999\t-\ntank\tashift\t12\tlocal\ntank\tfeature@async_destroy\tenabled\tlocal\n');
    expect(r).toEqual({ ok: true, issues: [], value: { tank: { size: { value: '7999999', source: null }, ashift: { value: '12', source: 'local' }, 'feature@async_destroy': { value: 'enabled', source: 'local' } } } });
  });
});

describe('parseZfsGet', () => {
  it('zfs-fuse zfs get -H -p all: datasets in order, type from the type property', () => {
    const r = parseZfsGet(fixture('get/zfs-fuse--zfs_get_-H_-p_all.txt'));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.issues).toEqual([]);
    expect(r.value[0]!.name).toBe('fcomplex');
    expect(r.value[0]!.type).toBe('filesystem');
    expect(r.value[0]!.properties.used).toEqual({ value: '385024', source: null });
    expect(r.value[0]!.properties.creation).toEqual({ value: '1795327751', source: null });
  });
  it('human table: creation date with spaces read by column position (OpenZFS man page)', () => {
    const r = parseZfsGet(fixture('get/openzfs-man-zfs-get-all-pool-home-bob.txt'));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.issues).toEqual([]);
    expect(r.value).toHaveLength(1);
    expect(r.value[0]!.type).toBe('filesystem');
    expect(r.value[0]!.properties.creation).toEqual({ value: 'Tue Jul 21 15:53 2009', source: null });
  });
  it('two concatenated tables with script echo lines in between: echo lines reported, both tables read', () => {
    const r = parseZfsGet(fixture('get/draid-special-pool-props-interleaved.txt'));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.issues.map((i) => i.line)).toEqual([8, 11]);
    expect(r.value[0]!.properties).toMatchObject({ recordsize: { value: '1M', source: 'local' }, special_small_blocks: { value: '64K', source: 'local' } });
    expect(r.value[0]!.type).toBeNull();
  });
  it('zfs get -j (OpenZFS man page): FILESYSTEM → filesystem, DEFAULT source → "default"', () => {
    const r = parseZfsGet(fixture('get/openzfs-man-zfs-get-j-r-mountpoint.json'));
    expect(r).toEqual({ ok: true, issues: [], value: [
      { name: 'pool/home', type: 'filesystem', properties: { mountpoint: { value: '/pool/home', source: 'default' } } },
      { name: 'pool/home/bob', type: 'filesystem', properties: { mountpoint: { value: '/pool/home/bob', source: 'default' } } },
    ] });
  });
  it('XCP-ng zfs get -H all (human values, tabs)', () => {
    const r = parseZfsGet(fixture('get/xcpng-vol0-zfs-get-H-all.txt'));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value[0]!.properties.creation?.value).toBe('Wed Jul 21 15:59 2021');
  });
  it('"dataset does not exist" → error line 1', () => {
    expect(parseZfsGet(fixture('get/zfs-fuse--zfs_get_all_nosuch.txt'))).toMatchObject({ ok: false, error: { line: 1 } });
  });
});

describe('parseZdbConfig', () => {
  it('zfs-fuse MOS config: mirror of two files, ashift 12', () => {
    const r = parseZdbConfig(fixture('zdb/zfs-fuse--zdb_-C_fmirror.txt'));
    expect(r).toEqual({ ok: true, issues: [], value: [{
      name: 'fmirror', version: 23, poolGuid: '9322137887989698913', hostname: 'vm', featuresForRead: [],
      vdevTree: { type: 'root', id: 0, guid: '9322137887989698913', path: null, ashift: null, asize: null, nparity: null, isLog: false, allocBias: null, children: [
        { type: 'mirror', id: 0, guid: '16658340991074378194', path: null, ashift: 12, asize: 129499136, nparity: null, isLog: false, allocBias: null, children: [
          { type: 'file', id: 0, guid: '12611304980478024117', path: '/var/lab/vdevs/m1.img', ashift: null, asize: null, nparity: null, isLog: false, allocBias: null, children: [] },
          { type: 'file', id: 1, guid: '930429242246672378', path: '/var/lab/vdevs/m2.img', ashift: null, asize: null, nparity: null, isLog: false, allocBias: null, children: [] },
        ] },
      ] },
    }] });
  });
  it('FreeBSD cached config (pool: at column 0)', () => {
    const r = parseZdbConfig(fixture('zdb/freebsd-mfsbsd-zdb-cached-config-mirror.txt'));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value[0]!.name).toBe('tub');
    expect(topLevelAshifts(r.value[0]!)).toEqual([12]);
    expect(r.value[0]!.vdevTree!.children[0]!.children.map((c) => c.path)).toEqual(['/dev/ada0p3.nop', '/dev/ada1p3.nop']);
  });
  it('truncated excerpts (issues #14312, #13552) still give the first vdev and its ashift', () => {
    const a = parseZdbConfig(fixture('zdb/openzfs-issue14312-zdb-C-raidz2-holes-TRUNCATED.txt'));
    if (!a.ok) throw new Error(a.error.message);
    expect(a.value[0]!.vdevTree!.children[0]).toMatchObject({ type: 'raidz', nparity: 2, ashift: 12 });
    const b = parseZdbConfig(fixture('zdb/openzfs-issue13552-zdb-C-mos-mirror-ashift16-TRUNCATED.txt'));
    if (!b.ok) throw new Error(b.error.message);
    expect(b.value[0]!.name).toBe('zro');
    expect(topLevelAshifts(b.value[0]!)).toEqual([16]);
  });
});

describe('parseZfsVersion', () => {
  it.each([
    ['zfs-2.1.6-1\nzfs-kmod-2.1.6-1\n', { userland: 'zfs-2.1.6-1', kernel: 'zfs-kmod-2.1.6-1', openzfs: '2.1.6', flavour: 'openzfs' }],
    ['zfs-2.1.4-FreeBSD_g52bad4f23\nzfs-kmod-2.1.4-FreeBSD_g52bad4f23\n', { userland: 'zfs-2.1.4-FreeBSD_g52bad4f23', kernel: 'zfs-kmod-2.1.4-FreeBSD_g52bad4f23', openzfs: '2.1.4', flavour: 'openzfs' }],
    ['zfs-2.2.2-0ubuntu9.1\nzfs-kmod-2.2.0-0ubuntu1~23.10\n', { userland: 'zfs-2.2.2-0ubuntu9.1', kernel: 'zfs-kmod-2.2.0-0ubuntu1~23.10', openzfs: '2.2.0', flavour: 'openzfs' }],
    ['zfs-2.1.11-1\nzfs-kmod-v2023072100-zfs_f4871096b\n', { userland: 'zfs-2.1.11-1', kernel: 'zfs-kmod-v2023072100-zfs_f4871096b', openzfs: '2.1.11', flavour: 'openzfs' }],
    ['zfs-0.8.3-1ubuntu12\nzfs-kmod-0.8.3-1ubuntu12\n', { userland: 'zfs-0.8.3-1ubuntu12', kernel: 'zfs-kmod-0.8.3-1ubuntu12', openzfs: '0.8.3', flavour: 'openzfs' }],
    ['zfs-fuse version 0.7.0\n', { userland: 'zfs-fuse version 0.7.0', kernel: null, openzfs: null, flavour: 'zfs-fuse' }],
  ])('%j', (text, expected) => {
    expect(parseZfsVersion(text)).toEqual({ ok: true, value: expected, issues: [] });
  });
  it('anything else is an error with its line', () => {
    expect(parseZfsVersion("\nunrecognized command 'version'\n")).toMatchObject({ ok: false, error: { line: 2 } });
  });
});

describe('parseDraidName', () => {
  it.each([
    ['draid2:4d:84c:4s-0', { parity: 2, data: 4, children: 84, spares: 4 }],
    ['draid1:8d:12c:2s-1', { parity: 1, data: 8, children: 12, spares: 2 }],
    ['draid3:16d:100c:0s', { parity: 3, data: 16, children: 100, spares: 0 }],
  ])('%s', (name, expected) => expect(parseDraidName(name)).toEqual(expected));
  it.each(['raidz2-0', 'draid4:4d:84c:4s-0', 'draid2:80d:84c:4s-0', 'draid1-0-0', 'draid2:4d'])('%s → null', (name) => expect(parseDraidName(name)).toBeNull());
});
