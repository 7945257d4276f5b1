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
}

interface Row { what: string; start: number; end: number }

/** The build-times lines, as rows (ms since t0). Lines that do not parse are skipped. */
export function imageRows(text: string, t0: number): Row[] {
  return text.split('\n').flatMap((line) => {
    const m = /^(\S+) (\d+) (\d+) (\d+)$/.exec(line.trim());
    return m ? [{ what: `lab image, OpenZFS ${m[1]} (DKMS ${m[4]} s)`, start: Number(m[2]) * 1000 - t0, end: Number(m[3]) * 1000 - t0 }] : [];
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
    return [{ what: `lab guest, ${m[1]!.replace(/_/g, ' ')} (OpenZFS ${m[2]}): ${m[5]} s of CPU${waits}`, start: Number(m[3]) * 1000 - t0, end: Number(m[4]) * 1000 - t0 }];
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
  return [
    `where the time went (seconds from the start of the test run; files of ${Math.round(minMs / 1000)} s or more${o.labCache ? ', the lab images built for it and its guests' : ''}):`,
    `${pad('start', 8)} ${pad('end', 8)} ${pad('took', 8)}  what`,
    ...lines,
    `${pad('', 8)} ${pad(s(o.now - o.t0), 8)} ${pad('', 8)}  the whole test run`,
  ].join('\n');
}
