import { defineCommand, type OptionDef } from '../command.ts';
import { DATA_DIR_ENV, DATA_DIR_OPTION, DEMO_OPTION, SNAPSHOT_OPTION } from './shared.ts';
import { FORUM_TARGETS } from '../../report/forum-targets.ts';

export const REPORT_FORMAT_NAMES = ['md', 'html', 'json', 'pdf'] as const;

export const options = [
  { name: 'format', type: 'choice', choices: REPORT_FORMAT_NAMES, description: 'The report format', default: 'md' },
  { name: 'for', type: 'choice', choices: FORUM_TARGETS, value: 'PLACE', example: 'truenas-forum', description: 'A post for that place, within its rules: Markdown for the TrueNAS forum (Discourse), reddit and GitHub, BB code for the Proxmox forum (XenForo); sources gathered in one numbered list at the end, commands in code blocks, cut to the place\'s length limit (saying what was left out)' },
  { name: 'links', type: 'integer', min: 0, max: 1000, unit: 'links', example: '2', description: 'With --for: at most N clickable links; the other addresses are written as code to copy', default: '2 for truenas-forum (what a new member may post), no limit elsewhere' },
  { name: 'no-links', type: 'flag', description: 'With --for: no addresses at all; sources are named, not listed' },
  { name: 'output', short: 'o', type: 'path', value: 'FILE', example: 'report.pdf', description: 'Write the report to FILE' },
  SNAPSHOT_OPTION,
  DEMO_OPTION,
  { name: 'redact', type: 'flag', description: 'Replace host names, serial numbers, WWNs and addresses' },
  { name: 'redact-names', type: 'flag', description: 'Also replace pool and dataset names (implies --redact)' },
  { name: 'benchmarks', type: 'path', value: 'FILE', example: 'runs.json', description: 'Benchmark results to include (what `bench --history --json` prints)' },
  DATA_DIR_OPTION,
  { name: 'appendix', type: 'flag', description: 'Raw command outputs too: beside a Markdown report (FILE.appendix.md, needs -o) or at the end of the PDF' },
  { name: 'generated-at', type: 'time', example: '2026-01-01T12:00:00Z', description: 'The time to print as the report time (for reproducible output)', default: 'now' },
] as const satisfies readonly OptionDef[];

export default defineCommand({
  name: 'report',
  summary: 'The recommendations report (Markdown, HTML, JSON or PDF), optionally redacted.',
  description: 'The same report the web UI downloads. Text formats go to standard output unless -o FILE; PDF needs -o FILE. '
    + 'With -o, one line says what was written. Benchmarks come from --benchmarks FILE, else, for this host, from the stored history.',
  options,
  environment: [DATA_DIR_ENV],
  examples: [
    { command: 'zfs-advisor report --format pdf -o report.pdf', description: "This host's report as a PDF." },
    { command: 'zfs-advisor report --snapshot ./snap --redact > report.md', description: 'A redacted Markdown report of a captured host, to share.' },
    { command: 'zfs-advisor report --for truenas-forum --redact -o post.md', description: 'A post for the TrueNAS forum: at most 2 links, what a new member may post.' },
    { command: 'zfs-advisor report --for proxmox-forum --no-links', description: 'BB code for the Proxmox forum, without addresses.' },
  ],
  handler: 'report',
});
