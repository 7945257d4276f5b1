/**
 * The test run's own timing table (issue 37: "the run's own timing table says so"): when each long
 * test file and each lab image build started and ended, in seconds from the start of the run, so a
 * CI log shows its critical path. Image builds come from the lines lab/build-image.sh appends to
 * `$ZFS_ADVISOR_LAB_CACHE/build-times` (line, start and end in epoch seconds, DKMS seconds); a build
 * that started before the test run has a negative start. Pure but for reading that file.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface TimingInput {
  t0: number;
  now: number;
  spans: ReadonlyMap<string, { start: number; end?: number }>;
  root: string;
  labCache?: string | undefined;
  /** Files shorter than this are left out (ms). */
  minMs?: number;
  /**
   * Where the CPU went, when known: the machine's busy CPU seconds over the run (all cores), its cores,
   * the main vitest process's own CPU seconds, and the file-cpu.ts log (seconds TAB file path per line).
   */
  cpu?: { machineBusy: number; cores: number; mainProcess: number; fileLog: string } | undefined;
  /** Files costing less CPU than this are not named one by one in the CPU section (seconds). */
  minCpu?: number;
}

interface Row { what: string; start: number; end: number; line?: string; cpu?: number; dkmsCpu?: number; bootCpu?: number; byTestFile?: boolean }

/** The build-times lines, as rows (ms since t0). Lines that do not parse are skipped. */
export function imageRows(text: string, t0: number): Row[] {
  return text.split('\n').flatMap((line) => {
    // Newer lines add the build's CPU seconds and DKMS's, then who built it (lab/build-image.sh).
    const m = /^(\S+) (\d+) (\d+) (\d+)(?: (\d+) (\d+)(?: (test-file|caller))?)?$/.exec(line.trim());
    if (!m) return [];
    const cpu = m[5] === undefined ? {} : { cpu: Number(m[5]), dkmsCpu: Number(m[6]) };
    const by = m[7] === 'test-file' ? '; built by a lab file' : '';
    const what = `lab image, OpenZFS ${m[1]} (DKMS ${m[4]} s${m[5] === undefined ? '' : `; ${m[5]} s of CPU, DKMS ${m[6]}`}${by})`;
    return [{ what, line: m[1]!, start: Number(m[2]) * 1000 - t0, end: Number(m[3]) * 1000 - t0, ...cpu, ...(by ? { byTestFile: true } : {}) }];
  });
}

/**
 * The guest-times lines (lab/vm.ts LabVm.recordCpu): label, line, start, end (epoch seconds) and the
 * CPU seconds QEMU used, as rows (ms since t0). Labels have no spaces (underscores stand for them).
 */
export function guestRows(text: string, t0: number): Row[] {
  return text.split('\n').flatMap((line) => {
    const m = /^(\S+) (\S+) (\d+) (\d+) (\d+)(?: (\d+) (\d+) (\d+) (\d+))?$/.exec(line.trim());
    if (!m) return [];
    // Newer lines also say what the guest waited for before QEMU started, and what its boot cost.
    const waits = m[6] === undefined ? '' : `; waited ${m[6]} s for its image, ${m[7]} s for a slot; booted in ${m[8]} s with ${m[9]} s of CPU`;
    return [{ what: `lab guest, ${m[1]!.replace(/_/g, ' ')} (OpenZFS ${m[2]}): ${m[5]} s of CPU${waits}`, start: Number(m[3]) * 1000 - t0, end: Number(m[4]) * 1000 - t0,
      cpu: Number(m[5]), ...(m[9] === undefined ? {} : { bootCpu: Number(m[9]) }) }];
  });
}

export function timingTable(o: TimingInput): string {
  const minMs = o.minMs ?? 60_000;
  const files: Row[] = [...o.spans.entries()]
    .map(([id, s]) => ({ what: relative(o.root, id), start: s.start - o.t0, end: (s.end ?? o.now) - o.t0 }))
    .filter((r) => r.end - r.start >= minMs);
  const read = (name: string) => (o.labCache && existsSync(join(o.labCache, name)) ? readFileSync(join(o.labCache, name), 'utf8') : '');
  // A cache kept between runs holds earlier runs' lines: only what ended during this one counts.
  const lab = [...imageRows(read('build-times'), o.t0), ...guestRows(read('guest-times'), o.t0)].filter((r) => r.end >= 0);
  const rows = [...lab, ...files].sort((a, b) => a.start - b.start || a.end - b.end);
  const s = (ms: number) => `${Math.round(ms / 1000)} s`;
  const pad = (x: string, n: number) => x.padStart(n);
  const lines = rows.map((r) => `${pad(s(r.start), 8)} ${pad(s(r.end), 8)} ${pad(s(r.end - r.start), 8)}  ${r.what}`);
  const cpu = o.cpu ? cpuSection(o, lab, o.cpu) : [];
  return [
    `where the time went (seconds from the start of the test run; files of ${Math.round(minMs / 1000)} s or more${o.labCache ? ', the lab images built for it and its guests' : ''}):`,
    `${pad('start', 8)} ${pad('end', 8)} ${pad('took', 8)}  what`,
    ...lines,
    `${pad('', 8)} ${pad(s(o.now - o.t0), 8)} ${pad('', 8)}  the whole test run`,
    ...cpu,
  ].join('\n');
}

/** The file-cpu.ts log as path → CPU seconds (a file logged twice counts twice). */
export function fileCpu(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(\d+(?:\.\d+)?)\t(.+)$/.exec(line);
    if (m) out.set(m[2]!, (out.get(m[2]!) ?? 0) + Number(m[1]));
  }
  return out;
}

/**
 * Where the CPU went, in core-seconds: on a machine of few cores the run cannot end before its CPU
 * seconds ÷ cores, so this says what to cut. Guests are counted once (QEMU is a child of its lab file:
 * the file's own share is the rest); image builds run beside the test run (CI starts them before it),
 * so their CPU may include time before the run's start.
 */
function cpuSection(o: TimingInput, lab: Row[], c: NonNullable<TimingInput['cpu']>): string[] {
  const minCpu = o.minCpu ?? 60;
  const n = (x: number) => Math.round(x).toLocaleString('en-US').padStart(8);
  const files = [...fileCpu(c.fileLog).entries()].map(([f, cpu]) => ({ file: relative(o.root, f), cpu }));
  const isLab = (f: string) => f.startsWith('tests/lab/');
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const images = lab.filter((r) => r.what.startsWith('lab image') && r.cpu !== undefined);
  const guests = lab.filter((r) => r.what.startsWith('lab guest') && r.cpu !== undefined);
  const guestCpu = sum(guests.map((r) => r.cpu!));
  const bootCpu = sum(guests.map((r) => r.bootCpu ?? 0));
  const labFiles = sum(files.filter((f) => isLab(f.file)).map((f) => f.cpu));
  const others = files.filter((f) => !isLab(f.file)).sort((a, b) => b.cpu - a.cpu);
  const wall = (o.now - o.t0) / 1000;
  const available = wall * c.cores;
  // Each row: its CPU seconds, what it is, and the costly files named under it.
  const rows: Array<{ cpu: number; what: string; named?: typeof others }> = [];
  if (guests.length) rows.push({ cpu: guestCpu, what: `lab guests (QEMU): ${guests.length}, of which booting ${Math.round(bootCpu)}` });
  if (images.length) rows.push({ cpu: sum(images.map((r) => r.cpu!)), what: `lab image builds, from their start: ${images.map((r) => `${r.line} ${Math.round(r.cpu!)} (DKMS ${Math.round(r.dkmsCpu!)})`).join(', ')}` });
  // A lab file that built an image itself (ensureImage: no other caller had) waited for the build as its
  // child, so that build's CPU is in the file's too: count it once, under the image builds.
  const builtByFiles = sum(images.filter((r) => r.byTestFile).map((r) => r.cpu!));
  if (files.some((f) => isLab(f.file))) rows.push({ cpu: Math.max(0, labFiles - guestCpu - builtByFiles), what: 'the lab files beside their guests (captures read and assessed on the host, Chromium)' });
  rows.push({ cpu: sum(others.map((f) => f.cpu)), what: `the other ${others.length} test files, with what they started`, named: others.filter((f) => f.cpu >= minCpu) });
  rows.push({ cpu: c.mainProcess, what: 'vitest\'s main process (transforms, reporters)' });
  const attributed = sum(rows.map((r) => r.cpu));
  const lines = [
    '',
    `where the CPU went (core-seconds: ${c.cores} cores × ${Math.round(wall)} s = ${Math.round(available).toLocaleString('en-US')}; the machine was busy ${Math.round(c.machineBusy).toLocaleString('en-US')}, ${Math.round((100 * c.machineBusy) / available)} %):`,
    `${'CPU s'.padStart(8)}  what`,
    ...rows.flatMap((r) => [`${n(r.cpu)}  ${r.what}`, ...(r.named ?? []).map((f) => `${' '.repeat(8)}  ${n(f.cpu)}  ${f.file}`)]),
    `${n(c.machineBusy - attributed)}  the rest of the machine's busy time (daemons, the system${images.length ? '; negative: the builds started before the run' : ''})`,
  ];
  return lines;
}
