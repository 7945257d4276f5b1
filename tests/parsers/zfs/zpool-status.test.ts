import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { VdevNode } from '../../../server/src/model/inventory.ts';
import { parseZpoolStatus } from '../../../server/src/parsers/zpool-status.ts';
import { disk, file, fixture, fixturePath, group, inClass, isPartialIssue, NONE_REQUESTED, partialRead, pool, scan, spareRow } from './helpers.ts';

const ok = (path: string) => {
  const r = parseZpoolStatus(fixture(path));
  if (!r.ok) throw new Error(`${path}: ${r.error.message} (line ${r.error.line})`);
  return r;
};
const sd = (...names: string[]) => names.map((n) => disk(n));

describe('parseZpoolStatus: exact trees of real outputs', () => {
  it('dRAID with a distributed spare AVAIL (OpenZFS docs)', () => {
    const r = ok('status/draid1-create-spare-avail.txt');
    expect(r.issues.filter((i) => !isPartialIssue(i))).toEqual([]);
    expect(r.value).toEqual(partialRead([pool({
      name: 'tank', errors: null,
      vdevs: [
        group('draid', 'draid1:4d:11c:1s-0', sd('sda', 'sdb', 'sdc', 'sdd', 'sde', 'sdf', 'sdg', 'sdh', 'sdi', 'sdj', 'sdk'),
          { draid: { parity: 1, data: 4, children: 11, spares: 1 } }),
        spareRow('draid1-0-0', 'AVAIL', null, 'spare'),
      ],
    })]));
  });

  it('dRAID sequential rebuild into spare-6 with (resilvering) notes', () => {
    const r = ok('status/draid1-sequential-rebuild-spare6-inuse.txt');
    const rs = (n: string) => disk(n, { note: '(resilvering)' });
    expect(r.value).toEqual(partialRead([pool({
      name: 'tank', state: 'DEGRADED', errors: null,
      status: 'One or more devices is currently being resilvered.  The pool will continue to function, possibly in a degraded state.',
      action: 'Wait for the resilver to complete.',
      scan: scan({
        kind: 'rebuild', state: 'in-progress', startedAt: '2020-11-24T14:34:25', progressPct: 57.17,
        raw: 'resilver (draid1:4d:11c:1s-0) in progress since Tue Nov 24 14:34:25 2020\n3.51T scanned at 13.4G/s, 1.59T issued 6.07G/s, 6.13T total\n326G resilvered, 57.17% done, 00:03:21 to go',
      }),
      vdevs: [
        group('draid', 'draid1:4d:11c:1s-0', [
          rs('sda'), rs('sdb'), rs('sdc'), rs('sdd'), rs('sde'), rs('sdf'),
          group('spare', 'spare-6', [disk('sdg', { state: 'UNAVAIL' }), disk('draid1-0-0', { type: 'spare', note: '(resilvering)' })], { state: 'DEGRADED' }),
          rs('sdh'), rs('sdi'), rs('sdj'), rs('sdk'),
        ], { state: 'DEGRADED', draid: { parity: 1, data: 4, children: 11, spares: 1 } }),
        spareRow('draid1-0-0', 'INUSE', 'currently in use', 'spare'),
      ],
    })]));
  });

  it('replacing-0 inside spare-6, and an under-indented spares row recorded as an issue', () => {
    const r = ok('status/draid1-spare6-replacing0-rebalance.txt');
    expect(r.issues.filter((i) => !isPartialIssue(i))).toEqual([{ line: 30, message: 'pool tank: row draid1-0-0 is not indented below spares; taken as a top-level vdev' }]);
    const [p] = r.value;
    const draid = p!.vdevs[0]!;
    expect(draid.children[6]).toEqual(group('spare', 'spare-6', [
      group('replacing', 'replacing-0', [disk('sdg', { state: 'UNAVAIL' }), disk('sdl', { note: '(resilvering)' })], { state: 'DEGRADED' }),
      disk('draid1-0-0', { type: 'spare', note: '(resilvering)' }),
    ], { state: 'DEGRADED' }));
    expect(p!.vdevs[1]).toEqual(spareRow('draid1-0-0', 'INUSE', 'currently in use', 'spare'));
    expect(p!.scan).toEqual(scan({
      kind: 'resilver', state: 'in-progress', startedAt: '2020-11-24T14:45:16', progressPct: 99.44,
      raw: 'resilver in progress since Tue Nov 24 14:45:16 2020\n6.13T scanned at 7.82G/s, 6.10T issued at 7.78G/s, 6.13T total\n565G resilvered, 99.44% done, 00:00:04 to go',
    }));
  });

  it('two dRAID vdevs with several scan lines → scan + extraScans', () => {
    const r = ok('status/draid1x2-six-fails-multi-scan-lines.txt');
    const g = { parity: 1, data: 8, children: 12, spares: 2 };
    const un = (n: string) => disk(n, { state: 'UNAVAIL' });
    const sp = (i: number, dead: string, spare: string) => group('spare', `spare-${i}`, [un(dead), disk(spare, { type: 'spare' })], { state: 'DEGRADED' });
    expect(r.issues.filter((i) => !isPartialIssue(i))).toEqual([]);
    expect(r.value).toEqual(partialRead([pool({
      name: 'zdraidtest', state: 'DEGRADED',
      status: 'One or more devices could not be used because the label is missing or invalid.  Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Replace the device using 'zpool replace'.",
      see: 'https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-4J',
      scan: scan({ kind: 'scrub', state: 'finished', errors: 0, endedAt: '2021-07-07T21:51:51', raw: 'scrub repaired 0B in 00:00:49 with 0 errors on Wed Jul  7 21:51:51 2021' }),
      extraScans: [
        scan({ kind: 'rebuild', state: 'finished', errors: 0, endedAt: '2021-07-07T21:38:06', raw: 'resilvered (draid1:8d:12c:2s-0) 273M in 00:00:34 with 0 errors on Wed Jul  7 21:38:06 2021' }),
        scan({ kind: 'rebuild', state: 'finished', errors: 0, endedAt: '2021-07-07T21:51:02', raw: 'resilvered (draid1:8d:12c:2s-1) 779M in 00:00:38 with 0 errors on Wed Jul  7 21:51:02 2021' }),
      ],
      vdevs: [
        group('draid', 'draid1:8d:12c:2s-0', [sp(0, 'sdb', 'draid1-0-0'), disk('sdc'), sp(2, 'sdd', 'draid1-0-1'), disk('sde'), un('sdf'),
          ...sd('sdg', 'sdh', 'sdi', 'sdj', 'sdk', 'sdl', 'sdm')], { state: 'DEGRADED', draid: g }),
        group('draid', 'draid1:8d:12c:2s-1', [sp(0, 'sdn', 'draid1-1-0'), disk('sdo'), sp(2, 'sdp', 'draid1-1-1'), disk('sdq'), un('sdr'),
          ...sd('sds', 'sdt', 'sdu', 'sdv', 'sdw', 'sdx', 'sdy')], { state: 'DEGRADED', draid: g }),
        spareRow('draid1-0-0', 'INUSE', 'currently in use', 'spare'),
        spareRow('draid1-0-1', 'INUSE', 'currently in use', 'spare'),
        spareRow('draid1-1-0', 'INUSE', 'currently in use', 'spare'),
        spareRow('draid1-1-1', 'INUSE', 'currently in use', 'spare'),
      ],
    })]));
  });

  it('FreeBSD: missing device as its guid with "was /dev/gpt/…", no estimated completion', () => {
    const r = ok('status/fbsd-mirror-replacing0-guid-noeta.txt');
    expect(r.value).toEqual(partialRead([pool({
      name: 'zvol0', state: 'DEGRADED',
      status: 'One or more devices is currently being resilvered.  The pool will continue to function, possibly in a degraded state.',
      action: 'Wait for the resilver to complete.',
      scan: scan({
        kind: 'resilver', state: 'in-progress', startedAt: '2023-01-28T14:25:44', progressPct: 0,
        raw: 'resilver in progress since Sat Jan 28 14:25:44 2023\n12.8G scanned at 596M/s, 600K issued at 27.3K/s, 1.49T total\n0B resilvered, 0.00% done, no estimated completion time',
      }),
      vdevs: [group('mirror', 'mirror-0', [
        group('replacing', 'replacing-0', [
          disk('12897545936258916783', { state: 'UNAVAIL', note: 'was /dev/gpt/ndisk2' }),
          disk('gpt/sdisk1'),
        ], { state: 'DEGRADED' }),
        disk('gpt/ndisk1'),
      ], { state: 'DEGRADED' })],
    })]));
  });

  it('FreeBSD device removal in progress: remove: block and (removing) note', () => {
    const r = ok('status/fbsd-remove-evacuation-in-progress.txt');
    expect(r.value).toEqual(partialRead([pool({
      name: 'zroot',
      scan: scan({ kind: 'resilver', state: 'finished', errors: 0, endedAt: '2025-01-27T14:18:54', raw: 'resilvered 577M in 00:00:15 with 0 errors on Mon Jan 27 14:18:54 2025' }),
      remove: 'Evacuation of /dev/da0p4 in progress since Mon Jan 27 16:10:59 2025\n158M copied out of 698M at 39.4M/s, 22.57% done, 0h0m to go',
      vdevs: [disk('da0p4', { note: '(removing)' }), disk('da1p4')],
    })]));
  });

  it('FreeBSD: completed removal (two-line remove:) while a resilver runs', () => {
    const r = ok('status/fbsd-resilver-after-removal-completed.txt');
    expect(r.value[0]!.remove).toBe('Removal of vdev 0 copied 698M in 0h0m, completed on Mon Jan 27 16:11:11 2025\n10.1K memory used for removed device mappings');
    expect(r.value[0]!.scan).toEqual(scan({
      kind: 'resilver', state: 'in-progress', startedAt: '2025-01-27T16:17:09', progressPct: 23.06,
      raw: 'resilver in progress since Mon Jan 27 16:17:09 2025\n698M / 698M scanned, 161M / 698M issued at 40.2M/s\n148M resilvered, 23.06% done, 00:00:13 to go',
    }));
    expect(r.value[0]!.vdevs).toEqual([group('mirror', 'mirror-1', [disk('da1p4'), disk('da0p4', { note: '(resilvering)' })])]);
  });

  it('FreeBSD raidz2: FAULTED "too many errors" next to replacing-3 with a REMOVED disk', () => {
    const r = ok('status/fbsd-usb-raidz2-faulted-plus-replacing3.txt');
    expect(r.value[0]!.vdevs).toEqual([group('raidz2', 'raidz2-0', [
      disk('gpt/usb0', { state: 'FAULTED', note: 'too many errors' }),
      disk('gpt/usb1'),
      disk('gpt/usb2'),
      group('replacing', 'replacing-3', [disk('gpt/usb3', { state: 'REMOVED' }), disk('gpt/usb4', { note: '(resilvering)' })], { state: 'DEGRADED' }),
    ], { state: 'DEGRADED' })]);
    expect(r.value[0]!.scan?.state).toBe('in-progress');
    expect(r.value[0]!.scan?.progressPct).toBe(28.88);
  });

  it('FreeBSD 2012: two pools, gptid/ and label/ names, old one-space " scan:" and "scanned out of" progress', () => {
    const r = ok('status/fbsd2012-gptid-and-label-scrub-in-progress-2pools.txt');
    expect(r.issues.filter((i) => !isPartialIssue(i))).toEqual([]);
    expect(r.value).toEqual(partialRead([
      pool({ name: 'tank0', scan: NONE_REQUESTED, vdevs: [disk('gptid/8194f816-80cd-11e1-8a71-00221516e8b8')] }),
      pool({
        name: 'tank1',
        scan: scan({
          kind: 'scrub', state: 'in-progress', startedAt: '2012-05-01T23:28:07', progressPct: 11.56,
          raw: 'scrub in progress since Tue May  1 23:28:07 2012\n146G scanned out of 1.24T at 177M/s, 1h47m to go\n0 repaired, 11.56% done',
        }),
        vdevs: [group('raidz1', 'raidz1-0', sd('label/zdisk1', 'label/zdisk2', 'label/zdisk3', 'label/zdisk4'))],
      }),
    ]));
  });

  it('Linux, tab-indented config: 4 mirrors and an AVAIL spare (jc fixture, scan line snipped by its author)', () => {
    const r = ok('status/jc-linux-4mirrors-spare-avail-snipped.txt');
    expect(r.value).toEqual(partialRead([pool({
      name: 'tank',
      scan: scan({ kind: 'scrub', state: 'finished', raw: 'scrub repaired 0B in <snip>' }),
      vdevs: [
        group('mirror', 'mirror-0', sd('sdh', 'sdk')), group('mirror', 'mirror-1', sd('sdl', 'sdj')),
        group('mirror', 'mirror-2', sd('sdn', 'sdm')), group('mirror', 'mirror-3', sd('sdg', 'sdi')),
        spareRow('sdf', 'AVAIL'),
      ],
    })]));
  });

  it('macOS: three pools with no blank lines at all', () => {
    const r = ok('status/jc-macos-3pools-no-blank-lines.txt');
    expect(r.issues.filter((i) => !isPartialIssue(i))).toEqual([]);
    expect(r.value).toEqual(partialRead([
      pool({ name: 'zhgstera6', scan: scan({ kind: 'scrub', state: 'canceled', endedAt: '2022-08-19T15:33:19', raw: 'scrub canceled on Fri Aug 19 15:33:19 2022' }), vdevs: [disk('726060ALE614-K8JAPRGN:10')] }),
      pool({ name: 'zint500', scan: scan({ kind: 'scrub', state: 'finished', errors: 0, endedAt: '2022-08-16T00:20:50', raw: 'scrub repaired 0 in 0 days 00:19:47 with 0 errors on Tue Aug 16 00:20:50 2022' }), vdevs: [disk('ST3500418AS-5VMSTSSX:5')] }),
      pool({ name: 'zsam53', scan: scan({ kind: 'scrub', state: 'finished', errors: 0, endedAt: '2022-08-15T01:26:46', raw: 'scrub repaired 0 in 0 days 01:25:43 with 0 errors on Mon Aug 15 01:26:46 2022' }), vdevs: [disk('Portable_SSD_T5-S49WNP0N120517B:8')] }),
    ]));
  });

  it('Solaris: " scrub:" line, "cannot open" note, sun.com see: URL', () => {
    const r = ok('status/jc-solaris-mirror-cannot-open.txt');
    expect(r.value).toEqual(partialRead([pool({
      name: 'tank', state: 'DEGRADED',
      status: 'One or more devices could not be opened.  Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Attach the missing device and online it using 'zpool online'.",
      see: 'http://www.sun.com/msg/ZFS-8000-2Q',
      scan: NONE_REQUESTED,
      vdevs: [group('mirror', 'mirror-0', [disk('c1t0d0'), disk('c1t1d0', { state: 'UNAVAIL', note: 'cannot open' })], { state: 'DEGRADED' })],
    })]));
  });

  it('Solaris: UNAVAIL pool, non-zero counters, unindented permanent-error file list', () => {
    const r = ok('status/jc-solaris-unavail-permanent-errors.txt');
    expect(r.value).toEqual(partialRead([pool({
      name: 'tank', state: 'UNAVAIL',
      status: 'One or more devices are faulted in response to IO failures.',
      action: "Make sure the affected devices are connected, then run 'zpool clear'.",
      see: 'http://www.sun.com/msg/ZFS-8000-HC',
      scan: scan({ kind: 'scrub', state: 'finished', errors: 0, endedAt: '2010-02-02T13:08:42', raw: 'scrub completed after 0h0m with 0 errors on Tue Feb  2 13:08:42 2010' }),
      errors: 'Permanent errors have been detected in the following files:',
      errorFiles: ['/tank/data/aaa', '/tank/data/bbb', '/tank/data/ccc'],
      vdevs: [disk('c1t0d0'), disk('c1t1d0', { state: 'UNAVAIL', read: 4, write: 1, note: 'cannot open' })],
    })]));
  });

  it('macOS: completed removal leaves mirror-1 of file vdevs under /Volumes', () => {
    const r = ok('status/macos-remove-completed-file-mirror.txt');
    expect(r.value).toEqual(partialRead([pool({
      name: 'zshrinky', scan: NONE_REQUESTED,
      remove: 'Removal of vdev 0 copied 744M in 0h0m, completed on Wed Apr 26 00:08:13 2023\n18.2K memory used for removed device mappings',
      vdevs: [group('mirror', 'mirror-1', [file('/Volumes/sgtera2/zd1'), file('/Volumes/sgtera2/zd2')])],
    })]));
  });

  it('old unnumbered mirror/replacing names and a "58.5K resilvered" note (ZFS-8000-9P)', () => {
    const r = ok('status/msgdoc-9P-old-replacing-resilvered-note.txt');
    expect(r.value).toEqual(partialRead([pool({
      name: 'test', state: 'DEGRADED',
      status: 'One or more devices is currently being replaced.  The pool may not be providing the necessary level of replication.',
      action: 'Wait for the resilvering operation to complete',
      scan: scan({ kind: 'resilver', state: 'in-progress', progressPct: 0.14, raw: 'resilver in progress, 0.14% done, 0h0m to go' }),
      vdevs: [group('mirror', 'mirror', [
        group('replacing', 'replacing', [disk('sda', { cksum: 3 }), disk('sdc', { note: '58.5K resilvered' })]),
        disk('sdb'),
      ])],
    })]));
  });

  it('logs section row carrying its own state (ZFS-8000-K4)', () => {
    const r = ok('status/msgdoc-K4-logs-row-with-state-unavail.txt');
    expect(r.value[0]!.vdevs).toEqual([disk('c3t2d0'), inClass('log', disk('c5t3d0', { state: 'UNAVAIL', note: 'cannot open' }))]);
  });

  it('permanent errors with -v: indented file list (ZFS-8000-8A)', () => {
    const r = ok('status/msgdoc-8A-permanent-errors-file.txt');
    expect(r.value[0]!.errors).toBe('Permanent errors have been detected in the following files:');
    expect(r.value[0]!.errorFiles).toEqual(['/export/example/foo']);
    expect(r.value[0]!.vdevs).toEqual([disk('sda', { cksum: 2 }), disk('sdb')]);
  });

  it('single top-level file vdev (/root/vdev0) is type file with no children (ZFS-8000-ER)', () => {
    const r = ok('status/msgdoc-ER-errata4-file-vdev.txt');
    expect(r.value[0]!.status).toBe('Errata #4 detected. Existing encrypted datasets contain an on-disk incompatibility which needs to be corrected.');
    expect(r.value[0]!.vdevs).toEqual([file('/root/vdev0')]);
  });

  it('TrueNAS SCALE: ata- ids, a file vdev OFFLINE inside replacing-4, no ETA', () => {
    const r = ok('status/truenas-scale-raidz2-replacing4-file-offline.txt');
    expect(r.value[0]!.vdevs).toEqual([group('raidz2', 'raidz2-0', [
      ...sd('ata-HGST_HUS728T8TALE6L1_VGGGYUEG', 'ata-HGST_HUS728T8TALE6L1_VRGMRVJK', 'ata-HGST_HUS728T8TALE6L1_VRGNZU9K', 'ata-TOSHIBA_HDWG480_71R0A14YFR0H'),
      group('replacing', 'replacing-4', [file('/tmp/fake-drive.img', { state: 'OFFLINE' }), disk('ata-ST8000VN004-2M2101_WSD5B9XY')], { state: 'DEGRADED' }),
    ], { state: 'DEGRADED' })]);
    expect(r.value[0]!.scan?.progressPct).toBe(0);
  });

  it('OpenZFS 2.3 raidz expansion: expand: block and 150-character usb ids', () => {
    const r = ok('status/zfs23-raidz2-expanded-very-long-usb-ids.txt');
    expect(r.issues.filter((i) => !isPartialIssue(i))).toEqual([]);
    expect(r.value).toEqual(partialRead([pool({
      name: 'testpool2',
      scan: scan({ kind: 'scrub', state: 'finished', errors: 0, endedAt: '2025-05-11T13:18:14', raw: 'scrub repaired 0B in 00:00:01 with 0 errors on Sun May 11 13:18:14 2025' }),
      vdevs: [group('raidz2', 'raidz2-0', sd(
        'usb-SanDisk_Extreme_AA010110141601114860-0:0',
        'usb-USB_SanDisk_3.2Gen1_0101420f852a9d28e04c8e417cf3fab3690eb536b2ae07cf5bd65ad8a89596eebee2000000000000000000008a891c540010470081558107c62cd91d-0:0',
        'usb-USB_SanDisk_3.2Gen1_01010c7a5697abd4685016482e932af13a383daa1864476162b1f6f175ee6565383300000000000000000000a1b0161d0001470081558107c62cd903-0:0',
        'usb-Samsung_Flash_Drive_FIT_0371022030001364-0:0', 'usb-Samsung_Flash_Drive_FIT_0373417030009828-0:0',
        'usb-Samsung_Flash_Drive_FIT_0347017070021373-0:0', 'usb-Samsung_Flash_Drive_FIT_0375022030006895-0:0',
      ))],
      expand: {
        vdev: 'raidz2-0', state: 'finished', copiedBytes: 743 * 1024, totalBytes: null, progressPct: 100,
        startedAt: null, endedAt: '2025-05-11T13:18:13', waitingForResilver: null,
        raw: 'expanded raidz2-0 copied 743K in 00:02:03, on Sun May 11 13:18:13 2025',
      },
    })]));
  });

  it('ZoL: two raidz1 of files plus a single file vdev at the top level', () => {
    const r = ok('status/zol-file-raidz1x2-plus-single-file-vdev.txt');
    const f = (...n: string[]) => n.map((x) => file(x));
    expect(r.value).toEqual(partialRead([pool({
      name: 'ztestpoolraidz1', scan: NONE_REQUESTED,
      vdevs: [
        group('raidz1', 'raidz1-0', f('/home/zfile1', '/home/zfile2', '/home/zfile3')),
        group('raidz1', 'raidz1-1', f('/home/zfile4', '/home/zfile5', '/home/zfile6')),
        file('/home/zfile7'),
      ],
    })]));
  });

  it('zfs-fuse: mirrored log + single log, cache on loop0, spare-0 INUSE with "436K resilvered"', () => {
    const r = ok('status/zfs-fuse--zpool_status_fcomplex_SPARE_INUSE.txt');
    const v = '/var/lab/vdevs/';
    expect(r.issues.filter((i) => !isPartialIssue(i))).toEqual([]);
    expect(r.value).toEqual(partialRead([pool({
      name: 'fcomplex',
      scan: scan({ kind: 'resilver', state: 'finished', errors: 0, endedAt: '2026-11-22T06:13:52', raw: 'resilver completed after 0h0m with 0 errors on Sun Nov 22 06:13:52 2026' }),
      vdevs: [
        group('mirror', 'mirror-0', [
          group('spare', 'spare-0', [file(`${v}d1.img`), file(`${v}sp1.img`, { note: '436K resilvered' })]),
          file(`${v}d2.img`),
        ]),
        inClass('log', group('mirror', 'mirror-1', [file(`${v}l1.img`), file(`${v}l2.img`)])),
        inClass('log', file(`${v}l3.img`)),
        inClass('cache', disk('loop0')),
        spareRow(`${v}sp1.img`, 'INUSE', 'currently in use', 'file'),
        spareRow(`${v}sp2.img`, 'AVAIL', null, 'file'),
      ],
    })]));
  });

  it('zfs-fuse: missing file vdev shown by guid, "was" path decides type file', () => {
    const r = ok('status/zfs-fuse--zpool_status_-v_fmirror_UNAVAIL.txt');
    expect(r.value[0]!.vdevs).toEqual([group('mirror', 'mirror-0', [
      file('3608718820306425902', { state: 'UNAVAIL', note: 'was /var/lab/vdevs/m1.img.away' }),
      file('/var/lab/vdevs/m2.img'),
    ], { state: 'DEGRADED' })]);
    expect(r.value[0]!.see).toBe('http://www.sun.com/msg/ZFS-8000-2Q');
  });

  it('zfs-fuse -x: two unhealthy pools, tab-continued status, "152K repaired", 151 data errors', () => {
    const r = ok('status/zfs-fuse--zpool_status_-x_PERMANENT_ERRORS.txt');
    const lab = '/var/zfs-fuse-lab.zMUJIc/vdev/';
    expect(r.value).toEqual(partialRead([
      pool({
        name: 'zl_raidz2', state: 'DEGRADED',
        status: 'One or more devices has been taken offline by the administrator. Sufficient replicas exist for the pool to continue functioning in a degraded state.',
        action: "Online the device using 'zpool online' or replace the device with 'zpool replace'.",
        scan: NONE_REQUESTED,
        vdevs: [group('raidz2', 'raidz2-0', [file(`${lab}r2a.img`), file(`${lab}r2b.img`, { state: 'OFFLINE' }), file(`${lab}r2c.img`), file(`${lab}r2d.img`)], { state: 'DEGRADED' })],
      }),
      pool({
        name: 'zl_single',
        status: 'One or more devices has experienced an error resulting in data corruption.  Applications may be affected.',
        action: 'Restore the file in question if possible.  Otherwise restore the entire pool from backup.',
        see: 'http://www.sun.com/msg/ZFS-8000-8A',
        scan: scan({ kind: 'scrub', state: 'finished', errors: 151, endedAt: '2026-11-22T06:26:16', raw: 'scrub completed after 0h0m with 151 errors on Sun Nov 22 06:26:16 2026' }),
        errors: "151 data errors, use '-v' for a list",
        vdevs: [file(`${lab}s1.img`, { cksum: 338, note: '152K repaired' })],
      }),
    ]));
  });

  it('zfs-fuse: FAULTED single-file pool, output ends right after the config rows', () => {
    const r = ok('status/zfs-fuse--zpool_status_-x_FAULTED.txt');
    expect(r.value).toEqual(partialRead([pool({
      name: 'fsingle', state: 'FAULTED', errors: null,
      status: 'The pool metadata is corrupted and the pool cannot be opened.',
      action: 'Destroy and re-create the pool from a backup source.',
      see: 'http://www.sun.com/msg/ZFS-8000-72',
      scan: NONE_REQUESTED,
      vdevs: [file('/var/lab/vdevs/s1.img', { cksum: 6 })],
    })]));
  });

  it('"all pools are healthy" (zpool status -x) → no pools, no issues', () => {
    expect(parseZpoolStatus(fixture('status/zfs-fuse--zpool_status_-x.txt'))).toEqual({ ok: true, value: [], issues: [] });
  });

  it('reference 000: striped mirrors with a single special vdev (TrueNAS, OpenZFS 2.1.6)', () => {
    const r = ok('status/ref-000-02-line925.txt');
    expect(r.value).toEqual(partialRead([pool({
      name: 'test-pool',
      vdevs: [group('mirror', 'mirror-0', sd('da0', 'da1')), group('mirror', 'mirror-1', sd('da2', 'da3')), inClass('special', disk('nvd1'))],
    })]));
  });

  it('reference 000: mirror with a log device, output cut before errors:', () => {
    const r = ok('status/ref-000-01-line364.txt');
    expect(r.value).toEqual(partialRead([pool({
      name: 'bench-pool', errors: null,
      vdevs: [group('mirror', 'mirror-0', sd('da1', 'da3')), inClass('log', disk('da0'))],
    })]));
  });

  it('trim notes of zpool status -t (OpenZFS PR #8419)', () => {
    const r = ok('status/openzfs-pr8419-zpool-status-t-trim-notes.txt');
    expect(r.value.map((p) => p.vdevs)).toEqual([
      [disk('sdd', { note: '(0% trimmed, started at Thu 21 Feb 2019 07:32:44 PM UTC)' })],
      [disk('scsi-36000c290f7e3d3e0c3644005631d8107', { note: '(trim unsupported)' })],
    ]);
  });
});

describe('parseZpoolStatus: column and error variants', () => {
  it('-s adds a SLOW column (values after CKSUM are consumed, not taken as notes); K suffixes expand', () => {
    // Constructed from zpool_main.c print_status_config: "%-*s  %-8s %5s %5s %5s" plus " %5s" for SLOW.
    const text = [
      '  pool: tank', ' state: ONLINE', 'config:', '',
      '\tNAME        STATE     READ WRITE CKSUM  SLOW',
      '\ttank        ONLINE       0     0     0     -',
      '\t  mirror-0  ONLINE       0     0     0     -',
      '\t    sda     ONLINE    1.2K     0     0    12',
      '\t    sdb     ONLINE       0     0     3     0  (trimming)',
      '', 'errors: No known data errors', '',
    ].join('\n');
    const r = parseZpoolStatus(text);
    expect(r.ok && r.value[0]!.vdevs).toEqual([group('mirror', 'mirror-0', [disk('sda', { read: 1229 }), disk('sdb', { cksum: 3, note: '(trimming)' })])]);
  });

  it.each([
    ['status/zfs-fuse--zpool_status_nosuchpool.txt', "not zpool status output: cannot open 'nosuchpool': no such pool"],
    ['status/zfs-fuse--zpool_status_-L.txt', "not zpool status output: invalid option 'L'"],
    ['status/zfs-fuse--zpool_status_fsingle_DAEMON_DEAD.txt', 'not zpool status output: connect: Connection refused'],
  ])('%s → a clear error on line 1', (path, message) => {
    const r = parseZpoolStatus(fixture(path));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toEqual({ line: 1, message });
  });

  it('empty input is an error, not an empty pool list', () => {
    expect(parseZpoolStatus('')).toEqual({ ok: false, error: { line: null, message: 'empty zpool status output' }, issues: [] });
  });
});

describe('parseZpoolStatus: every other real output parses, with key facts', () => {
  const failing = new Set(['zfs-fuse--zpool_status_-x.txt', 'zfs-fuse--zpool_status_nosuchpool.txt', 'zfs-fuse--zpool_status_-L.txt', 'zfs-fuse--zpool_status_-v_-P.txt',
    'zfs-fuse--zpool_status_fsingle_DAEMON_DEAD.txt', 'zfs-fuse--zpool_status_-v_fsingle_DAEMON_DEAD.txt']);
  const files = readdirSync(fixturePath('status')).filter((f) => f.endsWith('.txt') && !failing.has(f));
  const walk = (ns: VdevNode[]): VdevNode[] => ns.flatMap((n) => [n, ...walk(n.children)]);

  it('has the fixtures', () => expect(files.length).toBeGreaterThanOrEqual(75));
  it.each(files)('%s', (f) => {
    const r = ok(`status/${f}`);
    expect(r.value.length).toBeGreaterThan(0);
    for (const p of r.value) {
      // A block without its errors: line was cut: partial, and it keeps the state its state: line printed.
      if (p.errors === null) {
        expect(p.partial).toBe(true);
        expect(r.issues.some((i) => isPartialIssue(i) && i.message.startsWith(`pool ${p.name}: `))).toBe(true);
      } else expect(p.partial).toBeUndefined();
      const printed = new RegExp(`pool: ${p.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*\\n(?:.*\\n)*?\\s*state: (\\S+)`).exec(fixture(`status/${f}`))?.[1];
      if (printed) expect(p.state).toBe(printed);
      else expect(p.state).toBeNull();
      if (p.state !== null) expect(p.state).toMatch(/^(ONLINE|DEGRADED|FAULTED|UNAVAIL|SUSPENDED)$/);
      expect(p.vdevs.length).toBeGreaterThan(0);
      for (const n of walk(p.vdevs)) {
        // Interior nodes are never typed as leaves and leaves never as groups (except dRAID spares and indirect).
        if (n.children.length > 0) expect(['mirror', 'raidz1', 'raidz2', 'raidz3', 'draid', 'replacing', 'spare']).toContain(n.type);
        else expect(['disk', 'file', 'spare', 'indirect']).toContain(n.type);
        if (n.class === 'spare' && n.children.length === 0 && (n.state === 'AVAIL' || n.state === 'INUSE')) expect(n.read).toBeNull();
      }
    }
  });

  it('reference 001: the "23x 4TB raidz3" and "24x 4TB, 12 striped mirrors" layouts', () => {
    const shape = (path: string) => ok(path).value[0]!.vdevs.map((v) => `${v.type}:${v.children.length}`);
    expect(shape('status/ref-001-21-line724.txt')).toEqual(['raidz3:23']);
    expect(shape('status/ref-001-22-line770.txt')).toEqual(Array.from({ length: 12 }, () => 'mirror:2'));
    expect(shape('status/ref-001-26-line969.txt')).toEqual(Array.from({ length: 24 }, () => 'disk:0'));
  });
});
