/**
 * `zfs-advisor optane [--snapshot DIR | --demo [NAME] | --inventory FILE] [--workload FILE] [--data-dir D] [--json]`:
 * the one-click "Should I add Optane?" verdict. With an observed sync-write latency (a workload
 * fingerprint) "now" comes from that measurement; the output names the observation used.
 */
import { EXIT, type Handler } from '../command.ts';
import type { options } from '../defs/optane.ts';
import { inputError } from '../framework/errors.ts';
import { assessArgsFromValues } from './assess-args.ts';
import { runAssessment } from '../../assess/cli-run.ts';
import { renderVerdict } from '../../assess/render-text.ts';

export const run: Handler<typeof options> = async ({ values }, io) => {
  const r = await runAssessment(assessArgsFromValues(values));
  if (!r.ok) throw inputError(r.message, 'check the file or directory named, or see zfs-advisor optane --help');
  const { optane } = r.result;
  io.stdout(r.json ? `${JSON.stringify({ ...optane, workloadUsed: r.workloadUsed }, null, 2)}\n` : `${r.workloadUsed}\n\n${renderVerdict(optane, r.demoLabel)}`);
  return EXIT.ok;
};
