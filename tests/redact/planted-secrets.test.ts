/**
 * Property: random serials, host names, WWNs, GUIDs, IPv4/IPv6/MAC addresses and pool/dataset
 * names planted into real snapshot files (copies of server/demo/000-hdd-mirror-optane and
 * tests/fixtures/report/redaction-snapshot, see tests/redact/PROVENANCE.md) never survive
 * `capture --redact` (the files written to disk) nor any report format (PDF via pdftotext), and
 * every redacted JSON file still parses.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { buildInventory } from '../../server/src/gather/build.ts';
import { DEMO_DIR } from '../../server/src/gather/load.ts';
import type { Inventory, VdevNode } from '../../server/src/model/inventory.ts';
import { redactSnapshot } from '../../server/src/redact/snapshot.ts';
import { REPORT_FORMATS, renderReport, type ReportFormat } from '../../server/src/report/render.ts';
import { readSnapshot, writeSnapshot } from '../../server/src/snapshot/directory.ts';
import type { RawSet } from '../../server/src/snapshot/raw-set.ts';
import { pdfText, popplerAvailable, writeTemp } from '../report/pdf-tools.ts';
import { REDACTION_SNAPSHOT, reportInput } from '../report/support.ts';

const poppler = await popplerAvailable();
const tmp = mkdtempSync(join(tmpdir(), 'zfs-advisor-redact-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const src = { kind: 'snapshot' as const, label: 't', capturedAt: '2025-01-01T00:00:00.000Z', demo: false, redacted: false };

interface Secrets {
  host: string; domain: string; serialA: string; serialB: string; wwnIdA: bigint; leafWwn: string;
  guid: string; poolGuid: string; ipv4: string; ipv6: string; mac: string; pool: string; dataset: string;
}

/** Each secret's text as it may be printed; `exact` ones are ZFS names (case-sensitive). */
function secretStrings(s: Secrets): { caseless: string[]; exact: string[] } {
  const wwnHex = (5n << 60n | 0x002538n << 36n | s.wwnIdA).toString(16);
  return {
    caseless: [s.host, s.domain, s.serialA, s.serialB, s.wwnIdA.toString(), wwnHex, s.leafWwn, s.guid, s.poolGuid, s.ipv4, s.ipv6, s.mac],
    exact: [s.pool, s.dataset],
  };
}

/** Where each original value sits in the real files (read by hand), and what replaces it. */
function plant(original: RawSet, which: 'fixture' | 'demo', s: Secrets): RawSet {
  const subst: Array<[string | RegExp, string]> = which === 'fixture'
    ? [
      ['pve-garage.lab.example.net', `${s.host}.${s.domain}`],
      ['S3YZNB0KB00864E', s.serialA], ['ZAD2C11G', s.serialB],
      ['"id": 61213911380', `"id": ${s.wwnIdA}`],
      ['5000c500c65ac66f', s.leafWwn],
      ['13953654332474917058', s.guid],
      ['10.20.30.40', s.ipv4],
      [/\bpool1\b/g, s.pool], [/vm-100-disk-0/g, s.dataset],
    ]
    : [
      ['truenas-datto.home.fluffnet.net', `${s.host}.${s.domain}`],
      [/WD-WCC7K3DEMO01/g, s.serialA], [/PHOC209200KC058A/g, s.serialB],
      ['"id": 10283050001', `"id": ${s.wwnIdA}`],
      [/bench-pool/g, s.pool],
    ];
  const out: RawSet = {};
  for (const [name, r] of Object.entries(original)) {
    let text = r.text;
    for (const [from, to] of subst) text = typeof from === 'string' ? text.split(from).join(to) : text.replace(from, to);
    out[name] = { ...r, text };
  }
  const pool = which === 'fixture' ? s.pool : s.pool;
  const wwnHex = (5n << 60n | 0x002538n << 36n | s.wwnIdA).toString(16);
  const extra = (name: string, text: string, command: string[]) => {
    out[name] = { text: (out[name]?.text ?? '') + text, command, exitCode: 0, stderr: '', error: null };
  };
  // Lines a real host prints with these values (formats as in samples/real-outputs).
  extra('by-id.txt', [
    `lrwxrwxrwx 1 root root  9 Jan  2 03:04 ata-Samsung_SSD_860_EVO_500GB_${s.serialA} -> ../../sda`,
    `lrwxrwxrwx 1 root root  9 Jan  2 03:04 wwn-0x${wwnHex} -> ../../sda`,
    `lrwxrwxrwx 1 root root 10 Jan  2 03:04 wwn-0x${wwnHex}-part1 -> ../../sda1`, ''].join('\n'), ['ls', '-l', '/dev/disk/by-id']);
  extra('zpool-get.txt', `${pool}\tguid\t${s.poolGuid}\t-\n`, ['zpool', 'get', '-H', '-p', 'all']);
  extra('zfs-get.txt', [
    `${pool}\torg.example:replica\t${s.host.toUpperCase()}.${s.domain} [${s.ipv6}] ${s.mac}\tlocal`,
    `${pool}/${s.dataset}\torg.example:note\tfrom ${s.host}\tlocal`, ''].join('\n'), ['zfs', 'get', '-H', '-p', 'all']);
  return out;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? filesUnder(join(dir, f)) : [join(dir, f)]));
}

function leafDrives(nodes: VdevNode[]): Array<string | null> {
  return nodes.flatMap((n) => (n.children.length ? leafDrives(n.children) : [n.driveId ?? null]));
}
const resolved = (inv: Inventory) => inv.pools.flatMap((p) => leafDrives(p.vdevs)).filter(Boolean).length;

function expectAbsent(text: string, where: string, strings: { caseless: string[]; exact: string[] }, names: boolean): void {
  const lower = text.toLowerCase();
  for (const s of strings.caseless) expect(lower, `${where} leaks ${s}`).not.toContain(s.toLowerCase());
  if (names) for (const s of strings.exact) expect(text, `${where} leaks ${s}`).not.toContain(s);
}

const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));
const secrets: fc.Arbitrary<Secrets> = fc.record({
  host: fc.stringMatching(/^[a-z][a-z0-9]{3,8}-[a-z0-9]{2,6}$/),
  domain: fc.tuple(fc.stringMatching(/^[a-z]{4,8}$/), fc.constantFrom('lan', 'net', 'org', 'home.arpa')).map(([a, b]) => `${a}.${b}`),
  serialA: fc.stringMatching(/^[A-Z]{2}[A-Z0-9]{8,12}$/),
  serialB: fc.stringMatching(/^WD-[A-Z0-9]{10}$/),
  wwnIdA: fc.bigInt(1n << 32n, (1n << 36n) - 1n),
  leafWwn: hex(12).map((h) => `5000c500${h.slice(0, 8)}`),
  guid: fc.bigInt(10n ** 18n, 2n ** 64n - 1n).map(String),
  poolGuid: fc.bigInt(10n ** 17n, 2n ** 64n - 1n).map(String),
  ipv4: fc.tuple(fc.constantFrom(10, 172, 192, 100, 203), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })).map((o) => o.join('.')),
  ipv6: fc.tuple(hex(4), hex(4), hex(3)).map(([a, b, c]) => `fd${a.slice(2)}:${b}:1::${c}`),
  mac: fc.array(hex(2), { minLength: 6, maxLength: 6 }).map((b) => b.join(':')),
  pool: fc.stringMatching(/^[a-z][a-z0-9]{5,9}$/),
  dataset: fc.stringMatching(/^[a-z]{3,6}-[0-9]{2,4}-[a-z]{3,6}$/),
});

async function reportText(format: ReportFormat, body: string | Buffer): Promise<string> {
  if (format !== 'pdf') return body as string;
  const { dir, file } = writeTemp('r.pdf', body as Buffer);
  try { return await pdfText(file); } finally { rmSync(dir, { recursive: true, force: true }); }
}

describe('planted secrets never survive redaction', async () => {
  const originals = {
    fixture: (await readSnapshot(REDACTION_SNAPSHOT)),
    demo: (await readSnapshot(join(DEMO_DIR, '000-hdd-mirror-optane'))),
  };
  if (!originals.fixture.ok || !originals.demo.ok) throw new Error('fixture snapshots unreadable');
  const baseline = Object.values({ ...originals.fixture.value.raw, ...originals.demo.value.raw }).map((r) => r.text).join('\n');
  /** A generated value that already occurs in the files (or in report prose) proves nothing. */
  const fresh = (s: Secrets) => {
    const all = [...secretStrings(s).caseless, ...secretStrings(s).exact];
    return all.every((x) => !baseline.toLowerCase().includes(x.toLowerCase()) && !/pool|disk|mirror|raid|spare|special|dataset|serial|host/i.test(x))
      && new Set(all.map((x) => x.toLowerCase())).size === all.length;
  };
  let run = 0;

  for (const which of ['fixture', 'demo'] as const) {
    it(`${which}: capture --redact (both modes) writes no secret, and JSON files parse`, async () => {
      await fc.assert(fc.asyncProperty(secrets.filter(fresh), async (s) => {
        const raw = plant(originals[which].ok ? originals[which].value.raw : {}, which, s);
        const strings = secretStrings(s);
        const plainInv = buildInventory(raw, src);
        // The planting worked: the plain snapshot holds every secret.
        expect(`${Object.values(raw).map((r) => r.text).join('\n')}`.toLowerCase()).toContain(s.serialA.toLowerCase());
        for (const names of [false, true]) {
          const { raw: red, hostname } = redactSnapshot(raw, plainInv, { poolNames: names });
          const dir = join(tmp, `cap-${run++}`);
          await writeSnapshot(dir, red, {
            capturedAt: src.capturedAt, hostname, platform: plainInv.host.platform, versions: {}, demo: false, label: null,
            redaction: { applied: true, poolNames: names },
          });
          for (const file of filesUnder(dir)) {
            const text = readFileSync(file, 'utf8');
            expectAbsent(text, file, strings, names);
            if (file.endsWith('.json')) expect(() => JSON.parse(text), file).not.toThrow();
          }
          // The redacted snapshot still rebuilds: same drives, and leaves still resolve to them.
          const back = await readSnapshot(dir);
          if (!back.ok) throw new Error(back.error);
          const inv = buildInventory(back.value.raw, { ...src, redacted: true });
          expect(inv.drives.length).toBe(plainInv.drives.length);
          expect(resolved(inv)).toBe(resolved(plainInv));
          expect(inv.pools.length).toBe(plainInv.pools.length);
        }
      }), { numRuns: 6, seed: 17 });
    });

    it(`${which}: every report format (PDF through pdftotext) shows no secret`, async () => {
      await fc.assert(fc.asyncProperty(secrets.filter(fresh), fc.boolean(), async (s, names) => {
        const raw = plant(originals[which].ok ? originals[which].value.raw : {}, which, s);
        const input = reportInput({ inventory: buildInventory(raw, src), raw });
        const strings = secretStrings(s);
        const plain = (await renderReport(input, { format: 'json' })).body as string;
        expect(plain.toLowerCase()).toContain(s.serialB.toLowerCase());
        for (const format of REPORT_FORMATS) {
          if (format === 'pdf' && !poppler) continue;
          const out = await renderReport(input, { format, redact: names ? { poolNames: true } : true });
          const text = await reportText(format, out.body);
          expectAbsent(text, format, strings, names);
          if (format === 'json') {
            const doc = JSON.parse(text) as { rawOutputs: Array<{ file: string; text: string }> };
            for (const r of doc.rawOutputs) if (r.file.endsWith('.json')) expect(() => JSON.parse(r.text), r.file).not.toThrow();
          }
        }
      }), { numRuns: 3, seed: 7 });
    });
  }
});
