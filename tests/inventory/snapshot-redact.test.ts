import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildInventory } from '../../server/src/gather/build.ts';
import { DEMO_DIR, loadSnapshotInventory } from '../../server/src/gather/load.ts';
import { createRedactor } from '../../server/src/redact/redactor.ts';
import { isSafeRawName, readSnapshot, writeSnapshot } from '../../server/src/snapshot/directory.ts';

const tmp = mkdtempSync(join(tmpdir(), 'zfs-advisor-snap-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const demo000 = join(DEMO_DIR, '000-hdd-mirror-optane');
const src = { kind: 'snapshot' as const, label: 't', capturedAt: 'x', demo: false, redacted: false };

async function readOk(dir: string) {
  const r = await readSnapshot(dir);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

describe('snapshot directories', () => {
  it('round-trips: write(read(dir)) rebuilds the identical inventory, commands and exit codes included', async () => {
    const a = await readOk(demo000);
    const out = join(tmp, 'copy');
    const files = await writeSnapshot(out, a.raw, { ...a.meta });
    expect(files).toContain('smartctl/nvd1.json');
    const b = await readOk(out);
    expect(b.raw).toEqual(a.raw);
    expect(b.raw['zpool-status.txt']?.command).toEqual(['zpool', 'status', '-v']);
    expect((await loadSnapshotInventory(out)).inventory).toEqual((await loadSnapshotInventory(demo000)).inventory);
  });

  it('keeps a failed command (no file, only meta.json) so the gap says why', async () => {
    const r = await readOk(join(DEMO_DIR, '001-raidz2-12disk'));
    expect(r.raw['zfs-version.txt']).toEqual({ text: '', command: ['zfs', 'version'], exitCode: 1, stderr: "unrecognized command 'version'", error: null });
  });

  it('reports a missing directory as an error value and refuses unsafe file names', async () => {
    expect(await readSnapshot(join(tmp, 'nope'))).toEqual({ ok: false, error: `${join(tmp, 'nope')}: no such snapshot directory` });
    expect(isSafeRawName('smartctl/sda.json')).toBe(true);
    expect(isSafeRawName('../etc/passwd')).toBe(false);
    expect(isSafeRawName('/etc/passwd')).toBe(false);
    expect(isSafeRawName('a/b/c.txt')).toBe(false);
    await expect(writeSnapshot(join(tmp, 'bad'), { '../x': { text: 'x', command: null, exitCode: 0, stderr: '', error: null } }, {
      capturedAt: 'x', hostname: null, platform: null, versions: {}, demo: false, label: null, redaction: { applied: false, poolNames: false },
    })).rejects.toThrow(/refusing/);
  });
});

describe('redaction', () => {
  it('removes serials, WWNs, hostnames and pool names from every file, consistently, and the inventory still resolves', async () => {
    const { raw } = await readOk(demo000);
    const r = createRedactor({ poolNames: true });
    r.learnRawSet(raw);
    const red = r.redactRawSet(raw);
    const all = Object.values(red).map((o) => o.text).join('\n');
    for (const secret of ['PHOC209200KC058A', 'WD-WCC7K3DEMO01', 'WD-WCC7K3DEMO03', 'truenas-datto', 'bench-pool', '10283050001']) {
      expect(all).not.toContain(secret);
    }
    // Same input → same token in different files.
    expect(red['smartctl/nvd1.json']?.text).toContain('"serial_number": "SERIAL-');
    const serialToken = /"serial_number": "(SERIAL-\d+)"/.exec(red['smartctl/nvd1.json']!.text)![1]!;
    expect(red['diskinfo/nvd1.txt']?.text).toContain(`${serialToken}        # Disk ident.`);
    expect(red['zpool-status.txt']?.text).toMatch(/pool: POOL-1\n/);
    expect(red['zfs-get.txt']?.text.split('\n')[0]).toBe('POOL-1\ttype\tfilesystem\t-');

    const inv = buildInventory(red, src);
    expect(inv.pools[0]!.name).toBe('POOL-1');
    expect(inv.host.hostname).toMatch(/^HOST-\d+\.DOMAIN-\d+$/); // truenas-datto.home.fluffnet.net
    const leaves = inv.pools[0]!.vdevs[0]!.children;
    expect(leaves.map((l) => l.driveId)).toEqual([inv.drives[0]!.id, inv.drives[1]!.id]);
    expect(JSON.stringify(inv)).not.toContain('0x50014ee264eae411');
  });

  it('redacts an inventory directly (serials, WWN, hostname) and marks it redacted', async () => {
    const { inventory } = await loadSnapshotInventory(demo000);
    const r = createRedactor();
    const red = r.redactInventory(inventory);
    const text = JSON.stringify(red);
    expect(text).not.toContain('PHOC209200KC058A');
    expect(text).not.toContain('50014ee264eae411');
    expect(text).not.toContain('truenas-datto');
    expect(text).toContain('bench-pool'); // pool names only with poolNames: true
    expect(red.source.redacted).toBe(true);
    expect(r.redactText('serial PHOC209200KC058A again')).toBe(`serial ${r.mapping().get('PHOC209200KC058A')} again`);
  });

  it('replaces IPv4 addresses and GUIDs by pattern', () => {
    const r = createRedactor();
    expect(r.redactText('from 192.168.1.20 and 192.168.1.20, not 127.0.0.1')).toBe('from IP-1 and IP-1, not 127.0.0.1');
    expect(r.redactText('tank  guid  6151176801287822283  default')).toBe('tank  guid  GUID-1  default');
  });
});

describe('written demo files', () => {
  it('every demo snapshot says demo: true and documents every raw file in PROVENANCE.md', () => {
    for (const name of ['000-hdd-mirror-optane', '001-raidz2-12disk']) {
      const dir = join(DEMO_DIR, name);
      const meta = JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')) as { demo: boolean; label: string; files: Record<string, unknown> };
      expect(meta.demo).toBe(true);
      const prov = readFileSync(join(dir, 'PROVENANCE.md'), 'utf8');
      for (const f of readdirSync(dir)) if (!['meta.json', 'PROVENANCE.md', 'smartctl', 'diskinfo'].includes(f)) expect(prov, `${name}/${f}`).toContain(f);
    }
  });
});
