import { describe, expect, it } from 'vitest';
import { parseZpoolStatusJson } from '../../../server/src/parsers/zpool-status-json.ts';
import { disk, fixture, group, inClass, pool } from './helpers.ts';

const K = 1024; const M = K * K; const G = M * K; const T = G * K;
const r2 = (n: number) => Math.round(n);
const wd = (name: string, guid: string, size = r2(3.64 * T)) =>
  disk(name, { guid, sizeBytes: size, allocBytes: null });

describe('parseZpoolStatusJson', () => {
  it('OpenZFS man page -j example: raidz1 data, dedup mirror, special disk; HEALTHY→ONLINE, status OK→null', () => {
    const r = parseZpoolStatusJson(fixture('status/openzfs-man-zpool-status-j-raidz1-dedup-special-JSON.json'));
    expect(r.ok && r.issues).toEqual([]);
    expect(r.ok && r.value).toEqual([pool({
      name: 'tank', scan: null,
      vdevs: [
        group('raidz1', 'raidz1-0', [
          wd('ca1eb824-c371-491d-ac13-37637e35c683', '12841765308123764671'),
          wd('97cd98fb-8fb8-4ac4-bc84-bd8950a7ace7', '1527839927278881561'),
          wd('e9ddba5f-f948-4734-a472-cb8aa5f0ff65', '6982750226085199860'),
        ], { guid: '763132626387621737', sizeBytes: r2(10.9 * T), allocBytes: r2(62.5 * G) }),
        inClass('dedup', group('mirror', 'mirror-2', [
          wd('db017360-d8e9-4163-961b-144ca75293a3', '17880913061695450307'),
          wd('952c3baf-b08a-4a8c-b7fa-33a07af5fe6f', '10276374011610020557'),
        ], { guid: '2227766268377771003', sizeBytes: r2(3.62 * T), allocBytes: r2(89.1 * M) })),
        inClass('special', disk('25d418f8-92bd-4327-b59f-7ef5d5f50d81', { guid: '3935742873387713123', sizeBytes: 444 * G, allocBytes: r2(37.4 * M) })),
      ],
    })]);
  });

  it('--json-flat-vdevs and --json-int shapes give the same tree', () => {
    // Built by the rules of vdev_stats_nvlist(): flat keeps every vdev at one level with "parent",
    // leaves are emitted twice, --json-int gives numbers instead of strings.
    const flat = {
      output_version: { command: 'zpool status', vers_major: 0, vers_minor: 1 },
      pools: { tank: { name: 'tank', state: 'ONLINE', guid: 1, status: 'OK', error_count: 0,
        scan_stats: { function: 'SCRUB', state: 'FINISHED', start_time: 1700000000, end_time: 1700000100, errors: 0, to_examine: 100, examined: 100, issued: 100 },
        vdevs: {
          sda: { name: 'sda', vdev_type: 'disk', guid: 11, class: 'normal', state: 'ONLINE', parent: 'mirror-0', read_errors: 0, write_errors: 2, checksum_errors: 0 },
          sdb: { name: 'sdb', vdev_type: 'disk', guid: 12, class: 'normal', state: 'ONLINE', parent: 'mirror-0', read_errors: 0, write_errors: 0, checksum_errors: 0 },
          'mirror-0': { name: 'mirror-0', vdev_type: 'mirror', guid: 10, class: 'normal', state: 'ONLINE', parent: 'tank', read_errors: 0, write_errors: 0, checksum_errors: 0 },
          tank: { name: 'tank', vdev_type: 'root', guid: 1, state: 'ONLINE', read_errors: 0, write_errors: 0, checksum_errors: 0 },
          nvme0n1: { name: 'nvme0n1', vdev_type: 'disk', guid: 20, class: 'log', state: 'ONLINE', read_errors: 0, write_errors: 0, checksum_errors: 0 },
          sdz: { name: 'sdz', vdev_type: 'disk', guid: 30, class: 'spare', state: 'AVAIL' },
        } } },
    };
    const r = parseZpoolStatusJson(JSON.stringify(flat));
    expect(r.ok && r.value[0]!.vdevs).toEqual([
      group('mirror', 'mirror-0', [disk('sda', { guid: '11', write: 2, sizeBytes: null, allocBytes: null }), disk('sdb', { guid: '12', sizeBytes: null, allocBytes: null })], { guid: '10', sizeBytes: null, allocBytes: null }),
      inClass('log', disk('nvme0n1', { guid: '20', sizeBytes: null, allocBytes: null })),
      { class: 'spare', type: 'disk', name: 'sdz', state: 'AVAIL', read: null, write: null, cksum: null, note: null, children: [], guid: '30', sizeBytes: null, allocBytes: null },
    ]);
    expect(r.ok && r.value[0]!.scan).toMatchObject({ kind: 'scrub', state: 'finished', startedAt: '2023-11-14T22:13:20Z', endedAt: '2023-11-14T22:15:00Z', errors: 0 });
  });

  it('not JSON → error with a line; JSON without pools → error', () => {
    const bad = parseZpoolStatusJson('{\n "pools": {\n');
    expect(bad.ok).toBe(false);
    expect(parseZpoolStatusJson('{"x":1}')).toMatchObject({ ok: false, error: { message: 'not zpool status -j output: no "pools" object' } });
  });
});
