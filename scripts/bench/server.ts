/**
 * Server benchmark (for BENCHMARKS.md): idle RSS of a freshly started server on the demo
 * snapshot, and 200 concurrent GETs of the findings list over loopback (p50/p99, errors).
 * Targets from issue 5: idle RSS ≤ 80 MB, p99 < 50 ms, 0 errors. The server runs in a child
 * process (via the runner) so its RSS is its own, not this script's.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, cpus } from 'node:os';
import { join } from 'node:path';
import { runStreaming } from '../../server/src/exec/runner.ts';

const ROOT = join(import.meta.dirname, '..', '..');

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export default async function serverBench(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'zfsa-bench-server-'));
  const abort = new AbortController();
  let url = '';
  let pid = 0;
  const ready = new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('server did not start within 60 s')), 60_000);
    void runStreaming(process.execPath, [join(ROOT, 'server', 'bin', 'zfs-advisor.js'), 'serve', '--port', '0', '--data-dir', dataDir, '--demo'], {
      signal: abort.signal,
      timeoutMs: 10 * 60_000,
      onSpawn: (p) => { pid = p; },
      onStdoutLine: (line) => {
        const m = /running at (http:\/\/\S+)/.exec(line);
        if (m) { url = m[1]!; clearTimeout(t); resolve(); }
      },
    });
  });
  try {
    await ready;
    // Let the startup assessment finish, then measure idle RSS from /proc.
    for (let i = 0; i < 100; i++) {
      const r = await fetch(new URL('api/hosts/demo/findings', url));
      if (((await r.json()) as { assessmentId: number | null }).assessmentId !== null) break;
      await new Promise((r2) => setTimeout(r2, 200));
    }
    await new Promise((r) => setTimeout(r, 2000));
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const rssKb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);

    const N = 200;
    const times: number[] = [];
    let errors = 0;
    await Promise.all(Array.from({ length: N }, async () => {
      const t0 = performance.now();
      try {
        const r = await fetch(new URL('api/hosts/demo/findings', url));
        await r.arrayBuffer();
        if (r.status !== 200) errors++;
      } catch { errors++; }
      times.push(performance.now() - t0);
    }));
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const p99 = percentile(times, 99);
    return [
      '### Server (issue 5)',
      '',
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}; server on the demo snapshot, loopback HTTP.`,
      '',
      '| measure | result | target |',
      '|---|---|---|',
      `| idle RSS after start + first assessment | ${(rssKb / 1024).toFixed(1)} MB | ≤ 80 MB |`,
      `| ${N} concurrent GET /api/hosts/demo/findings: p50 | ${p50.toFixed(1)} ms | — |`,
      `| ${N} concurrent GET /api/hosts/demo/findings: p99 | ${p99.toFixed(1)} ms | < 50 ms |`,
      `| errors | ${errors} | 0 |`,
      '',
    ].join('\n');
  } finally {
    abort.abort();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
