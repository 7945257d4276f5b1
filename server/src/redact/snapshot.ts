/**
 * What `capture --redact` does to a freshly collected snapshot: learn the secrets from every raw
 * output and from the inventory built from them (so values the inventory derives, such as a
 * drive's WWN, are known too), then redact every file, command line and stderr, and the host
 * name written to meta.json, all with one token table.
 */
import type { Inventory } from '../model/inventory.ts';
import type { RawSet } from '../snapshot/raw-set.ts';
import { createRedactor, type RedactOptions, type Redactor } from './redactor.ts';

export interface RedactedSnapshot {
  raw: RawSet;
  hostname: string | null;
  redactor: Redactor;
}

export function redactSnapshot(raw: RawSet, inv: Inventory, opts: RedactOptions = {}): RedactedSnapshot {
  const r = createRedactor(opts);
  r.learnRawSet(raw);
  r.learnInventory(inv);
  return { raw: r.redactRawSet(raw), hostname: inv.host.hostname ? r.redactText(inv.host.hostname) : null, redactor: r };
}
