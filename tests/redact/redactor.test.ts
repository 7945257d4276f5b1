/**
 * The redactor's recognisers, one by one, on real outputs (tests/fixtures/redact, see
 * PROVENANCE.md) and on single lines in the formats the tools print. Expected values were
 * written by reading the fixtures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseZpoolStatus } from '../../server/src/parsers/zpool-status.ts';
import { serialOfById } from '../../server/src/redact/learn.ts';
import { createRedactor } from '../../server/src/redact/redactor.ts';

const FIX = join(import.meta.dirname, '..', 'fixtures', 'redact');
const read = (f: string) => readFileSync(join(FIX, f), 'utf8');

describe('serials', () => {
  it('takes the serial out of by-id names, namespace and partition suffixes included', () => {
    expect(serialOfById('ata-WDC_WD40EFRX-68N32N0_WD-WCC7K0XXXXXX')).toBe('WD-WCC7K0XXXXXX');
    expect(serialOfById('ata-HGST_HUS726060ALE614_K8HU3M7N-part1')).toBe('K8HU3M7N');
    expect(serialOfById('nvme-INTEL_SSDPEK1A058GA_PHOC209200KC058A_1')).toBe('PHOC209200KC058A');
    expect(serialOfById('usb-SanDisk_Ultra_4C530001234567891234-0:0')).toBe('4C530001234567891234');
    expect(serialOfById('nvme-eui.0025385b71b07e2f')).toBeNull();
    expect(serialOfById('wwn-0x5000c500a496983d')).toBeNull();
  });

  it('redacts serials of a zpool status named by ata ids, with no smartctl output, and it still parses', () => {
    const text = read('zpool-status-ata-ids.txt');
    const r = createRedactor();
    r.learnText(text, 'zpool-status.txt');
    const out = r.redactText(text);
    for (const s of ['K8HU3M7N', 'K8HUH6YN', 'Z3073Z7X', 'ZGY005C6']) expect(out).not.toContain(s);
    expect(out).toContain('ata-HGST_HUS726060ALE614_SERIAL-1  ONLINE');
    expect(out).toContain('ata-ST4000VN008-2DR166_SERIAL-4    ONLINE');
    const pools = parseZpoolStatus(out);
    expect(pools.ok && pools.value[0]!.vdevs[0]!.children.map((c) => c.name)).toEqual(['ata-HGST_HUS726060ALE614_SERIAL-1', 'ata-HGST_HUS726060ALE614_SERIAL-2']);
  });

  it('finds serials in lsblk, nvme list and smartctl text, also inside an NVMe NQN', () => {
    const r = createRedactor();
    const lsblk = '{"blockdevices":[{"name":"sda","serial":"ZL2ABCDE","wwn":"0x5000c500b1c2d3e4","fstype":null}]}';
    const nvme = '{"Devices":[{"DevicePath":"/dev/nvme0n1","SerialNumber":"PHOC209200KC058A","SubsystemNQN":"nqn.2014.08.org.nvmexpress:80868086PHOC209200KC058A  INTEL"}]}';
    for (const t of [lsblk, nvme, 'Serial Number:    S3YZNB0KB00864E']) r.learnText(t);
    expect(r.redactText(lsblk)).toBe('{"blockdevices":[{"name":"sda","serial":"SERIAL-1","wwn":"0xWWN-1","fstype":null}]}');
    expect(r.redactText(nvme)).toBe('{"Devices":[{"DevicePath":"/dev/nvme0n1","SerialNumber":"SERIAL-2","SubsystemNQN":"nqn.2014.08.org.nvmexpress:80868086SERIAL-2  INTEL"}]}');
    expect(r.redactText('Serial Number:    S3YZNB0KB00864E')).toBe('Serial Number:    SERIAL-3');
  });
});

describe('WWNs', () => {
  it('gives one token to every spelling of the same WWN, numeric smartctl form included, and keeps JSON valid', () => {
    const r = createRedactor();
    // 5 / 0x002538 / 61213911380 = 0x5002538e40a22954 (tests/fixtures/report PROVENANCE.md).
    const smart = '{"wwn": {"naa": 5, "oui": 9528, "id": 61213911380}, "logical_unit_id": "0x5002538e40a22954"}';
    r.learnText(smart);
    const out = r.redactText(smart);
    expect(JSON.parse(out)).toEqual({ wwn: { naa: 5, oui: 9528, id: 'WWN-1' }, logical_unit_id: '0xWWN-1' });
    expect(r.redactText('wwn-0x5002538E40A22954-part1 scsi-35002538e40a22954 naa.5002538e40a22954 5002538e40a22954'))
      .toBe('wwn-0xWWN-1-part1 scsi-3WWN-1 naa.WWN-1 WWN-1');
    expect(r.redactText('nvme-nvme.8086-50484f43-494e54454c-00000001 -> ../../nvme0n1')).toBe('nvme-WWN-2 -> ../../nvme0n1');
    expect(r.redactText('nvme-eui.0025385b71b07e2f')).toBe('nvme-eui.WWN-3');
  });
});

describe('GUIDs', () => {
  it('replaces every guid of zpool status -j, and the JSON still parses with the same shape', () => {
    const text = read('zpool-status-j.json');
    const r = createRedactor();
    r.learnText(text, 'zpool-status.json');
    const out = r.redactText(text);
    for (const g of ['3920273586464696295', '763132626387621737', '17880913061695450307', '3935742873387713123']) expect(out).not.toContain(g);
    const parsed = JSON.parse(out) as { pools: { tank: { guid: string; vdevs: { tank: { vdevs: Record<string, { guid: string }> } } } } };
    expect(parsed.pools.tank.guid).toBe('GUID-1');
    expect(parsed.pools.tank.vdevs.tank.vdevs['raidz1-0']!.guid).toBe('GUID-2');
  });

  it('quotes a GUID that --json-int prints as a bare number', () => {
    const r = createRedactor();
    const j = '{"pool_guid": 9322137887989698913, "vdevs": [16658340991074378194]}';
    r.learnText(j);
    r.learnText('children[0]: guid: 16658340991074378194');
    expect(JSON.parse(r.redactText(j))).toEqual({ pool_guid: 'GUID-1', vdevs: ['GUID-2'] });
  });

  it('redacts zdb -C: guids by context and the hostname', () => {
    const text = read('zdb-C.txt');
    const r = createRedactor();
    r.learnText(text, 'zdb-C.txt');
    const out = r.redactText(text);
    expect(out).toContain('pool_guid: GUID-1\n');
    expect(out).toContain("hostname: 'HOST-1'");
    expect(out).toContain('            guid: GUID-1\n'); // the root vdev's guid is the pool's
    expect(out).not.toMatch(/\d{15,}/);
    expect(out).toContain('ashift: 12'); // ordinary numbers stay
  });

  it('replaces a vdev named only by its GUID, also in prose', () => {
    const status = '  pool: zvol0\n config:\n\n        zvol0                     DEGRADED     0     0     0\n            13953654332474917058  UNAVAIL      0     0     0  was /dev/gpt/ndisk1\n';
    const r = createRedactor();
    r.learnText(status, 'zpool-status.txt');
    expect(r.redactText(status)).toContain('            GUID-1  UNAVAIL');
    expect(r.redactText('Replace 13953654332474917058 now; 139536543324749170581 is not it')).toBe('Replace GUID-1 now; 139536543324749170581 is not it');
  });
});

describe('hosts and addresses', () => {
  it('splits an FQDN into host and domain tokens and matches them without case', () => {
    const r = createRedactor();
    r.learnText('Linux pve-garage.lab.example.net 6.8.12-4-pve #1 SMP x86_64 GNU/Linux', 'uname.txt');
    expect(r.redactText('pve-garage.lab.example.net PVE-GARAGE nas.example.net pve-garagex')).toBe('HOST-1.DOMAIN-1 HOST-1 nas.DOMAIN-2 pve-garagex');
    expect(r.redactText('6.8.12-4-pve')).toBe('6.8.12-4-pve');
  });

  it('matches a vendor default host name only as spelled, so the product name in prose survives', () => {
    const r = createRedactor();
    r.learnText('FreeBSD truenas 13.1-RELEASE-p2 FreeBSD 13.1-RELEASE-p2 n245412-484f039b1d0 TRUENAS amd64');
    expect(r.redactText('truenas runs TrueNAS CORE (TRUENAS kernel)')).toBe('HOST-1 runs TrueNAS CORE (TRUENAS kernel)');
  });

  it('replaces IPv4, IPv6 and MAC addresses but not times, versions or loopback', () => {
    const r = createRedactor();
    expect(r.redactText('rw=@10.20.30.40,no_root_squash 127.0.0.1 255.255.255.0')).toBe('rw=@IP-1,no_root_squash 127.0.0.1 255.255.255.0');
    expect(r.redactText('[fd12:3456:789a::1] 2001:0db8:0000:0000:0000:ff00:0042:8329 fe80::1%eth0 ::1')).toBe('[IP-2] IP-3 IP-4%eth0 ::1');
    expect(r.redactText('mac 00:1b:21:3a:4f:5e and 00-1B-21-3A-4F-5E')).toBe('mac MAC-1 and MAC-1');
    expect(r.redactText('in 11:16:03 with 0 errors on Sun Feb 12 11:40:04 2023, version 1.2.3.4.5, usb-0:0')).toBe('in 11:16:03 with 0 errors on Sun Feb 12 11:40:04 2023, version 1.2.3.4.5, usb-0:0');
  });
});

describe('pool and dataset names', () => {
  const zfsGet = 'pool1\ttype\tfilesystem\t-\npool1/vm-100-disk-0\tvolblocksize\t8192\tdefault\npool1/vm-100-disk-0\tcompression\tlz4\tinherited from pool1\n';
  it('replaces dataset paths with no right boundary, the pool as a whole token, and only with poolNames', () => {
    const plain = createRedactor();
    plain.learnText(zfsGet, 'zfs-get.txt');
    expect(plain.redactText(zfsGet)).toBe(zfsGet);
    const r = createRedactor({ poolNames: true });
    r.learnText(zfsGet, 'zfs-get.txt');
    expect(r.redactText(zfsGet)).toBe('POOL-1\ttype\tfilesystem\t-\nPOOL-1/DATASET-1\tvolblocksize\t8192\tdefault\nPOOL-1/DATASET-1\tcompression\tlz4\tinherited from POOL-1\n');
    expect(r.redactText('zfs create -V 32G -o volblocksize=16k pool1/vm-100-disk-0-16k; mount /mnt/pool1/x; pool1: full. pool1.conf xpool1'))
      .toBe('zfs create -V 32G -o volblocksize=16k POOL-1/DATASET-1-16k; mount /mnt/POOL-1/x; POOL-1: full. pool1.conf xpool1');
  });

  it('known limit: a pool named with an ordinary word is replaced in prose too; zpool status labels stay', () => {
    const r = createRedactor({ poolNames: true });
    r.learnText('  pool: data\n state: ONLINE\n', 'zpool-status.txt');
    expect(r.redactText('  pool: data\n state: ONLINE\n')).toBe('  pool: POOL-1\n state: ONLINE\n');
    expect(r.redactText('data vdevs of data/media')).toBe('POOL-1 vdevs of POOL-1/media');
    const p = createRedactor({ poolNames: true });
    p.learnText('  pool: pool\n state: ONLINE\n', 'zpool-status.txt');
    expect(p.redactText('  pool: pool\n')).toBe('  pool: POOL-1\n');
  });

  it('counts distinct values per kind and maps them back', () => {
    const r = createRedactor({ poolNames: true });
    r.learnText(zfsGet, 'zfs-get.txt');
    r.redactText('10.0.0.1 10.0.0.2 10.0.0.1');
    expect(r.counts()).toEqual({ POOL: 1, DATASET: 1, IP: 2 });
    expect(r.mapping().get('pool1/vm-100-disk-0')).toBe('DATASET-1');
  });
});
