/**
 * Live: a real zfs-fuse host captured through the gather code (collectLocal → writeSnapshot →
 * loadSnapshotInventory, as `zfs-advisor capture` + `report --snapshot` do), assessed and rendered
 * in every format, plain and redacted. Runs under CI=true (the harness throws there when zfs-fuse
 * is unavailable); skipped elsewhere only when zfs-fuse cannot run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectLocal } from '../../server/src/gather/collect-local.ts';
import { loadSnapshotInventory, type LoadedInventory } from '../../server/src/gather/load.ts';
import { ReportDocument } from '../../server/src/report/document.ts';
import { pdfSafe } from '../../server/src/report/pdf-text.ts';
import { renderReport, reportDocument } from '../../server/src/report/render.ts';
import { writeSnapshot } from '../../server/src/snapshot/directory.ts';
import { startZfsFuse, zfsFuseAvailable, type ZfsFuseHandle } from '../support/zfs-fuse.ts';
import { validate } from './html-validate.ts';
import { pdfPages, pdfText, popplerAvailable, writeTemp } from './pdf-tools.ts';
import { reportInput } from './support.ts';

const live = zfsFuseAvailable();
const poppler = await popplerAvailable();
const POOL = 'hx_report';
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

describe('reports of a live zfs-fuse host', () => {
  let zf: ZfsFuseHandle;
  let loaded: LoadedInventory;
  let hostname: string;
  let poolGuid: string;
  const vdevs: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'zfsa-report-live-'));

  beforeAll(async () => {
    if (!live) return;
    zf = await startZfsFuse();
    vdevs.push(await zf.fileVdev('rep-a'), await zf.fileVdev('rep-b'));
    await zf.createPool(POOL, ['mirror', ...vdevs]);
    // A small recordsize and no compression on a child dataset: findings the rules must report.
    await zf.must('zfs', ['create', '-o', 'recordsize=4K', '-o', 'compression=off', `${POOL}/db`]);
    const raw = await collectLocal();
    hostname = raw['uname.txt']!.text.trim().split(/\s+/)[1]!;
    await writeSnapshot(join(dir, 'snap'), raw, { capturedAt: new Date().toISOString(), hostname, platform: 'linux', versions: {}, demo: false, label: null, redaction: { applied: false, poolNames: false } });
    loaded = await loadSnapshotInventory(join(dir, 'snap'));
    poolGuid = loaded.inventory.pools.find((p) => p.name === POOL)?.properties.guid?.value ?? '';
  }, 600_000);
  afterAll(async () => { await zf?.stop(); rmSync(dir, { recursive: true, force: true }); }, 120_000);

  it.runIf(live)('builds a document with the pool, its vdev tree and findings', () => {
    const doc = reportDocument(reportInput(loaded));
    expect(ReportDocument.safeParse(doc).success).toBe(true);
    const p = doc.pools.find((x) => x.name === POOL)!;
    expect(p.vdevTree.split('\n')).toEqual([`${POOL}  ONLINE`, '└─ mirror-0  ONLINE', `   ├─ ${vdevs[0]}  ONLINE`, `   └─ ${vdevs[1]}  ONLINE`]);
    expect(doc.findings.map((f) => `${f.ruleId} ${f.subject.id}`)).toEqual(expect.arrayContaining([`recordsize-too-small ${POOL}/db`, `compression-off ${POOL}/db`]));
    expect(doc.rawOutputs.map((r) => r.file)).toEqual(expect.arrayContaining(['zpool-status.txt', 'zfs-get.txt', 'uname.txt']));
  });

  it.runIf(live)('renders Markdown and valid self-contained HTML', async () => {
    const input = reportInput(loaded);
    const doc = reportDocument(input);
    const md = (await renderReport(input, { format: 'md' })).body as string;
    const html = (await renderReport(input, { format: 'html' })).body as string;
    expect(validate(html)).toEqual([]);
    for (const f of doc.findings) {
      expect(md).toContain(f.action?.commands[0] ?? f.ruleId);
      expect(html).toContain(f.ruleId);
    }
    expect(md).toContain(`└─ mirror-0  ONLINE`);
  });

  it.runIf(live && poppler)('renders a PDF that poppler draws page by page, with every finding title', async () => {
    const input = reportInput(loaded);
    const doc = reportDocument(input);
    const out = await renderReport(input, { format: 'pdf' });
    const { dir: d, file } = writeTemp('live.pdf', out.body as Buffer);
    try {
      const text = flat(await pdfText(file));
      for (const f of doc.findings) expect(text).toContain(flat(pdfSafe(f.title)));
      expect((await pdfPages(file, d)).length).toBe(Number(/page 1 of (\d+)/.exec(text)?.[1]));
    } finally { rmSync(d, { recursive: true, force: true }); }
  });

  it.runIf(live)('redacted: no host name or pool GUID, and with names no pool or dataset name, in any format', async () => {
    expect(poolGuid).toMatch(/^\d{6,20}$/);
    const input = reportInput(loaded);
    for (const format of ['md', 'html', 'json', ...(poppler ? ['pdf' as const] : [])] as const) {
      const out = await renderReport(input, { format, redact: { poolNames: true } });
      let text: string;
      if (format === 'pdf') {
        const { dir: d, file } = writeTemp('r.pdf', out.body as Buffer);
        try { text = await pdfText(file); } finally { rmSync(d, { recursive: true, force: true }); }
      } else text = out.body as string;
      for (const secret of [poolGuid, POOL, `${POOL}/db`]) expect(text, `${format} leaks ${secret}`).not.toContain(secret);
      // The host name as a word: a short one ("vm") is also a piece of ordinary words.
      const word = new RegExp(`(?<![A-Za-z0-9_.:-])${hostname.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![A-Za-z0-9_:-])`);
      expect(text, `${format} leaks host name ${hostname}`).not.toMatch(word);
    }
  });
});
