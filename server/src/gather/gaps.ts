/**
 * Gap messages: say plainly what could not be read, why, and what is unknown because of it.
 */
import type { Gap } from '../model/inventory.ts';
import type { ParseIssue } from '../parsers/common.ts';
import { commandLine, type RawOutput } from '../snapshot/raw-set.ts';

export function gap(artifact: string, source: string, message: string, severity: Gap['severity'], line: number | null = null): Gap {
  return { artifact, source, message, line, severity };
}

/**
 * Why a raw output is unusable, in words: "smartctl not installed", "zpool status -j: exit 2:
 * invalid option 'j'", "not captured".
 */
export function whyUnusable(r: RawOutput | undefined, file: string): string {
  if (!r) return `${file} not captured`;
  const program = r.command?.[0] ?? file;
  if (r.error) {
    if (/not installed|ENOENT/i.test(r.error)) return `${program} not installed`;
    if (r.command?.[0] === 'read') return r.error;
    if (/permission/i.test(r.error)) return `${commandLine(r, file)}: permission denied (run as root)`;
    return `${commandLine(r, file)}: ${r.error}`;
  }
  if (r.exitCode !== null && r.exitCode !== 0) {
    const first = (r.stderr.trim() || r.text.trim()).split('\n')[0]?.slice(0, 200) ?? '';
    return `${commandLine(r, file)}: exit ${r.exitCode}${first ? `: ${first}` : ''}`;
  }
  if (r.text.trim() === '') return `${commandLine(r, file)} printed nothing`;
  return `${commandLine(r, file)}: unusable output`;
}

/** A gap for an output that was missing or failed: "<why>: <consequence>". */
export function missingGap(artifact: string, file: string, r: RawOutput | undefined, consequence: string, severity: Gap['severity']): Gap {
  return gap(artifact, commandLine(r, file), `${whyUnusable(r, file)}: ${consequence}`, severity);
}

/** Gaps for the lines a parser skipped (partial results stay usable). */
export function issueGaps(artifact: string, file: string, issues: ParseIssue[], severity: Gap['severity'] = 'warning', max = 20): Gap[] {
  const out = issues.slice(0, max).map((i) => gap(artifact, file, i.message, severity, i.line));
  if (issues.length > max) out.push(gap(artifact, file, `${issues.length - max} more unreadable lines not listed`, severity));
  return out;
}
