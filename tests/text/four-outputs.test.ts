// @vitest-environment happy-dom
/**
 * One fact, one spelling: the demo rendered through the web UI's components, the terminal
 * output, the Markdown report and the PDF (its text as pdftotext reads it), and every fact — a
 * size, a count, a range, a latency, a gain, an absent value, a plural — must read the same in
 * all four. The expected spellings come from the one formatter applied to the model's numbers,
 * never typed in, so the test fails when any output formats on its own.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mount, RouterLinkStub } from '@vue/test-utils';
import DrivesTable from '../../ui/src/overview/DrivesTable.vue';
import PoolCard from '../../ui/src/overview/PoolCard.vue';
import FindingCard from '../../ui/src/findings/FindingCard.vue';
import VerdictCard from '../../ui/src/optane/VerdictCard.vue';
import BenchHistory from '../../ui/src/bench/BenchHistory.vue';
import { narrowVerdict } from '../../ui/src/optane/verdict-view.ts';
import { SessionKey } from '../../ui/src/state/session.ts';
import type { FindingView, OptaneVerdictView } from '../../server/src/api/contract.ts';
import type { OptaneVerdict } from '../../server/src/optane/verdict.ts';
import { summarise } from '../../server/src/cli/commands/inventory.ts';
import { runText } from '../../server/src/cli/commands/bench-format.ts';
import { renderAssessment, renderVerdict } from '../../server/src/assess/render-text.ts';
import { renderReport, reportDocument } from '../../server/src/report/render.ts';
import { reportBenchmarks } from '../../server/src/report/benchmarks.ts';
import { runLatencyOf } from '../../server/src/bench/sync-latency.ts';
import { ABSENT, formatBytes, formatCount, formatEstimate, formatLatencyNs, formatSpeedup, formatValue, severityCount } from '../../server/src/text/format.ts';
import { loadSnapshotInventory } from '../../server/src/gather/load.ts';
import { popplerAvailable, writeTemp } from '../report/pdf-tools.ts';
import { runCommand } from '../../server/src/exec/runner.ts';
import { benchHistory, loadDemo, reportInput } from '../report/support.ts';

const poppler = await popplerAvailable();
const dirs: string[] = [];
afterAll(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Text with its layout flattened: table bars and all runs of white space (incl. no-break) become one space. */
const flat = (s: string): string => s.replace(/\|/g, ' ').replace(/\s+/g, ' ').trim();

/** The app's own words: quotations of sources and addresses keep their spelling and are left out. */
const ownWords = (text: string): string => text.replace(/"[^"]*"/g, '').replace(/https?:\/\/[^\s)>]+/g, '');

/** The report as a PDF, as pdftotext reads it (-layout keeps a label and its value, two columns of one row, on one line). */
async function pdfText(input: Parameters<typeof renderReport>[0], name: string): Promise<string> {
  const out = await renderReport(input, { format: 'pdf' });
  const { dir, file } = writeTemp(name, out.body as Buffer);
  dirs.push(dir);
  const r = await runCommand('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { timeoutMs: 60_000 });
  expect(r.exitCode).toBe(0);
  return flat(r.stdout);
}

/** Text of a mounted component with a space between elements (dt/dd and table cells would otherwise run together). */
function domText(el: Element): string {
  const out: string[] = [];
  const walk = (n: Node) => {
    if (n.nodeType === 3) out.push(n.textContent ?? '');
    else for (const c of Array.from(n.childNodes)) { walk(c); if (c.nodeType === 1) out.push(' '); }
  };
  walk(el);
  return flat(out.join(''));
}

describe('every output writes a fact the same way (demo 000)', async () => {
  const input = reportInput(await loadDemo('000-hdd-mirror-optane'), benchHistory());
  const doc = reportDocument(input);
  const inv = input.inventory;
  const optane = input.optane as OptaneVerdict;
  const summaries = reportBenchmarks(benchHistory()).benchmarks.map((b) => b.summary);
  const sync = summaries.find((s) => s.profile === 'sync-write-4k-qd1')!;
  const slog = input.assessment.findings.find((f) => f.ruleId === 'slog-benefit')!;
  const recordsize = input.assessment.findings.find((f) => f.ruleId === 'recordsize-too-small')!;
  const nvd1 = inv.drives.find((d) => d.devPath === '/dev/nvd1')!;
  const qd1 = optane.expected!.qd1;
  const view = (f: typeof slog): FindingView => ({ ...f, ack: null, firstSeenAt: null });
  const stubs = { RouterLink: RouterLinkStub };

  const ui = [
    domText(mount(DrivesTable, { props: { drives: inv.drives, pools: inv.pools } }).element),
    domText(mount(PoolCard, { props: { pool: inv.pools[0]!, findings: input.assessment.findings.map(view) }, global: { stubs } }).element),
    ...[slog, recordsize].map((f) => domText(mount(FindingCard, { props: { finding: view(f), busy: false }, global: { stubs } }).element)),
    domText(mount(VerdictCard, { props: { verdict: narrowVerdict(optane as unknown as OptaneVerdictView) }, global: { stubs } }).element),
    // The history's before/after button needs a session; nothing here clicks it.
    domText(mount(BenchHistory, { props: { history: summaries }, global: { provide: { [SessionKey as symbol]: {} } } }).element),
  ].join(' ');
  const cli = flat([
    summarise(inv), renderAssessment(input.assessment, inv.source.label), renderVerdict(optane, inv.source.label),
    ...summaries.map((s) => runText(s, null)),
  ].join('\n'));
  const markdown = flat((await renderReport(input, { format: 'md' })).body as string);

  // Each fact: its spelling from the formatter, and a pattern that finds it beside its label.
  const facts: { what: string; text: string; near?: RegExp }[] = [
    { what: 'a size (the Optane drive)', text: formatBytes(nvd1.sizeBytes) },
    { what: 'a count (IOPS with the SLOG, from the finding evidence)', text: `${formatCount(qd1.withOptane.iops)} IOPS` },
    { what: 'an estimate with its range', text: formatEstimate(qd1.withOptane) },
    { what: 'a gain, beside the estimate it compares', text: formatSpeedup(qd1.now.iops, qd1.withOptane.iops), near: new RegExp(`${esc(formatEstimate(qd1.withOptane))}:? ${esc(formatSpeedup(qd1.now.iops, qd1.withOptane.iops))}`) },
    // The run's sync latency (its fsync's p99, issue 34 §4), beside its label in every output — not fio's write() p99 (114 µs).
    { what: 'a sync latency (p99 of the sync-write run\'s fsync)', text: formatLatencyNs(runLatencyOf(sync)!.p99Ns), near: new RegExp(`sync latency \\(fsync\\)[^\\n]{0,24}${esc(formatLatencyNs(runLatencyOf(sync)!.p99Ns))}|${esc(formatLatencyNs(runLatencyOf(sync)!.p99Ns))} sync latency \\(fsync\\)`) },
    { what: 'an absent value', text: ABSENT, near: new RegExp(`inherited by:? ${ABSENT}`) },
    { what: 'a plural', text: severityCount('suggestion', doc.summary.counts.suggestion ?? 0) },
  ];

  it('the facts are what the demo says (so the checks below compare something real)', () => {
    expect(facts.map((f) => f.text)).toEqual(['54.9 GiB', '13,700 IOPS', '13,700 (9,132–33,557)', '110×', '963 µs', '—', '2 suggestions']);
  });

  for (const [name, text] of [['the web UI', ui], ['the terminal', cli], ['the Markdown report', markdown]] as const) {
    it(`${name} writes each fact the one way`, () => {
      for (const f of facts) expect(text, f.what).toMatch(f.near ?? new RegExp(esc(f.text)));
      // …and never one of the other spellings the issue found (a quotation of a source keeps its own words).
      const own = ownWords(text);
      expect(own).not.toMatch(/\d\.\d+k\b|\b\d{2,}k\b/); // "13.7k", "10k" (a profile's "4k" block size is a name)
      expect(own).not.toMatch(/\d{4,} µs|\b\d{5,}\b/); // "12000 µs", "39200"
      expect(own).not.toMatch(/=null|=false|=true|inherited by unknown|commits\/s:? unknown/);
      expect(own).not.toMatch(/\brun\(s\)|\b1 datasets|\b[02-9] suggestion\b/);
    });
  }

  it.runIf(poppler)('the PDF (as pdftotext reads it) writes each fact the one way', async () => {
    const text = await pdfText(input, 'four-outputs.pdf');
    for (const f of facts) expect(text, f.what).toMatch(f.near ?? new RegExp(esc(f.text)));
    const own = ownWords(text);
    expect(own).not.toMatch(/\d\.\d+k\b|\b\d{2,}k\b|\d{4,} µs|=null|\brun\(s\)|\b[02-9] suggestion\b/);
  });
});

/**
 * The same checks on a real OpenZFS 2.3 host: the lab's capture of a pool with every vdev class
 * (tests/fixtures/lab/2.3/all-classes, PROVENANCE.md there). A live host has what the demo lacks:
 * drives without a model, smartctl that cannot read virtual disks, a one-device tolerance.
 */
describe('every output writes a fact the same way (a real OpenZFS 2.3 host from the lab)', async () => {
  const loaded = await loadSnapshotInventory(join(import.meta.dirname, '..', 'fixtures', 'lab', '2.3', 'all-classes'));
  const input = reportInput(loaded);
  const inv = input.inventory;
  const doc = reportDocument(input);
  const pool = inv.pools.find((p) => p.name === 'tank')!;
  const special = input.assessment.findings.find((f) => f.ruleId === 'special-redundancy')!;
  const tolerance = special.evidence.find((e) => e.label.endsWith('vdev fault tolerance') && !e.label.startsWith('data'))!;
  const noModel = inv.drives.find((d) => !d.model && d.devPath === '/dev/vda')!;
  const view = (f: typeof special): FindingView => ({ ...f, ack: null, firstSeenAt: null });
  const stubs = { RouterLink: RouterLinkStub };

  const ui = [
    domText(mount(DrivesTable, { props: { drives: inv.drives, pools: inv.pools } }).element),
    domText(mount(PoolCard, { props: { pool, findings: input.assessment.findings.map(view) }, global: { stubs } }).element),
    ...input.assessment.findings.map((f) => domText(mount(FindingCard, { props: { finding: view(f), busy: false }, global: { stubs } }).element)),
  ].join(' ');
  const cli = flat([summarise(inv), renderAssessment(input.assessment, inv.source.label)].join('\n'));
  const markdown = flat((await renderReport(input, { format: 'md' })).body as string);

  const facts: { what: string; text: string; near?: RegExp }[] = [
    { what: 'a size (the pool)', text: formatBytes(pool.sizeBytes) },
    { what: 'a count in the evidence, in the singular', text: formatValue(tolerance.value as number, tolerance.unit), near: new RegExp(`${esc(tolerance.label)}:? ${esc(formatValue(tolerance.value as number, tolerance.unit))}`) },
    { what: 'an absent value (a drive without a model)', text: ABSENT, near: new RegExp(`\\b(${esc((noModel.devPath ?? '').replace('/dev/', ''))}|virtio-${esc(noModel.serial ?? '')}) ${ABSENT}`) },
    { what: 'a plural', text: severityCount('warning', doc.summary.counts.warning ?? 0) },
  ];

  it('the facts are what the capture says', () => {
    expect(facts.map((f) => f.text)).toEqual(['5.63 GiB', '1 device', '—', '2 warnings']);
  });

  for (const [name, text] of [['the web UI', ui], ['the terminal', cli], ['the Markdown report', markdown]] as const) {
    it(`${name} writes each fact the one way`, () => {
      for (const f of facts) {
        // The absent drive model is in the drive tables (UI and terminal), not in the findings-only outputs.
        if (f.what.startsWith('an absent') && name === 'the Markdown report') continue;
        if (f.what.startsWith('a plural') && name === 'the web UI') continue;
        expect(text, f.what).toMatch(f.near ?? new RegExp(esc(f.text)));
      }
      const own = ownWords(text);
      expect(own).not.toMatch(/\b1 (devices|disks|days|seconds|jobs|writes|datasets|suggestions|warnings)\b/);
      expect(own).not.toMatch(/=null|=false|=true|inherited by unknown|\brun\(s\)/);
      expect(own).not.toMatch(/\d{4,} µs|\d\.\d+k\b/);
    });
  }

  it.runIf(poppler)('the PDF (as pdftotext reads it) writes each fact the one way', async () => {
    const text = await pdfText(input, 'four-outputs-lab.pdf');
    // pdftotext -layout wraps a long evidence label around its value, so the PDF is checked for the value alone.
    for (const f of facts.filter((x) => !x.what.startsWith('an absent'))) expect(text, f.what).toMatch(new RegExp(`${esc(f.text)}\\b`));
    expect(text).not.toMatch(/\b1 (devices|disks|days|seconds|jobs|writes|datasets|suggestions|warnings)\b/);
  });
});
