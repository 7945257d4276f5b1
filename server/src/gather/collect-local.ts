/**
 * Runs the collectors' requests on this host (through the runner only) and returns the RawSet.
 * Rounds: uname first (it decides the platform), then every collector's requests, then again
 * for requests that depend on earlier outputs (per-disk smartctl, zfs-fuse's `zpool get all POOL`).
 */
import { readFile } from 'node:fs/promises';
import { describeFailure, runCommand } from '../exec/runner.ts';
import type { RawOutput, RawSet } from '../snapshot/raw-set.ts';
import { COLLECTORS } from './collectors/index.ts';
import { platformFromUname, type GatherContext, type RawRequest } from './request.ts';

export interface CollectOptions {
  /** Upper bound per command (a hung `zpool` on a dying pool must not hang the app). */
  timeoutMs?: number;
}

/** Runs one request on this host: its file, or its commands in order until one succeeds. */
export async function fulfil(req: RawRequest, opts: CollectOptions): Promise<RawOutput> {
  if ('readPath' in req) {
    try {
      return { text: await readFile(req.readPath, 'utf8'), command: ['read', req.readPath], exitCode: 0, stderr: '', error: null };
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      return { text: '', command: ['read', req.readPath], exitCode: null, stderr: '', error: code === 'ENOENT' ? `${req.readPath} does not exist` : `${req.readPath}: ${code ?? 'unreadable'}` };
    }
  }
  let last: RawOutput | null = null;
  for (const alt of req.commands) {
    const r = await runCommand(alt.program, alt.args, { timeoutMs: req.timeoutMs ?? opts.timeoutMs ?? 60_000 });
    last = {
      text: r.stdout, command: [alt.program, ...alt.args], exitCode: r.exitCode, stderr: r.stderr,
      error: r.error ? (describeFailure(r) ?? r.error.message) : null,
    };
    // Not installed: the other spellings are the same program, stop here.
    if (r.error?.code === 'not-found') break;
    if (!r.error && r.exitCode === 0) break;
  }
  return last ?? { text: '', command: null, exitCode: null, stderr: '', error: 'no command to run' };
}

export async function collectLocal(opts: CollectOptions = {}): Promise<RawSet> {
  const raw: RawSet = {};
  raw['uname.txt'] = await fulfil({ file: 'uname.txt', commands: [{ program: 'uname', args: ['-a'] }] }, opts);
  const ctx: GatherContext = { platform: platformFromUname(raw['uname.txt'].text) };
  for (let round = 0; round < 4; round++) {
    const pending = COLLECTORS.flatMap((c) => c.requests(raw, ctx)).filter((r) => !(r.file in raw));
    if (pending.length === 0) break;
    // Sequential on purpose: parallel smartctl/zpool calls on a busy NAS cost more than they save.
    for (const req of pending) raw[req.file] ??= await fulfil(req, opts);
  }
  return raw;
}
