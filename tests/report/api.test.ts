/**
 * The report through the API: the same renderer as the CLI behind POST /api/reports/:format, and
 * the JSON report's schema published beside the OpenAPI document.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../server/src/api/server.ts';
import { ReportDocument } from '../../server/src/report/document.ts';
import { reportJsonSchema } from '../../server/src/report/schema.ts';

describe('reports over the API (demo host)', () => {
  let s: RunningServer;
  const dir = mkdtempSync(join(tmpdir(), 'zfsa-report-api-'));
  const get = (path: string) => fetch(new URL(path.replace(/^\//, ''), s.url));
  /** Generating a report stores a copy: a POST (a GET never changes state). */
  const generate = (path: string) => fetch(new URL(path.replace(/^\//, ''), s.url), { method: 'POST', headers: { 'Content-Type': 'application/json' } });

  beforeAll(async () => {
    const r = await startServer({ host: '127.0.0.1', port: 0, dataDir: join(dir, 'data'), demo: true, uiDir: null, assessOnStart: false, logSink: () => {} });
    if (!r.ok) throw new Error(r.message);
    s = r.server;
    const run = await fetch(new URL('api/hosts/demo/assessments', s.url), { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    expect(run.status).toBe(201);
  });
  afterAll(async () => { await s?.close(); rmSync(dir, { recursive: true, force: true }); });

  it('publishes the report schema beside the OpenAPI document', async () => {
    const res = await get('/api/report-schema.json');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(reportJsonSchema())));
    const openapi = (await (await get('/api/openapi.json')).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(openapi.paths)).toEqual(expect.arrayContaining(['/api/report-schema.json', '/api/reports/{format}']));
  });

  it('serves each format with its content type and an attachment name', async () => {
    const expected = { md: 'text/markdown; charset=utf-8', html: 'text/html; charset=utf-8', json: 'application/json; charset=utf-8', pdf: 'application/pdf' } as const;
    for (const [format, type] of Object.entries(expected)) {
      const res = await generate(`/api/reports/${format}?host=demo`);
      expect(res.status, format).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('content-disposition')).toMatch(new RegExp(`^attachment; filename="zfs-advisor-report-bench-pool-\\d{4}-\\d{2}-\\d{2}\\.${format}"$`));
      const body = Buffer.from(await res.arrayBuffer());
      if (format === 'pdf') expect(body.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      if (format === 'md') expect(body.toString('utf8')).toContain('#### 1. recordsize=4K on bench-pool');
    }
  });

  it('redacts on request, and the JSON matches the document schema', async () => {
    const res = await generate('/api/reports/json?host=demo&redact=true');
    const doc = ReportDocument.parse(await res.json());
    expect(doc.redaction.applied).toBe(true);
    expect(doc.host.hostname).toMatch(/^HOST-\d+\.DOMAIN-\d+$/); // truenas-datto.home.fluffnet.net
    expect(JSON.stringify(doc)).not.toContain('PHOC209200KC058A');
    const named = ReportDocument.parse(await (await generate('/api/reports/json?host=demo&redact=true&redactNames=true')).json());
    expect(named.pools[0]!.name).toMatch(/^POOL-\d+$/);
  });

  it('makes a forum post with for=PLACE, and says what is wrong with a bad one', async () => {
    const tn = await generate('/api/reports/md?host=demo&for=truenas-forum');
    expect(tn.status).toBe(200);
    expect(tn.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(tn.headers.get('content-disposition')).toMatch(/^attachment; filename="zfs-advisor-report-bench-pool-\d{4}-\d{2}-\d{2}\.truenas-forum\.md"$/);
    const md = await tn.text();
    expect(md).toContain('The first 2 addresses are links');
    expect(md.match(/\]\(https?:/g)).toHaveLength(2);
    const bb = await generate('/api/reports/md?host=demo&for=proxmox-forum&noLinks=true');
    expect(bb.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const text = await bb.text();
    expect(text).toMatch(/^\[SIZE=6\]/);
    expect(text).not.toContain('[URL=');
    const three = await (await generate('/api/reports/md?host=demo&for=reddit&links=3')).text();
    expect(three.match(/\]\(https?:/g)).toHaveLength(3);
    const bad = async (q: string) => { const r = await generate(`/api/reports/${q}`); return { status: r.status, error: ((await r.json()) as { error: { message: string } }).error.message }; };
    expect(await bad('md?host=demo&for=discord')).toEqual({ status: 400, error: 'invalid query: query.for: must be one of truenas-forum, proxmox-forum, reddit, github (the place the post is for)' });
    expect(await bad('md?host=demo&for=reddit&links=many')).toEqual({ status: 400, error: 'invalid query: query.links: must be a whole number of links, 0 to 1000' });
    expect(await bad('html?host=demo&for=reddit')).toEqual({ status: 400, error: 'for=reddit makes a post from the Markdown report: use /api/reports/md' });
    expect(await bad('md?host=demo&links=2')).toEqual({ status: 400, error: 'links sets the links of a forum post: add for=truenas-forum|proxmox-forum|reddit|github' });
  });

  it('answers 400 for an unknown format', async () => {
    expect((await generate('/api/reports/docx?host=demo')).status).toBe(400);
  });

  it('a GET generates and stores nothing (cross-site <img> requests cannot evict kept reports)', async () => {
    const kept = async () => ((await (await get('/api/hosts/demo/reports')).json()) as unknown[]).length;
    const before = await kept();
    for (let i = 0; i < 5; i++) expect((await get('/api/reports/json?host=demo')).status).toBe(404);
    expect(await kept()).toBe(before);
  });
});
