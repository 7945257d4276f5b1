/**
 * What `assess` and `optane` share: parse the arguments, load the inventory and the workload
 * fingerprint (load-workload.ts says which one and why), run the assessment. Errors are values
 * shaped for the CLI's contract (usage → 64, unreadable input → 2 with one line naming the file).
 */
import { assess, type AssessResult } from './assess.ts';
import { loadForAssessment, parseArgs, type AssessArgs } from './load-inventory.ts';
import { measuredArtifacts } from './measured-artifacts.ts';

export type CliAssessOutcome =
  | { ok: true; json: boolean; result: AssessResult; demoLabel: string | null; workloadUsed: string }
  | { ok: false; kind: 'usage' | 'bad-input'; message: string };

export async function runAssessmentFromArgs(args: string[], now: Date = new Date()): Promise<CliAssessOutcome> {
  const p = parseArgs(args);
  if (!p.ok) return { ok: false, kind: 'usage', message: p.message };
  return runAssessment(p, now);
}

/** The same, from arguments the CLI framework already parsed (cli/commands/assess-args.ts). */
export async function runAssessment(p: AssessArgs, now: Date = new Date()): Promise<CliAssessOutcome> {
  const loaded = await loadForAssessment(p.opts);
  if (!loaded.ok) return { ok: false, kind: 'bad-input', message: loaded.message };
  const inv = loaded.inventory;
  const m = await measuredArtifacts(inv, p, now);
  if (!m.ok) return { ok: false, kind: 'bad-input', message: m.message };
  const result = assess(inv, m.extra, now);
  return { ok: true, json: p.json, result, demoLabel: inv.source.demo ? inv.source.label : null, workloadUsed: m.workloadUsed };
}
