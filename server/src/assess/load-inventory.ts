/**
 * How the `assess` and `optane` commands get an inventory. The gather layer's
 * `loadInventory({snapshot, demo})` (server/src/gather/load.ts) is the normal path; `--inventory FILE`
 * reads an Inventory JSON directly (what `zfs-advisor inventory` prints), which also serves tests.
 * Errors are values naming the file, for the CLI's one-line exit-2 contract.
 */
import { readFile } from 'node:fs/promises';
import { Inventory } from '../model/inventory.ts';
import { loadInventory } from '../gather/load.ts';

export type LoadOutcome = { ok: true; inventory: Inventory } | { ok: false; message: string };

export interface LoadOptions {
  snapshot?: string;
  demo?: boolean;
  inventoryFile?: string;
}

export async function readInventoryFile(file: string): Promise<LoadOutcome> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return { ok: false, message: `${file}: cannot read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `${file}: not JSON (${err instanceof Error ? err.message : String(err)})` };
  }
  const parsed = Inventory.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: `${file}: not an inventory (${issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'schema mismatch'})` };
  }
  return { ok: true, inventory: parsed.data };
}

export async function loadForAssessment(opts: LoadOptions): Promise<LoadOutcome> {
  if (opts.inventoryFile) return readInventoryFile(opts.inventoryFile);
  try {
    const r = await loadInventory({ snapshot: opts.snapshot, demo: opts.demo });
    return { ok: true, inventory: r.inventory };
  } catch (err) {
    const where = opts.snapshot ?? (opts.demo ? 'demo snapshot' : 'local host');
    return { ok: false, message: `${where}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` };
  }
}

/** Shared argument parsing for assess/optane: --snapshot DIR | --demo | --inventory FILE, --json. */
export function parseArgs(args: string[]): { ok: true; opts: LoadOptions; json: boolean } | { ok: false; message: string } {
  const opts: LoadOptions = {};
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') json = true;
    else if (a === '--demo') opts.demo = true;
    else if (a === '--snapshot' || a === '--inventory') {
      const v = args[++i];
      if (!v || v.startsWith('--')) return { ok: false, message: `${a} needs a value` };
      if (a === '--snapshot') opts.snapshot = v; else opts.inventoryFile = v;
    } else if (a.startsWith('--snapshot=')) opts.snapshot = a.slice(11);
    else if (a.startsWith('--inventory=')) opts.inventoryFile = a.slice(12);
    else return { ok: false, message: `unknown option ${a}` };
  }
  return { ok: true, opts, json };
}
