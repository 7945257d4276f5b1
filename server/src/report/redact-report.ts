/**
 * Redacts a built report document with the project's redactor (server/src/redact/), so a report
 * and a redacted snapshot of the same host use the same tokens. All the recognising lives in the
 * redactor; this only feeds it the inventory and raw outputs and records what it replaced.
 */
import type { Inventory } from '../model/inventory.ts';
import { createRedactor } from '../redact/redactor.ts';
import type { RawSet } from '../snapshot/raw-set.ts';
import type { ReportDocument } from './document.ts';

export interface ReportRedaction {
  /** Also pool and dataset names. */
  names: boolean;
}

export function redactReportDocument(doc: ReportDocument, inv: Inventory, raw: RawSet | null, opts: ReportRedaction): ReportDocument {
  const r = createRedactor({ poolNames: opts.names });
  r.learnInventory(inv);
  if (raw) r.learnRawSet(raw);
  const redacted = r.redactValue({ ...doc, redaction: { applied: true, names: opts.names, replaced: {} } });
  return { ...redacted, redaction: { applied: true, names: opts.names, replaced: r.counts() } };
}
