/**
 * The one entry point for reports, used by the CLI (`zfs-advisor report`) and the API
 * (`GET /api/reports/:format`): build the document once, redact it when asked, render it.
 */
import type { Inventory } from '../model/inventory.ts';
import { RawOutput, type RawSet } from '../snapshot/raw-set.ts';
import { z } from 'zod';
import { buildReportDocument, type ReportInput } from './build.ts';
import type { ReportDocument } from './document.ts';
import { forumContentType, forumFileExtension, renderForum, type ForumOptions } from './forum.ts';
import { renderHtml } from './html.ts';
import { renderMarkdown, renderMarkdownAppendix } from './markdown.ts';
import { renderPdf } from './pdf.ts';
import { redactReportDocument } from './redact-report.ts';

export type { ReportInput } from './build.ts';
export { FORUM_TARGETS, type ForumTarget, type ForumOptions } from './forum.ts';

export type ReportFormat = 'md' | 'html' | 'json' | 'pdf';
export const REPORT_FORMATS: readonly ReportFormat[] = ['md', 'html', 'json', 'pdf'];

export interface RenderOptions {
  format: ReportFormat;
  /** true: serials, WWNs, GUIDs, host names, IPs; `{poolNames: true}`: pool and dataset names too. */
  redact?: boolean | { poolNames?: boolean };
  /**
   * Raw command outputs: Markdown names this file (written beside it by the caller, see
   * `renderAppendix`); PDF appends them as its last section. HTML always has them, collapsed;
   * JSON always has everything.
   */
  appendix?: { file: string | null } | boolean;
  /**
   * A post for a forum (forum.ts): the place's syntax, link budget and length limit. Only with
   * `format: 'md'` (the Markdown report is what it adapts; XenForo gets BB code).
   */
  forum?: ForumOptions;
}

export interface RenderedReport {
  contentType: string;
  fileName: string;
  body: string | Buffer;
  /** A forum post: its length in characters, its clickable links, the parts left out to fit. */
  forum?: { chars: number; links: number; leftOut: string[] };
}

const CONTENT_TYPES: Record<ReportFormat, string> = {
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  json: 'application/json; charset=utf-8',
  pdf: 'application/pdf',
};

const RawSetSchema = z.record(z.string(), RawOutput);

function redactionOf(opt: RenderOptions['redact']): { names: boolean } | null {
  if (!opt) return null;
  return { names: typeof opt === 'object' && opt.poolNames === true };
}

/** Builds (and redacts) the document without rendering it: what the JSON format contains. */
export function reportDocument(input: ReportInput, redact?: RenderOptions['redact']): ReportDocument {
  const doc = buildReportDocument(input);
  const r = redactionOf(redact);
  if (!r) return doc;
  const raw = RawSetSchema.safeParse(input.raw);
  return redactReportDocument(doc, input.inventory as Inventory, raw.success ? (raw.data as RawSet) : null, r);
}

/** `zfs-advisor-report-<label>-<date>.<ext>`; the label is left out when redacted (it may name the host). */
function fileNameOf(doc: ReportDocument, format: string): string {
  const date = doc.generatedAt.slice(0, 10).replace(/[^0-9-]/g, '') || 'undated';
  const label = doc.redaction.applied ? 'redacted' : (doc.pools.map((p) => p.name).join('-') || 'host');
  const safe = label.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[_.-]+|[_.-]+$/g, '').slice(0, 60) || 'host';
  return `zfs-advisor-report-${safe}-${date}.${format}`;
}

/** The raw outputs of a report as a Markdown file of their own (what `--appendix FILE` writes). */
export function renderAppendix(input: ReportInput, redact?: RenderOptions['redact']): string {
  return renderMarkdownAppendix(reportDocument(input, redact));
}

export async function renderReport(input: ReportInput, opts: RenderOptions): Promise<RenderedReport> {
  const doc = reportDocument(input, opts.redact);
  if (opts.forum) {
    if (opts.format !== 'md') throw new Error(`a forum post is made from the Markdown report, not from ${opts.format}`);
    const t = opts.forum.target;
    const post = renderForum(doc, opts.forum);
    return {
      contentType: forumContentType(t), fileName: fileNameOf(doc, `${t}.${forumFileExtension(t)}`), body: post.body,
      forum: { chars: post.body.length, links: post.links, leftOut: post.leftOut },
    };
  }
  const contentType = CONTENT_TYPES[opts.format];
  const fileName = fileNameOf(doc, opts.format);
  switch (opts.format) {
    case 'json': return { contentType, fileName, body: `${JSON.stringify(doc, null, 2)}\n` };
    case 'md': return { contentType, fileName, body: renderMarkdown(doc, { appendixFile: typeof opts.appendix === 'object' ? opts.appendix.file : null }) };
    case 'html': return { contentType, fileName, body: renderHtml(doc) };
    case 'pdf': return { contentType, fileName, body: await renderPdf(doc, { appendix: Boolean(opts.appendix) }) };
    default: {
      const never: never = opts.format;
      throw new Error(`unknown report format ${String(never)}`);
    }
  }
}
