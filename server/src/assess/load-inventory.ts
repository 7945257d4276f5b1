/**
 * How the `assess` and `optane` commands get an inventory. The gather layer's
 * `loadInventory({snapshot, demo})` (server/src/gather/load.ts) is the normal path; `--inventory FILE`
 * reads an Inventory JSON directly (what `zfs-advisor inventory` prints), which also serves tests.
 * Errors are values naming the file, for the CLI's one-line exit-2 contract.
 */
import { readJsonFile } from './read-json-file.ts';
import { Inventory } from '../model/inventory.ts';
import { DEMO_SNAPSHOTS, loadInventory } from '../gather/load.ts';

export type LoadOutcome = { ok: true; inventory: Inventory } | { ok: false; message: string };

export interface LoadOptions {
  snapshot?: string;
  demo?: boolean;
  /** One of DEMO_SNAPSHOTS (default: the first). */
  demoName?: string;
  inventoryFile?: string;
}

/** The inventory describes this machine now: only then may the local store's measurements speak for it. */
export const isLocalRun = (opts: LoadOptions): boolean => !opts.snapshot && !opts.demo && !opts.inventoryFile;

export async function readInventoryFile(file: string): Promise<LoadOutcome> {
  const read = await readJsonFile(file);
  if (!read.ok) return read;
  const json = read.json;
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
    const r = await loadInventory({ snapshot: opts.snapshot, demo: opts.demo, demoName: opts.demoName });
    return { ok: true, inventory: r.inventory };
  } catch (err) {
    const where = opts.snapshot ?? (opts.demo ? 'demo snapshot' : 'local host');
    return { ok: false, message: `${where}: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` };
  }
}

export interface AssessArgs {
  opts: LoadOptions;
  json: boolean;
  /** `--workload FILE`: a fingerprint JSON (`zfs-advisor observe --json` output or a bare fingerprint). */
  workloadFile: string | null;
  /** `--data-dir D`: the store to read the newest observation from (default: defaultDataDir()). */
  dataDir: string | null;
}

export const ASSESS_OPTIONS = `[--snapshot DIR | --demo [${DEMO_SNAPSHOTS.join('|')}] | --inventory FILE] [--workload FILE] [--data-dir D] [--json]`;

/** Shared argument parsing for assess/optane. */
export function parseArgs(args: string[]): ({ ok: true } & AssessArgs) | { ok: false; message: string } {
  const opts: LoadOptions = {};
  let json = false;
  let workloadFile: string | null = null;
  let dataDir: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const eq = a.indexOf('=');
    const [flag, inline] = a.startsWith('--') && eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    if (flag === '--json' && inline === undefined) json = true;
    else if (flag === '--demo') {
      opts.demo = true;
      const name = inline ?? ((DEMO_SNAPSHOTS as readonly string[]).includes(args[i + 1] ?? '') ? args[++i] : undefined);
      if (name !== undefined) {
        if (!(DEMO_SNAPSHOTS as readonly string[]).includes(name)) return { ok: false, message: `--demo takes one of ${DEMO_SNAPSHOTS.join(', ')}` };
        opts.demoName = name;
      }
    } else if (flag === '--snapshot' || flag === '--inventory' || flag === '--workload' || flag === '--data-dir') {
      const v = inline ?? args[++i];
      if (!v || v.startsWith('--')) return { ok: false, message: `${flag} needs a value` };
      if (flag === '--snapshot') opts.snapshot = v;
      else if (flag === '--inventory') opts.inventoryFile = v;
      else if (flag === '--workload') workloadFile = v;
      else dataDir = v;
    } else return { ok: false, message: `unknown option ${a}` };
  }
  if ([opts.snapshot, opts.demo, opts.inventoryFile].filter(Boolean).length > 1) return { ok: false, message: 'choose one of --snapshot, --demo and --inventory' };
  return { ok: true, opts, json, workloadFile, dataDir };
}
