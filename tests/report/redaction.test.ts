/**
 * Redaction: snapshots with known serials, WWNs, GUIDs, host names and IP addresses must not leak
 * any of them in any redacted format (PDF checked through pdftotext), and tokens must be
 * consistent across the report.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSnapshotInventory } from '../../server/src/gather/load.ts';
import { REPORT_FORMATS, renderReport, reportDocument, type ReportFormat } from '../../server/src/report/render.ts';
import { pdfText, popplerAvailable, writeTemp } from './pdf-tools.ts';
import { REDACTION_SNAPSHOT, loadDemo, reportInput } from './support.ts';

const poppler = await popplerAvailable();
const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

/** Read by hand from tests/fixtures/report/redaction-snapshot (see PROVENANCE.md). */
const FIXTURE_SECRETS = [
  'pve-garage.lab.example.net', 'pve-garage', // host name (uname)
  'S3YZNB0KB00864E', 'ZAD2C11G', // serials (smartctl)
  '5002538e40a22954', '5000c500a496983d', // drive WWNs (from smartctl's naa/oui/id)
  '61213911380', '2761332797', // the WWN id numbers as smartctl -j prints them
  '5000c500c65ac66f', '5000c500c5eee542', '5000c500e39e8af6', '5000c500e3b3a41e', // WWN leaf names in zpool status
  '13953654332474917058', // a vdev named by its GUID
  '10.20.30.40', // NFS client IP in sharenfs
];
/** server/demo/000-hdd-mirror-optane. */
const DEMO_SECRETS = ['truenas-datto.home.fluffnet.net', 'truenas-datto', 'WD-WCC7K3DEMO01', 'WD-WCC7K3DEMO03', 'PHOC209200KC058A'];
const POOL_NAMES = ['pool1', 'zvol0', 'vm-100-disk-0'];

async function textOf(format: ReportFormat, body: string | Buffer): Promise<string> {
  if (format !== 'pdf') return body as string;
  const { dir, file } = writeTemp('r.pdf', body as Buffer);
  dirs.push(dir);
  return pdfText(file);
}

describe('redacted reports', async () => {
  const fixture = await loadSnapshotInventory(REDACTION_SNAPSHOT);
  const demo = await loadDemo('000-hdd-mirror-optane');

  it('the fixture really contains every secret (so their absence below means something)', async () => {
    const plain = (await renderReport(reportInput(fixture), { format: 'json' })).body as string;
    for (const s of [...FIXTURE_SECRETS, ...POOL_NAMES]) expect(plain.toLowerCase(), s).toContain(s.toLowerCase());
  });

  for (const format of REPORT_FORMATS) {
    it.runIf(format !== 'pdf' || poppler)(`${format}: no serial, WWN, GUID, host name or IP survives`, async () => {
      for (const [loaded, secrets] of [[fixture, FIXTURE_SECRETS], [demo, DEMO_SECRETS]] as const) {
        const out = await renderReport(reportInput(loaded), { format, redact: true });
        expect(out.fileName).toMatch(/^zfs-advisor-report-redacted-2025-01-01\./);
        const text = (await textOf(format, out.body)).toLowerCase();
        for (const s of secrets) expect(text, `${format} leaks ${s}`).not.toContain(s.toLowerCase());
        expect(text).toMatch(/serial-1/);
        expect(text).toMatch(/host-1/);
      }
    });
  }

  for (const format of REPORT_FORMATS) {
    it.runIf(format !== 'pdf' || poppler)(`${format} with names: pool and dataset names are gone too`, async () => {
      const out = await renderReport(reportInput(fixture), { format, redact: { poolNames: true } });
      const text = (await textOf(format, out.body)).toLowerCase();
      for (const s of [...FIXTURE_SECRETS, ...POOL_NAMES]) expect(text, `${format} leaks ${s}`).not.toContain(s.toLowerCase());
      expect(text).toContain('pool-1');
      expect(text).toContain('dataset-1');
    });
  }

  it('replaces each value by the same token everywhere, and says what it replaced', () => {
    const doc = reportDocument(reportInput(fixture), { poolNames: true });
    expect(doc.redaction.applied).toBe(true);
    expect(doc.redaction.names).toBe(true);
    // pve-garage.lab.example.net → HOST-1.DOMAIN-1 (the short name, lab.example.net and example.net).
    expect(doc.redaction.replaced).toMatchObject({ SERIAL: 2, HOST: 1, DOMAIN: 2, IP: 1, POOL: 2, DATASET: 1 });
    const sda = doc.drives.find((d) => d.path === '/dev/sda')!;
    const token = sda.serial!;
    expect(token).toMatch(/^SERIAL-\d+$/);
    const smart = doc.rawOutputs.find((r) => r.file === 'smartctl/sda.json')!;
    expect(smart.text).toContain(`"serial_number": "${token}"`);
    // The WWN: the same token in the drive list and in smartctl's numeric form.
    const wwnToken = /WWN-\d+/.exec(sda.wwn!)![0];
    expect(smart.text).toMatch(new RegExp(`"id": "${wwnToken}"`));
    expect(JSON.parse(smart.text)).toHaveProperty('wwn.naa', 5); // still valid JSON
    // Pool names: same token in the pool list, the vdev tree and the raw zpool status.
    const p1 = doc.pools[0]!.name;
    expect(p1).toMatch(/^POOL-\d+$/);
    expect(doc.pools[0]!.vdevTree.split('\n')[0]).toBe(`${p1}  ONLINE`);
    expect(doc.rawOutputs.find((r) => r.file === 'zpool-status.txt')!.text).toContain(`  pool: ${p1}\n`);
    expect(doc.datasets.map((d) => d.name)).toContain(`${p1}/DATASET-1`);
    expect(doc.rawOutputs.find((r) => r.file === 'zfs-get.txt')!.text).toContain(`${p1}/DATASET-1\tvolblocksize\t8192`);
  });

  it('keeps the report usable: findings, commands and the verdict are still there', () => {
    const plain = reportDocument(reportInput(fixture));
    const red = reportDocument(reportInput(fixture), true);
    expect(red.findings.map((f) => f.ruleId)).toEqual(plain.findings.map((f) => f.ruleId));
    expect(red.pools.map((p) => p.name)).toEqual(['pool1', 'zvol0']); // names kept without --redact-names
    expect(red.optane?.verdict).toBe(plain.optane?.verdict);
  });
});
