/**
 * Exact trees for the real `zpool status` outputs not already covered in zpool-status.test.ts.
 * Every expectation was written from reading the fixture text; large ones live in ./expected/.
 */
import { describe, expect, it } from 'vitest';
import type { ParsedPoolStatus, VdevNode } from '../../../server/src/model/inventory.ts';
import { parseZpoolStatus } from '../../../server/src/parsers/zpool-status.ts';
import { expected as draid84 } from './expected/draid2-84c-4s-online.ts';
import { expected as draid96 } from './expected/draid2-96c-six-spares-inuse.ts';
import { expected as fuse12 } from './expected/zfs-fuse-12-pools.ts';
import { expected as fuseLab7 } from './expected/zfs-fuse-lab-7-pools.ts';
import { disk, file, fixture, group, isPartialIssue, NONE_REQUESTED, partialRead, pool, scan, spareRow } from './helpers.ts';

const parse = (path: string) => {
  const r = parseZpoolStatus(fixture(`status/${path}`));
  if (!r.ok) throw new Error(`${path}: ${r.error.message} (line ${r.error.line})`);
  return r;
};
/** Parses a fixture, expects no issues and exactly these pools. */
const expectPools = (path: string, pools: ParsedPoolStatus[]) => {
  const r = parse(path);
  expect(r.issues.filter((i) => !isPartialIssue(i))).toEqual([]);
  expect(r.value).toEqual(partialRead(pools));
};
/** ONLINE leaves named prefix+from … prefix+to (da0 … da23 in reference 001). */
const seq = (prefix: string, from: number, to: number, pad = 0): VdevNode[] =>
  Array.from({ length: to - from + 1 }, (_, i) => disk(`${prefix}${String(from + i).padStart(pad, '0')}`));

describe('reference 001 (FreeBSD layouts, pool "storage", no errors: line)', () => {
  // The document's examples stop after config:, so errors is null; scan is "none requested".
  const storage = (vdevs: VdevNode[]) => pool({ name: 'storage', scan: NONE_REQUESTED, errors: null, vdevs });
  const da = (from: number, to: number) => seq('da', from, to);
  const mirrors = (n: number) => Array.from({ length: n }, (_, i) => group('mirror', `mirror-${i}`, da(2 * i, 2 * i + 1)));

  it.each<[string, VdevNode[]]>([
    ['ref-001-01-line109.txt', da(0, 0)],
    ['ref-001-02-line132.txt', [group('mirror', 'mirror-0', da(0, 1))]],
    ['ref-001-03-line157.txt', da(0, 1)],
    ['ref-001-04-line181.txt', [group('mirror', 'mirror-0', da(0, 2))]],
    ['ref-001-05-line207.txt', da(0, 2)],
    ['ref-001-06-line232.txt', [group('raidz1', 'raidz1-0', da(0, 2))]],
    ['ref-001-07-line258.txt', mirrors(2)],
    ['ref-001-08-line286.txt', [group('raidz2', 'raidz2-0', da(0, 3))]],
    ['ref-001-09-line313.txt', [group('raidz1', 'raidz1-0', da(0, 4))]],
    ['ref-001-10-line341.txt', [group('raidz3', 'raidz3-0', da(0, 4))]],
    ['ref-001-11-line369.txt', mirrors(3)],
    ['ref-001-12-line400.txt', [group('raidz2', 'raidz2-0', da(0, 5))]],
    ['ref-001-13-line429.txt', [group('raidz1', 'raidz1-0', da(0, 4)), group('raidz1', 'raidz1-1', da(5, 9))]],
    ['ref-001-14-line463.txt', [group('raidz3', 'raidz3-0', da(0, 10))]],
    ['ref-001-15-line497.txt', mirrors(6)],
    ['ref-001-16-line537.txt', [group('raidz2', 'raidz2-0', da(0, 5)), group('raidz2', 'raidz2-1', da(6, 11))]],
    ['ref-001-17-line573.txt', [group('raidz1', 'raidz1-0', da(0, 11))]],
    ['ref-001-18-line608.txt', [group('raidz2', 'raidz2-0', da(0, 11))]],
    ['ref-001-19-line643.txt', [group('raidz3', 'raidz3-0', da(0, 11))]],
    ['ref-001-20-line678.txt', [group('raidz3', 'raidz3-0', da(0, 10)), group('raidz3', 'raidz3-1', da(11, 21))]],
    ['ref-001-21-line724.txt', [group('raidz3', 'raidz3-0', da(0, 22))]],
    ['ref-001-22-line770.txt', mirrors(12)],
    ['ref-001-23-line828.txt', [group('raidz1', 'raidz1-0', da(0, 23))]],
    ['ref-001-24-line875.txt', [group('raidz2', 'raidz2-0', da(0, 23))]],
    ['ref-001-25-line922.txt', [group('raidz3', 'raidz3-0', da(0, 23))]],
    ['ref-001-26-line969.txt', da(0, 23)],
  ])('%s', (path, vdevs) => expectPools(path, [storage(vdevs)]));

  it('ref-001-27: data1 raidz2 of GPT labels after a scrub (0.6-era "repaired 0 in 0h0m")', () => {
    expectPools('ref-001-27-line1435.txt', [pool({
      name: 'data1', errors: null,
      scan: scan({ kind: 'scrub', state: 'finished', errors: 0, endedAt: '2033-04-08T14:36:17', raw: 'scrub repaired 0 in 0h0m with 0 errors on Mon Apr  8 14:36:17 2033' }),
      vdevs: [group('raidz2', 'raidz2-0', seq('data1-', 0, 11, 2))],
    })]);
  });

  it('ref-001-28: the same pool by scsi-…-part1 ids after a resilver', () => {
    const ids = ['327b8d44f', '427c0c540', '427c9410f', '527d1dc47', 'c8456d9cb386', '627e2e502', '627eb60b9', '727fa267a', '82802c19f', '92811a6f3', 'a28205d1e', 'b282e7776'];
    // All but one share the prefix scsi-3600605b00512e8c018f5abe; the fifth is …018f5c8456d9cb386.
    const name = (tail: string) => tail.startsWith('c8') ? `scsi-3600605b00512e8c018f5${tail}-part1` : `scsi-3600605b00512e8c018f5abe${tail}-part1`;
    expectPools('ref-001-28-line1462.txt', [pool({
      name: 'data1', errors: null,
      scan: scan({ kind: 'resilver', state: 'finished', errors: 0, endedAt: '2033-04-08T14:33:58', raw: 'resilvered 0 in 0h0m with 0 errors on Mon Apr  8 14:33:58 2033' }),
      vdevs: [group('raidz2', 'raidz2-0', ids.map((t) => disk(name(t))))],
    })]);
  });
});

describe('FreeBSD: GPT labels, guid rows with "was /dev/…", REMOVED, replacing-N', () => {
  it('second mirror side UNAVAIL, shown by guid with its old path', () => {
    expectPools('fbsd-mirror-unavail-guid-second.txt', [pool({
      name: 'zvol0',
      state: 'DEGRADED',
      status: 'One or more devices could not be opened.  Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Attach the missing device and online it using 'zpool online'.",
      see: 'https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-2Q',
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2023-01-29T06:00:29', errors: 0, raw: 'resilvered 1.49T in 15:34:45 with 0 errors on Sun Jan 29 06:00:29 2023' }),
      vdevs: [
        group('mirror', 'mirror-0', [disk('gpt/sdisk1'), disk('13953654332474917058', { state: 'UNAVAIL', note: 'was /dev/gpt/ndisk1' })], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('USB raidz1 with a REMOVED member, no scan line', () => {
    expectPools('fbsd-usb-raidz1-removed.txt', [pool({
      name: 'upool',
      state: 'DEGRADED',
      status: 'One or more devices have been removed. Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Online the device using zpool online' or replace the device with 'zpool replace'.",
      vdevs: [
        group('raidz1', 'raidz1-0', [disk('gpt/usb0'), disk('gpt/usb1', { state: 'REMOVED' }), disk('gpt/usb2'), disk('gpt/usb3')], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('USB raidz1 REMOVED after a finished resilver', () => {
    expectPools('fbsd-usb-raidz1-removed-after-resilver.txt', [pool({
      name: 'upool',
      state: 'DEGRADED',
      status: 'One or more devices have been removed. Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Online the device using zpool online' or replace the device with 'zpool replace'.",
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2025-12-23T14:00:34', errors: 0, raw: 'resilvered 10.5K in 00:00:07 with 0 errors on Tue Dec 23 14:00:34 2025' }),
      vdevs: [
        group('raidz1', 'raidz1-0', [disk('gpt/usb0', { state: 'REMOVED' }), disk('gpt/usb1'), disk('gpt/usb2'), disk('gpt/usb3')], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('replacing-0 of a REMOVED disk, resilver in progress (3-line scan)', () => {
    expectPools('fbsd-usb-raidz1-replacing0-removed.txt', [pool({
      name: 'upool',
      state: 'DEGRADED',
      status: 'One or more devices is currently being resilvered.  The pool will continue to function, possibly in a degraded state.',
      action: 'Wait for the resilver to complete.',
      scan: scan({ kind: 'resilver', state: 'in-progress', startedAt: '2025-12-24T10:58:00', progressPct: 41.91, raw: 'resilver in progress since Wed Dec 24 10:58:00 2025\n630M / 630M scanned, 264M / 630M issued at 20.3M/s\n50.0M resilvered, 41.91% done, 00:00:18 to go' }),
      vdevs: [
        group('raidz1', 'raidz1-0', [
          group('replacing', 'replacing-0', [disk('gpt/usb0', { state: 'REMOVED' }), disk('gpt/usb4', { note: '(resilvering)' })], { state: 'DEGRADED' }),
          disk('gpt/usb1'),
          disk('gpt/usb2'),
          disk('gpt/usb3'),
        ], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('replacing-2 of a guid row', () => {
    expectPools('fbsd-usb-raidz1-replacing2-guid.txt', [pool({
      name: 'upool',
      state: 'DEGRADED',
      status: 'One or more devices is currently being resilvered.  The pool will continue to function, possibly in a degraded state.',
      action: 'Wait for the resilver to complete.',
      scan: scan({ kind: 'resilver', state: 'in-progress', startedAt: '2025-12-24T11:16:58', progressPct: 11.66, raw: 'resilver in progress since Wed Dec 24 11:16:58 2025\n631M / 631M scanned, 73.5M / 630M issued at 10.5M/s\n2.29M resilvered, 11.66% done, 00:00:53 to go' }),
      vdevs: [
        group('raidz1', 'raidz1-0', [
          disk('gpt/usb4'),
          disk('gpt/usb1'),
          group('replacing', 'replacing-2', [
            disk('16031226974783295807', { state: 'UNAVAIL', note: 'was /dev/gpt/usb2' }),
            disk('gpt/usb5', { note: '(resilvering)' }),
          ], { state: 'DEGRADED' }),
          disk('gpt/usb3'),
        ], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('raidz1 member UNAVAIL by guid', () => {
    expectPools('fbsd-usb-raidz1-unavail-guid.txt', [pool({
      name: 'upool',
      state: 'DEGRADED',
      status: 'One or more devices could not be opened.  Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Attach the missing device and online it using 'zpool online'.",
      see: 'https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-2Q',
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2025-12-24T10:58:38', errors: 0, raw: 'resilvered 158M in 00:00:38 with 0 errors on Wed Dec 24 10:58:38 2025' }),
      vdevs: [
        group('raidz1', 'raidz1-0', [
          disk('gpt/usb4'),
          disk('gpt/usb1'),
          disk('16031226974783295807', { state: 'UNAVAIL', note: 'was /dev/gpt/usb2' }),
          disk('gpt/usb3'),
        ], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('raidz2 member FAULTED "too many errors"', () => {
    expectPools('fbsd-usb-raidz2-faulted-persistent.txt', [pool({
      name: 'upool',
      state: 'DEGRADED',
      status: 'One or more devices are faulted in response to persistent errors. Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Replace the faulted device, or use 'zpool clear' to mark the device repaired.",
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2026-01-14T11:09:09', errors: 0, raw: 'resilvered 486M in 00:12:24 with 0 errors on Wed Jan 14 11:09:09 2026' }),
      vdevs: [
        group('raidz2', 'raidz2-0', [
          disk('gpt/usb0', { state: 'FAULTED', note: 'too many errors' }),
          disk('gpt/usb1'),
          disk('gpt/usb2'),
          disk('gpt/usb4'),
        ], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('ONLINE mirror still resilvering one side', () => {
    expectPools('fbsd-zroot-resilvering-online.txt', [pool({
      name: 'zroot',
      status: 'One or more devices is currently being resilvered.  The pool will continue to function, possibly in a degraded state.',
      action: 'Wait for the resilver to complete.',
      scan: scan({ kind: 'resilver', state: 'in-progress', startedAt: '2025-03-07T23:42:43', progressPct: 10.98, raw: 'resilver in progress since Fri Mar  7 23:42:43 2025\n598G / 2.79T scanned at 189M/s, 314G / 2.79T issued at 99.3M/s\n315G resilvered, 10.98% done, 07:17:27 to go' }),
      vdevs: [
        group('mirror', 'mirror-0', [disk('gpt/hdpool0'), disk('gpt/hdpool1', { note: '(resilvering)' })]),
      ],
    })]);
  });

});

describe('OpenZFS message docs (old " scrub:" key; root-row notes belong to the pool, not to a vdev)', () => {
  it('ZFS-8000-3C: FAULTED stripe, one disk "cannot open"', () => {
    expectPools('msgdoc-3C-faulted-insufficient-replicas.txt', [pool({
      name: 'test',
      state: 'FAULTED',
      status: 'One or more devices could not be opened.  There are insufficient replicas for the pool to continue functioning.',
      action: "Attach the missing device and online it using 'zpool online'.",
      see: 'https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-3C',
      scan: NONE_REQUESTED,
      vdevs: [
        disk('sda'),
        disk('sdb', { state: 'FAULTED', note: 'cannot open' }),
      ],
    })]);
  });

  it('ZFS-8000-A5: unnumbered "mirror" row, "No known errors"', () => {
    expectPools('msgdoc-A5-incompatible-version.txt', [pool({
      name: 'test',
      state: 'FAULTED',
      status: 'The ZFS version for the pool is incompatible with the software running on this system.',
      action: 'Destroy and re-create the pool.',
      scan: NONE_REQUESTED,
      errors: 'No known errors',
      vdevs: [
        group('mirror', 'mirror', [disk('sda9'), disk('sdb9')]),
      ],
    })]);
  });

  it('ZFS-8000-HC: write errors on the FAULTED disk, data-error count', () => {
    expectPools('msgdoc-HC-faulted-io-failures.txt', [pool({
      name: 'test',
      state: 'FAULTED',
      status: 'There are I/O failures.',
      action: "Make sure the affected devices are connected, then run 'zpool clear'.",
      see: 'https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-HC',
      scan: NONE_REQUESTED,
      errors: "1 data errors, use '-v' for a list",
      vdevs: [
        disk('sda', { state: 'FAULTED', write: 7, note: 'experienced I/O failures' }),
        disk('sdb'),
      ],
    })]);
  });

});

describe('Linux: TrueNAS SCALE, ZoL 0.6–0.8, by-id names, file vdevs', () => {
  it('wwn- mirrors, tab-indented, features status block', () => {
    expectPools('jc-linux-wwn-mirrors-upgrade-status.txt', [pool({
      name: 'pool1',
      status: 'Some supported and requested features are not enabled on the pool. The pool can still be used, but some features are unavailable.',
      action: "Enable all features using 'zpool upgrade'. Once this is done, the pool may no longer be accessible by software that does not support the features. See zpool-features(7) for details.",
      scan: scan({ kind: 'scrub', state: 'finished', endedAt: '2023-02-12T11:40:04', errors: 0, raw: 'scrub repaired 0B in 11:16:03 with 0 errors on Sun Feb 12 11:40:04 2023' }),
      vdevs: [
        group('mirror', 'mirror-0', [disk('wwn-0x5000c500c65ac66f'), disk('wwn-0x5000c500c5eee542')]),
        group('mirror', 'mirror-1', [disk('wwn-0x5000c500e39e8af6'), disk('wwn-0x5000c500e3b3a41e')]),
      ],
    })]);
  });

  it('TrueNAS SCALE raidz1 with an OFFLINE partition', () => {
    expectPools('truenas-scale-raidz1-offline-partition-names.txt', [pool({
      name: 'pool1',
      state: 'DEGRADED',
      status: 'One or more devices has been taken offline by the administrator. Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Online the device using 'zpool online' or replace the device with 'zpool replace'.",
      scan: scan({ kind: 'scrub', state: 'finished', endedAt: '2025-05-14T06:25:26', errors: 0, raw: 'scrub repaired 68K in 10:40:08 with 0 errors on Wed May 14 06:25:26 2025' }),
      vdevs: [
        group('raidz1', 'raidz1-0', [disk('sde2'), disk('sdf2'), disk('sdc2'), disk('sda2', { state: 'OFFLINE' })], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('TrueNAS SCALE raidz2 with an OFFLINE file placeholder (type file)', () => {
    expectPools('truenas-scale-raidz2-fake-file-offline.txt', [pool({
      name: 'tank',
      state: 'DEGRADED',
      status: 'One or more devices has been taken offline by the administrator. Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Online the device using 'zpool online' or replace the device with 'zpool replace'.",
      vdevs: [
        group('raidz2', 'raidz2-0', [
          disk('ata-HGST_HUS728T8TALE6L1_VGGGYUEG'),
          disk('ata-HGST_HUS728T8TALE6L1_VRGMRVJK'),
          disk('ata-HGST_HUS728T8TALE6L1_VRGNZU9K'),
          disk('ata-TOSHIBA_HDWG480_71R0A14YFR0H'),
          file('/tmp/fake-drive.img', { state: 'OFFLINE' }),
        ], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('two pools of file vdevs, no blank line before errors:', () => {
    expectPools('zol-two-pools-raidz1x2-raidz2x2-files.txt', [pool({
      name: 'ztestpoolraidz1',
      scan: NONE_REQUESTED,
      vdevs: [
        group('raidz1', 'raidz1-0', [file('/home/zfile1'), file('/home/zfile2'), file('/home/zfile3')]),
        group('raidz1', 'raidz1-1', [file('/home/zfile4'), file('/home/zfile5'), file('/home/zfile6')]),
      ],
    }), pool({
      name: 'ztestpoolraidz2',
      scan: NONE_REQUESTED,
      vdevs: [
        group('raidz2', 'raidz2-0', [
          file('/home/zfile1'),
          file('/home/zfile2'),
          file('/home/zfile3'),
          file('/home/zfile4'),
          file('/home/zfile5'),
          file('/home/zfile6'),
        ]),
        group('raidz2', 'raidz2-1', [
          file('/home/zfile7'),
          file('/home/zfile8'),
          file('/home/zfile9'),
          file('/home/zfile10'),
          file('/home/zfile11'),
          file('/home/zfile12'),
        ]),
      ],
    })]);
  });

  it('ZoL 0.6 file mirrors with a file spare AVAIL', () => {
    expectPools('zol06-file-vdevs-3mirrors-spare.txt', [pool({
      name: 'zdynpool1',
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2016-05-09T16:49:45', errors: 0, raw: 'resilvered 276K in 0h0m with 0 errors on Mon May  9 16:49:45 2016' }),
      vdevs: [
        group('mirror', 'mirror-0', [file('/zdisks/zdyndisk1'), file('/zdisks/zdyndisk2')]),
        group('mirror', 'mirror-1', [file('/zdisks/zdyndisk3'), file('/zdisks/zdyndisk4')]),
        group('mirror', 'mirror-2', [file('/zdisks/zdyndisk5'), file('/zdisks/zdyndisk6')]),
        spareRow('/zdisks/zdyndisk7', 'AVAIL', null, 'file'),
      ],
    })]);
  });

  it('ZoL 0.8 "0 days 04:49:39" resilver, ata- ids', () => {
    expectPools('zol08-raid10-ata-ids-features.txt', [pool({
      name: 'zseatera4',
      status: 'Some supported features are not enabled on the pool. The pool can still be used, but some features are unavailable.',
      action: "Enable all features using 'zpool upgrade'. Once this is done, the pool may no longer be accessible by software that does not support the features. See zpool-features(5) for details.",
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2020-06-21T09:07:36', errors: 0, raw: 'resilvered 2.80T in 0 days 04:49:39 with 0 errors on Sun Jun 21 09:07:36 2020' }),
      vdevs: [
        group('mirror', 'mirror-0', [disk('ata-HGST_HUS726060ALE614_K8HU3M7N'), disk('ata-HGST_HUS726060ALE614_K8HUH6YN')]),
        group('mirror', 'mirror-1', [disk('ata-ST4000VN000-1H4168_Z3073Z7X'), disk('ata-ST4000VN008-2DR166_ZGY005C6')]),
      ],
    })]);
  });

});

describe('dRAID (OpenZFS issue outputs): distributed spares, spare-N, several scan lines', () => {
  it('two draid1 vdevs, four distributed spares INUSE (spare-N ONLINE) and sdz AVAIL', () => {
    expectPools('draid1x2-online-spares-inuse-plus-avail.txt', [pool({
      name: 'zdraidtest',
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2021-07-07T22:12:23', errors: 0, raw: 'resilvered 4.42G in 00:01:14 with 0 errors on Wed Jul  7 22:12:23 2021' }),
      vdevs: [
        group('draid', 'draid1:8d:12c:2s-0', [
          group('spare', 'spare-0', [disk('sdb'), disk('draid1-0-0', { type: 'spare' })]),
          disk('sdc'),
          group('spare', 'spare-2', [disk('sdd'), disk('draid1-0-1', { type: 'spare' })]),
          disk('sde'),
          disk('sdaa'),
          disk('sdg'),
          disk('sdh'),
          disk('sdi'),
          disk('sdj'),
          disk('sdk'),
          disk('sdl'),
          disk('sdm'),
        ], { draid: { parity: 1, data: 8, children: 12, spares: 2 } }),
        group('draid', 'draid1:8d:12c:2s-1', [
          group('spare', 'spare-0', [disk('sdn'), disk('draid1-1-0', { type: 'spare' })]),
          disk('sdo'),
          group('spare', 'spare-2', [disk('sdp'), disk('draid1-1-1', { type: 'spare' })]),
          disk('sdq'),
          disk('sdab'),
          disk('sds'),
          disk('sdt'),
          disk('sdu'),
          disk('sdv'),
          disk('sdw'),
          disk('sdx'),
          disk('sdy'),
        ], { draid: { parity: 1, data: 8, children: 12, spares: 2 } }),
        spareRow('draid1-0-0', 'INUSE', 'currently in use', 'spare'),
        spareRow('draid1-0-1', 'INUSE', 'currently in use', 'spare'),
        spareRow('draid1-1-0', 'INUSE', 'currently in use', 'spare'),
        spareRow('draid1-1-1', 'INUSE', 'currently in use', 'spare'),
        spareRow('sdz', 'AVAIL'),
      ],
    })]);
  });

  it('four draid1 vdevs, one UNAVAIL disk each, spare-5 in the last; trailing blanks after AVAIL are no note', () => {
    expectPools('draid1x4-degraded-spare5.txt', [pool({
      name: 'zdraidtest',
      state: 'DEGRADED',
      status: 'One or more devices could not be used because the label is missing or invalid.  Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Replace the device using 'zpool replace'.",
      see: 'https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-4J',
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2021-07-03T17:18:21', errors: 0, raw: 'resilvered 716M in 00:00:13 with 0 errors on Sat Jul  3 17:18:21 2021' }),
      vdevs: [
        group('draid', 'draid1:4d:6c:1s-0', [disk('sdb'), disk('sdc'), disk('sdd', { state: 'UNAVAIL' }), disk('sde'), disk('sdf'), disk('sdg')], { state: 'DEGRADED', draid: { parity: 1, data: 4, children: 6, spares: 1 } }),
        group('draid', 'draid1:4d:6c:1s-1', [disk('sdh'), disk('sdi'), disk('sdj', { state: 'UNAVAIL' }), disk('sdk'), disk('sdl'), disk('sdm')], { state: 'DEGRADED', draid: { parity: 1, data: 4, children: 6, spares: 1 } }),
        group('draid', 'draid1:4d:6c:1s-2', [disk('sdn'), disk('sdo'), disk('sdp'), disk('sdq'), disk('sdr', { state: 'UNAVAIL' }), disk('sds')], { state: 'DEGRADED', draid: { parity: 1, data: 4, children: 6, spares: 1 } }),
        group('draid', 'draid1:4d:6c:1s-3', [
          disk('sdt', { state: 'UNAVAIL' }),
          disk('sdu'),
          disk('sdv'),
          disk('sdw'),
          disk('sdx'),
          group('spare', 'spare-5', [disk('sdy', { state: 'UNAVAIL' }), disk('draid1-3-0', { type: 'spare' })], { state: 'DEGRADED' }),
        ], { state: 'DEGRADED', draid: { parity: 1, data: 4, children: 6, spares: 1 } }),
        spareRow('draid1-0-0', 'AVAIL', null, 'spare'),
        spareRow('draid1-1-0', 'AVAIL', null, 'spare'),
        spareRow('draid1-2-0', 'AVAIL', null, 'spare'),
        spareRow('draid1-3-0', 'INUSE', 'currently in use', 'spare'),
      ],
    })]);
  });

  it('three scan: lines → scan + two rebuild extraScans', () => {
    expectPools('draid2x2-multi-scan-lines-unavail.txt', [pool({
      name: 'zdraidtest',
      state: 'DEGRADED',
      status: 'One or more devices could not be used because the label is missing or invalid.  Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Replace the device using 'zpool replace'.",
      see: 'https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-4J',
      scan: scan({ kind: 'scrub', state: 'finished', endedAt: '2021-07-07T22:30:03', errors: 0, raw: 'scrub repaired 0B in 00:00:36 with 0 errors on Wed Jul  7 22:30:03 2021' }),
      extraScans: [scan({ kind: 'rebuild', state: 'finished', endedAt: '2021-07-07T22:23:40', errors: 0, raw: 'resilvered (draid2:8d:12c:2s-0) 319M in 00:00:10 with 0 errors on Wed Jul  7 22:23:40 2021' }), scan({ kind: 'rebuild', state: 'finished', endedAt: '2021-07-07T22:29:27', errors: 0, raw: 'resilvered (draid2:8d:12c:2s-1) 598M in 00:00:30 with 0 errors on Wed Jul  7 22:29:27 2021' })],
      vdevs: [
        group('draid', 'draid2:8d:12c:2s-0', [
          group('spare', 'spare-0', [disk('sdb', { state: 'UNAVAIL' }), disk('draid2-0-0', { type: 'spare' })], { state: 'DEGRADED' }),
          disk('sdc'),
          group('spare', 'spare-2', [disk('sdd', { state: 'UNAVAIL' }), disk('draid2-0-1', { type: 'spare' })], { state: 'DEGRADED' }),
          disk('sde'),
          disk('sdf', { state: 'UNAVAIL' }),
          disk('sdg'),
          disk('sdh', { state: 'UNAVAIL' }),
          disk('sdi'),
          disk('sdj'),
          disk('sdk'),
          disk('sdl'),
          disk('sdm'),
        ], { state: 'DEGRADED', draid: { parity: 2, data: 8, children: 12, spares: 2 } }),
        group('draid', 'draid2:8d:12c:2s-1', [
          group('spare', 'spare-0', [disk('sdn', { state: 'UNAVAIL' }), disk('draid2-1-0', { type: 'spare' })], { state: 'DEGRADED' }),
          disk('sdo'),
          group('spare', 'spare-2', [disk('sdp', { state: 'UNAVAIL' }), disk('draid2-1-1', { type: 'spare' })], { state: 'DEGRADED' }),
          disk('sdq'),
          disk('sdr', { state: 'UNAVAIL' }),
          disk('sds'),
          disk('sdt', { state: 'UNAVAIL' }),
          disk('sdu'),
          disk('sdv'),
          disk('sdw'),
          disk('sdx'),
          disk('sdy'),
        ], { state: 'DEGRADED', draid: { parity: 2, data: 8, children: 12, spares: 2 } }),
        spareRow('draid2-0-0', 'INUSE', 'currently in use', 'spare'),
        spareRow('draid2-0-1', 'INUSE', 'currently in use', 'spare'),
        spareRow('draid2-1-0', 'INUSE', 'currently in use', 'spare'),
        spareRow('draid2-1-1', 'INUSE', 'currently in use', 'spare'),
      ],
    })]);
  });

  it('84-child draid2 with four AVAIL distributed spares and no scan line (expected/draid2-84c-4s-online.ts)', () => {
    expectPools('draid2-84c-4s-online.txt', draid84);
  });

  it('96-child draid2, six distributed + five traditional spares in use (expected/draid2-96c-six-spares-inuse.ts)', () => {
    expectPools('draid2-96c-six-spares-inuse.txt', draid96);
  });
});

describe('zfs-fuse 0.7 (" scrub:" key, "N repaired"/"N resilvered" notes, file and loop vdevs)', () => {
  it.each([
    ['zfs-fuse--zpool_status.txt', fuse12],
    ['zfs-fuse--zpool_status_-v.txt', fuse12],
    ['zfs-fuse--zpool_status_-v_LAB.txt', fuseLab7],
  ])('%s: every pool of the lab (expected/)', (path, pools) => expectPools(path, pools));

  it('zfs-fuse--zpool_status_-v_DEGRADED_fmirror.txt: mirror side OFFLINE', () => {
    expectPools('zfs-fuse--zpool_status_-v_DEGRADED_fmirror.txt', [pool({
      name: 'fmirror',
      state: 'DEGRADED',
      status: 'One or more devices has been taken offline by the administrator. Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Online the device using 'zpool online' or replace the device with 'zpool replace'.",
      scan: NONE_REQUESTED,
      vdevs: [
        group('mirror', 'mirror-0', [file('/var/lab/vdevs/m1.img'), file('/var/lab/vdevs/m2.img', { state: 'OFFLINE' })], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('zfs-fuse--zpool_status_-x_DEGRADED.txt: mirror side OFFLINE', () => {
    expectPools('zfs-fuse--zpool_status_-x_DEGRADED.txt', [pool({
      name: 'fmirror',
      state: 'DEGRADED',
      status: 'One or more devices has been taken offline by the administrator. Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Online the device using 'zpool online' or replace the device with 'zpool replace'.",
      scan: NONE_REQUESTED,
      vdevs: [
        group('mirror', 'mirror-0', [file('/var/lab/vdevs/m1.img'), file('/var/lab/vdevs/m2.img', { state: 'OFFLINE' })], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('zfs-fuse--zpool_status_DEGRADED_fmirror.txt: mirror side OFFLINE', () => {
    expectPools('zfs-fuse--zpool_status_DEGRADED_fmirror.txt', [pool({
      name: 'fmirror',
      state: 'DEGRADED',
      status: 'One or more devices has been taken offline by the administrator. Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Online the device using 'zpool online' or replace the device with 'zpool replace'.",
      scan: NONE_REQUESTED,
      vdevs: [
        group('mirror', 'mirror-0', [file('/var/lab/vdevs/m1.img'), file('/var/lab/vdevs/m2.img', { state: 'OFFLINE' })], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('loop raidz2 with loop8 OFFLINE', () => {
    expectPools('zfs-fuse--zpool_status_DEGRADED_lraidz2.txt', [pool({
      name: 'lraidz2',
      state: 'DEGRADED',
      status: 'One or more devices has been taken offline by the administrator. Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Online the device using 'zpool online' or replace the device with 'zpool replace'.",
      scan: NONE_REQUESTED,
      vdevs: [
        group('raidz2', 'raidz2-0', [disk('loop7'), disk('loop8', { state: 'OFFLINE' }), disk('loop9'), disk('loop10')], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('FAULTED single-file pool: the root row\'s "corrupted data" stays with the pool; the file shows CKSUM 6; no errors: line', () => {
    expectPools('zfs-fuse--zpool_status_-v_FAULTED_fsingle.txt', [pool({
      name: 'fsingle',
      state: 'FAULTED',
      status: 'The pool metadata is corrupted and the pool cannot be opened.',
      action: 'Destroy and re-create the pool from a backup source.',
      see: 'http://www.sun.com/msg/ZFS-8000-72',
      scan: NONE_REQUESTED,
      errors: null,
      vdevs: [
        file('/var/lab/vdevs/s1.img', { cksum: 6 }),
      ],
    })]);
  });

  it('permanent errors: scrub with 151 errors, "152K repaired" note, the damaged file listed', () => {
    expectPools('zfs-fuse--zpool_status_-v_PERMANENT_ERRORS.txt', [pool({
      name: 'zl_single',
      status: 'One or more devices has experienced an error resulting in data corruption.  Applications may be affected.',
      action: 'Restore the file in question if possible.  Otherwise restore the entire pool from backup.',
      see: 'http://www.sun.com/msg/ZFS-8000-8A',
      scan: scan({ kind: 'scrub', state: 'finished', endedAt: '2026-11-22T06:26:16', errors: 151, raw: 'scrub completed after 0h0m with 151 errors on Sun Nov 22 06:26:16 2026' }),
      errors: 'Permanent errors have been detected in the following files:',
      errorFiles: ['/var/zfs-fuse-lab.zMUJIc/mnt/zl_single/victim'],
      vdevs: [
        file('/var/zfs-fuse-lab.zMUJIc/vdev/s1.img', { cksum: 338, note: '152K repaired' }),
      ],
    })]);
  });

  it('zfs-fuse--zpool_status_-v_fraidz2_after_scrub_cksum.txt: CKSUM 267/270 with "10.4M repaired"', () => {
    expectPools('zfs-fuse--zpool_status_-v_fraidz2_after_scrub_cksum.txt', [pool({
      name: 'fraidz2',
      status: 'One or more devices has experienced an unrecoverable error.  An attempt was made to correct the error.  Applications are unaffected.',
      action: "Determine if the device needs to be replaced, and clear the errors using 'zpool clear' or replace the device with 'zpool replace'.",
      see: 'http://www.sun.com/msg/ZFS-8000-9P',
      scan: scan({ kind: 'scrub', state: 'finished', endedAt: '2026-11-22T06:10:22', errors: 0, raw: 'scrub completed after 0h0m with 0 errors on Sun Nov 22 06:10:22 2026' }),
      vdevs: [
        group('raidz2', 'raidz2-0', [
          file('/var/lab/vdevs/z2a.img', { cksum: 267, note: '10.4M repaired' }),
          file('/var/lab/vdevs/z2b.img', { cksum: 270, note: '10.4M repaired' }),
          file('/var/lab/vdevs/z2c.img'),
          file('/var/lab/vdevs/z2d.img'),
        ]),
      ],
    })]);
  });

  it('zfs-fuse--zpool_status_-v_fraidz2_right_after_scrub.txt: CKSUM 267/270 with "10.4M repaired"', () => {
    expectPools('zfs-fuse--zpool_status_-v_fraidz2_right_after_scrub.txt', [pool({
      name: 'fraidz2',
      status: 'One or more devices has experienced an unrecoverable error.  An attempt was made to correct the error.  Applications are unaffected.',
      action: "Determine if the device needs to be replaced, and clear the errors using 'zpool clear' or replace the device with 'zpool replace'.",
      see: 'http://www.sun.com/msg/ZFS-8000-9P',
      scan: scan({ kind: 'scrub', state: 'finished', endedAt: '2026-11-22T06:10:22', errors: 0, raw: 'scrub completed after 0h0m with 0 errors on Sun Nov 22 06:10:22 2026' }),
      vdevs: [
        group('raidz2', 'raidz2-0', [
          file('/var/lab/vdevs/z2a.img', { cksum: 267, note: '10.4M repaired' }),
          file('/var/lab/vdevs/z2b.img', { cksum: 270, note: '10.4M repaired' }),
          file('/var/lab/vdevs/z2c.img'),
          file('/var/lab/vdevs/z2d.img'),
        ]),
      ],
    })]);
  });

  it('zfs-fuse--zpool_status_-x_after_cksum.txt: CKSUM 267/270 with "10.4M repaired"', () => {
    expectPools('zfs-fuse--zpool_status_-x_after_cksum.txt', [pool({
      name: 'fraidz2',
      status: 'One or more devices has experienced an unrecoverable error.  An attempt was made to correct the error.  Applications are unaffected.',
      action: "Determine if the device needs to be replaced, and clear the errors using 'zpool clear' or replace the device with 'zpool replace'.",
      see: 'http://www.sun.com/msg/ZFS-8000-9P',
      scan: scan({ kind: 'scrub', state: 'finished', endedAt: '2026-11-22T06:10:22', errors: 0, raw: 'scrub completed after 0h0m with 0 errors on Sun Nov 22 06:10:22 2026' }),
      vdevs: [
        group('raidz2', 'raidz2-0', [
          file('/var/lab/vdevs/z2a.img', { cksum: 267, note: '10.4M repaired' }),
          file('/var/lab/vdevs/z2b.img', { cksum: 270, note: '10.4M repaired' }),
          file('/var/lab/vdevs/z2c.img'),
          file('/var/lab/vdevs/z2d.img'),
        ]),
      ],
    })]);
  });

  it('fbig scrub completed (06:13:18)', () => {
    expectPools('zfs-fuse--zpool_status_fbig_after_scrub_-s.txt', [pool({
      name: 'fbig',
      scan: scan({ kind: 'scrub', state: 'finished', endedAt: '2026-11-22T06:13:18', errors: 0, raw: 'scrub completed after 0h0m with 0 errors on Sun Nov 22 06:13:18 2026' }),
      vdevs: [
        group('mirror', 'mirror-0', [file('/var/lab/vdevs/big1.img'), file('/var/lab/vdevs/big2.img')]),
      ],
    })]);
  });

  it('fbig scrub completed (06:13:19)', () => {
    expectPools('zfs-fuse--zpool_status_fbig_scrub_done.txt', [pool({
      name: 'fbig',
      scan: scan({ kind: 'scrub', state: 'finished', endedAt: '2026-11-22T06:13:19', errors: 0, raw: 'scrub completed after 0h0m with 0 errors on Sun Nov 22 06:13:19 2026' }),
      vdevs: [
        group('mirror', 'mirror-0', [file('/var/lab/vdevs/big1.img'), file('/var/lab/vdevs/big2.img')]),
      ],
    })]);
  });

  it('fbig scrub in progress at 0.00%', () => {
    expectPools('zfs-fuse--zpool_status_fbig_scrub_in_progress.txt', [pool({
      name: 'fbig',
      scan: scan({ kind: 'scrub', state: 'in-progress', progressPct: 0, raw: 'scrub in progress for 0h0m, 0.00% done, 0h0m to go' }),
      vdevs: [
        group('mirror', 'mirror-0', [file('/var/lab/vdevs/big1.img'), file('/var/lab/vdevs/big2.img')]),
      ],
    })]);
  });

  it('fcomplex: mirrored log plus a single log, loop cache, two file spares', () => {
    expectPools('zfs-fuse--zpool_status_fcomplex_after_detach.txt', [pool({
      name: 'fcomplex',
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2026-11-22T06:13:52', errors: 0, raw: 'resilver completed after 0h0m with 0 errors on Sun Nov 22 06:13:52 2026' }),
      vdevs: [
        group('mirror', 'mirror-0', [file('/var/lab/vdevs/d1.img'), file('/var/lab/vdevs/d2.img')]),
        group('mirror', 'mirror-1', [file('/var/lab/vdevs/l1.img', { class: 'log' }), file('/var/lab/vdevs/l2.img', { class: 'log' })], { class: 'log' }),
        file('/var/lab/vdevs/l3.img', { class: 'log' }),
        disk('loop0', { class: 'cache' }),
        spareRow('/var/lab/vdevs/sp1.img', 'AVAIL', null, 'file'),
        spareRow('/var/lab/vdevs/sp2.img', 'AVAIL', null, 'file'),
      ],
    })]);
  });

  it('resilver in progress after online: "3.45M resilvered"', () => {
    expectPools('zfs-fuse--zpool_status_fmirror_after_online.txt', [pool({
      name: 'fmirror',
      status: 'One or more devices is currently being resilvered.  The pool will continue to function, possibly in a degraded state.',
      action: 'Wait for the resilver to complete.',
      scan: scan({ kind: 'resilver', state: 'in-progress', progressPct: 11.64, raw: 'resilver in progress for 0h0m, 11.64% done, 0h0m to go' }),
      vdevs: [
        group('mirror', 'mirror-0', [file('/var/lab/vdevs/m1.img'), file('/var/lab/vdevs/m2.img', { note: '3.45M resilvered' })]),
      ],
    })]);
  });

  it('resilver completed: "29.3M resilvered"', () => {
    expectPools('zfs-fuse--zpool_status_fmirror_after_online_2s.txt', [pool({
      name: 'fmirror',
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2026-11-22T06:10:13', errors: 0, raw: 'resilver completed after 0h0m with 0 errors on Sun Nov 22 06:10:13 2026' }),
      vdevs: [
        group('mirror', 'mirror-0', [file('/var/lab/vdevs/m1.img'), file('/var/lab/vdevs/m2.img', { note: '29.3M resilvered' })]),
      ],
    })]);
  });

  it('after replace: "51.3M resilvered" on m1', () => {
    expectPools('zfs-fuse--zpool_status_fmirror_after_replace.txt', [pool({
      name: 'fmirror',
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2026-11-22T06:12:51', errors: 0, raw: 'resilver completed after 0h0m with 0 errors on Sun Nov 22 06:12:51 2026' }),
      vdevs: [
        group('mirror', 'mirror-0', [file('/var/lab/vdevs/m1.img', { note: '51.3M resilvered' }), file('/var/lab/vdevs/m2.img')]),
      ],
    })]);
  });

  it('replacing capture taken after the resilver finished', () => {
    expectPools('zfs-fuse--zpool_status_fmirror_replacing.txt', [pool({
      name: 'fmirror',
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2026-11-22T06:12:51', errors: 0, raw: 'resilver completed after 0h0m with 0 errors on Sun Nov 22 06:12:51 2026' }),
      vdevs: [
        group('mirror', 'mirror-0', [file('/var/lab/vdevs/m1.img', { note: '51.3M resilvered' }), file('/var/lab/vdevs/m2.img')]),
      ],
    })]);
  });

  it('guid row UNAVAIL "was /var/lab/vdevs/m1.img.away": typed file from the old path', () => {
    expectPools('zfs-fuse--zpool_status_fmirror_after_restore.txt', [pool({
      name: 'fmirror',
      state: 'DEGRADED',
      status: 'One or more devices could not be opened.  Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Attach the missing device and online it using 'zpool online'.",
      see: 'http://www.sun.com/msg/ZFS-8000-2Q',
      scan: NONE_REQUESTED,
      vdevs: [
        group('mirror', 'mirror-0', [
          file('3608718820306425902', { state: 'UNAVAIL', note: 'was /var/lab/vdevs/m1.img.away' }),
          file('/var/lab/vdevs/m2.img'),
        ], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('single file pool after a scrub', () => {
    expectPools('zfs-fuse--zpool_status_fsingle_after_scrub.txt', [pool({
      name: 'fsingle',
      scan: scan({ kind: 'scrub', state: 'finished', endedAt: '2026-11-22T06:10:20', errors: 0, raw: 'scrub completed after 0h0m with 0 errors on Sun Nov 22 06:10:20 2026' }),
      vdevs: [
        file('/var/lab/vdevs/s1.img'),
      ],
    })]);
  });

  it('single file pool, scrub already complete when asked', () => {
    expectPools('zfs-fuse--zpool_status_fsingle_scrub_immediately.txt', [pool({
      name: 'fsingle',
      scan: scan({ kind: 'scrub', state: 'finished', endedAt: '2026-11-22T06:10:20', errors: 0, raw: 'scrub completed after 0h0m with 0 errors on Sun Nov 22 06:10:20 2026' }),
      vdevs: [
        file('/var/lab/vdevs/s1.img'),
      ],
    })]);
  });

  it('loop raidz2 after online: "12K resilvered"', () => {
    expectPools('zfs-fuse--zpool_status_lraidz2_after_online.txt', [pool({
      name: 'lraidz2',
      scan: scan({ kind: 'resilver', state: 'finished', endedAt: '2026-11-22T06:10:15', errors: 0, raw: 'resilver completed after 0h0m with 0 errors on Sun Nov 22 06:10:15 2026' }),
      vdevs: [
        group('raidz2', 'raidz2-0', [disk('loop7'), disk('loop8', { note: '12K resilvered' }), disk('loop9'), disk('loop10')]),
      ],
    })]);
  });

  it.each([
    ['zfs-fuse--zpool_status_-v_-P.txt', "not zpool status output: invalid option 'P'"],
    ['zfs-fuse--zpool_status_-v_fsingle_DAEMON_DEAD.txt', 'not zpool status output: connect: Connection refused'],
  ])('%s → a clear error on line 1', (path, message) => {
    const r = parseZpoolStatus(fixture(`status/${path}`));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toEqual({ line: 1, message });
    // Every line of the message is kept as an issue, so the user sees the whole complaint.
    expect(r.issues.filter((i) => !isPartialIssue(i))).toHaveLength(3);
  });
});

describe('whole pools for fixtures zpool-status.test.ts checks only in part', () => {
  it('FreeBSD: two-line remove: block kept raw, resilver in progress', () => {
    expectPools('fbsd-resilver-after-removal-completed.txt', [pool({
      name: 'zroot',
      status: 'One or more devices is currently being resilvered.  The pool will continue to function, possibly in a degraded state.',
      action: 'Wait for the resilver to complete.',
      scan: scan({ kind: 'resilver', state: 'in-progress', startedAt: '2025-01-27T16:17:09', progressPct: 23.06, raw: 'resilver in progress since Mon Jan 27 16:17:09 2025\n698M / 698M scanned, 161M / 698M issued at 40.2M/s\n148M resilvered, 23.06% done, 00:00:13 to go' }),
      remove: 'Removal of vdev 0 copied 698M in 0h0m, completed on Mon Jan 27 16:11:11 2025\n10.1K memory used for removed device mappings',
      vdevs: [
        group('mirror', 'mirror-1', [disk('da1p4'), disk('da0p4', { note: '(resilvering)' })]),
      ],
    })]);
  });

  it('FreeBSD raidz2: FAULTED member plus replacing-3, "no estimated completion time"', () => {
    expectPools('fbsd-usb-raidz2-faulted-plus-replacing3.txt', [pool({
      name: 'upool',
      state: 'DEGRADED',
      status: 'One or more devices is currently being resilvered.  The pool will continue to function, possibly in a degraded state.',
      action: 'Wait for the resilver to complete.',
      scan: scan({ kind: 'resilver', state: 'in-progress', startedAt: '2026-01-14T10:56:45', progressPct: 28.88, raw: 'resilver in progress since Wed Jan 14 10:56:45 2026\n1.89G / 1.89G scanned, 559M / 1.89G issued at 3.14M/s\n130M resilvered, 28.88% done, no estimated completion time' }),
      vdevs: [
        group('raidz2', 'raidz2-0', [
          disk('gpt/usb0', { state: 'FAULTED', note: 'too many errors' }),
          disk('gpt/usb1'),
          disk('gpt/usb2'),
          group('replacing', 'replacing-3', [disk('gpt/usb3', { state: 'REMOVED' }), disk('gpt/usb4', { note: '(resilvering)' })], { state: 'DEGRADED' }),
        ], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('ZFS-8000-K4: the logs section row\'s own state is not a vdev', () => {
    expectPools('msgdoc-K4-logs-row-with-state-unavail.txt', [pool({
      name: 'test',
      state: 'DEGRADED',
      status: 'One or more devices could not be opened.  Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Attach the missing device and online it using 'zpool online'.",
      see: 'https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-2Q',
      scan: NONE_REQUESTED,
      vdevs: [
        disk('c3t2d0'),
        disk('c5t3d0', { class: 'log', state: 'UNAVAIL', note: 'cannot open' }),
      ],
    })]);
  });

  it('ZFS-8000-8A: root-row CKSUM 2 stays with the pool; sda CKSUM 2; file list', () => {
    expectPools('msgdoc-8A-permanent-errors-file.txt', [pool({
      name: 'test',
      status: 'One or more devices has experienced an error and no valid replicas are available.  Some filesystem data is corrupt, and applications may have been affected.',
      action: 'Destroy the pool and restore from backup.',
      see: 'https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-8A',
      scan: NONE_REQUESTED,
      errors: 'Permanent errors have been detected in the following files:',
      errorFiles: ['/export/example/foo'],
      vdevs: [
        disk('sda', { cksum: 2 }),
        disk('sdb'),
      ],
    })]);
  });

  it('ZFS-8000-ER: four-line action joined, single file vdev', () => {
    expectPools('msgdoc-ER-errata4-file-vdev.txt', [pool({
      name: 'test',
      status: 'Errata #4 detected. Existing encrypted datasets contain an on-disk incompatibility which needs to be corrected.',
      action: 'To correct the issue enable the bookmark_v2 feature and backup any existing encrypted datasets to new encrypted datasets and destroy the old ones. If this pool does not contain any encrypted datasets, simply enable the bookmark_v2 feature.',
      see: 'https://openzfs.github.io/openzfs-docs/msg/ZFS-8000-ER',
      scan: NONE_REQUESTED,
      vdevs: [
        file('/root/vdev0'),
      ],
    })]);
  });

  it('TrueNAS SCALE: replacing-4 of an OFFLINE file by an ata- disk, 0.00% done', () => {
    expectPools('truenas-scale-raidz2-replacing4-file-offline.txt', [pool({
      name: 'pool1',
      state: 'DEGRADED',
      status: 'One or more devices is currently being resilvered.  The pool will continue to function, possibly in a degraded state.',
      action: 'Wait for the resilver to complete.',
      scan: scan({ kind: 'resilver', state: 'in-progress', startedAt: '2025-05-31T19:58:51', progressPct: 0, raw: 'resilver in progress since Sat May 31 19:58:51 2025\n2.04T / 28.5T scanned at 56.6G/s, 0B / 28.5T issued\n0B resilvered, 0.00% done, no estimated completion time' }),
      vdevs: [
        group('raidz2', 'raidz2-0', [
          disk('ata-HGST_HUS728T8TALE6L1_VGGGYUEG'),
          disk('ata-HGST_HUS728T8TALE6L1_VRGMRVJK'),
          disk('ata-HGST_HUS728T8TALE6L1_VRGNZU9K'),
          disk('ata-TOSHIBA_HDWG480_71R0A14YFR0H'),
          group('replacing', 'replacing-4', [file('/tmp/fake-drive.img', { state: 'OFFLINE' }), disk('ata-ST8000VN004-2M2101_WSD5B9XY')], { state: 'DEGRADED' }),
        ], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('zfs-fuse: guid row UNAVAIL with its old file path', () => {
    expectPools('zfs-fuse--zpool_status_-v_fmirror_UNAVAIL.txt', [pool({
      name: 'fmirror',
      state: 'DEGRADED',
      status: 'One or more devices could not be opened.  Sufficient replicas exist for the pool to continue functioning in a degraded state.',
      action: "Attach the missing device and online it using 'zpool online'.",
      see: 'http://www.sun.com/msg/ZFS-8000-2Q',
      scan: NONE_REQUESTED,
      vdevs: [
        group('mirror', 'mirror-0', [
          file('3608718820306425902', { state: 'UNAVAIL', note: 'was /var/lab/vdevs/m1.img.away' }),
          file('/var/lab/vdevs/m2.img'),
        ], { state: 'DEGRADED' }),
      ],
    })]);
  });

  it('zpool status -t: trim notes on two pools', () => {
    expectPools('openzfs-pr8419-zpool-status-t-trim-notes.txt', [pool({
      name: 'rpool73ac2ec5b7134ca192b020681ab913d8',
      scan: NONE_REQUESTED,
      vdevs: [
        disk('sdd', { note: '(0% trimmed, started at Thu 21 Feb 2019 07:32:44 PM UTC)' }),
      ],
    }), pool({
      name: 'vpool2',
      scan: NONE_REQUESTED,
      vdevs: [
        disk('scsi-36000c290f7e3d3e0c3644005631d8107', { note: '(trim unsupported)' }),
      ],
    })]);
  });

  it('dRAID: replacing-0 inside spare-6, all members resilvering; the under-indented spares row is an issue', () => {
    const r = parse('draid1-spare6-replacing0-rebalance.txt');
    expect(r.issues.filter((i) => !isPartialIssue(i))).toEqual([{ line: 30, message: 'pool tank: row draid1-0-0 is not indented below spares; taken as a top-level vdev' }]);
    expect(r.value).toEqual(partialRead([pool({
      name: 'tank',
      state: 'DEGRADED',
      status: 'One or more devices is currently being resilvered.  The pool will continue to function, possibly in a degraded state.',
      action: 'Wait for the resilver to complete.',
      scan: scan({ kind: 'resilver', state: 'in-progress', startedAt: '2020-11-24T14:45:16', progressPct: 99.44, raw: 'resilver in progress since Tue Nov 24 14:45:16 2020\n6.13T scanned at 7.82G/s, 6.10T issued at 7.78G/s, 6.13T total\n565G resilvered, 99.44% done, 00:00:04 to go' }),
      errors: null,
      vdevs: [
        group('draid', 'draid1:4d:11c:1s-0', [
          disk('sda', { note: '(resilvering)' }),
          disk('sdb', { note: '(resilvering)' }),
          disk('sdc', { note: '(resilvering)' }),
          disk('sdd', { note: '(resilvering)' }),
          disk('sde', { note: '(resilvering)' }),
          disk('sdf', { note: '(resilvering)' }),
          group('spare', 'spare-6', [
            group('replacing', 'replacing-0', [disk('sdg', { state: 'UNAVAIL' }), disk('sdl', { note: '(resilvering)' })], { state: 'DEGRADED' }),
            disk('draid1-0-0', { type: 'spare', note: '(resilvering)' }),
          ], { state: 'DEGRADED' }),
          disk('sdh', { note: '(resilvering)' }),
          disk('sdi', { note: '(resilvering)' }),
          disk('sdj', { note: '(resilvering)' }),
          disk('sdk', { note: '(resilvering)' }),
        ], { state: 'DEGRADED', draid: { parity: 1, data: 4, children: 11, spares: 1 } }),
        spareRow('draid1-0-0', 'INUSE', 'currently in use', 'spare'),
      ],
    })]));
  });
});
