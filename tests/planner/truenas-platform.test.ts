/**
 * Every TrueNAS request a plan prints parses with that release's `midclt` and validates against
 * that release's `pool.update` model (issue 36 §1, §5), for CORE 13.3, SCALE 24.10, 25.04, 25.10,
 * 26 and 27. The fixture tests/fixtures/platforms/truenas-releases.json says what each release's
 * client and API accept, read in their source at the commits it names (PROVENANCE.md); the parser
 * below is our own equivalent of argparse's rules for `midclt call` (options, `-j` with a value or
 * without, a joined short option `-job`, the method and its JSON arguments).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Inventory, Pool } from '../../server/src/model/inventory.ts';
import type { NativeWay } from '../../server/src/model/finding.ts';
import { planAddVdev } from '../../server/src/planner/add-vdev.ts';
import { nativeWayForCommands } from '../../server/src/planner/native-way.ts';
import { nativeWayText } from '../../server/src/planner/native-way-text.ts';
import { midcltJobFlag, trueNasRelease } from '../../server/src/planner/native-way-truenas.ts';
import { drive, group, host, leaf, pool } from '../support/builders.ts';

interface CallOption { flags: string[]; takes: 'none' | 'value'; type?: 'bool'; choices?: string[] }
interface Release {
  release: string; distribution: 'truenas-core' | 'truenas-scale'; version: string;
  midclt: { callOptions: CallOption[] };
  poolUpdate: { idType: 'integer'; topology: Record<string, string[]> };
  jsonRpc: boolean; rest: boolean; refusesSingleSpecialUnderRedundantData: boolean; refusal?: { message: string };
}
const FIXTURE = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'platforms', 'truenas-releases.json'), 'utf8')) as { releases: Release[] };

/** POSIX shell words of one command line: '…' literal, "…" with $(…) kept as one substitution word. */
function shellWords(line: string): { word: string; substitution: string | null }[] {
  const out: { word: string; substitution: string | null }[] = [];
  let i = 0;
  while (i < line.length) {
    while (line[i] === ' ') i++;
    if (i >= line.length) break;
    let word = '';
    let substitution: string | null = null;
    while (i < line.length && line[i] !== ' ') {
      const c = line[i]!;
      if (c === '\'') { const end = line.indexOf('\'', i + 1); if (end < 0) throw new Error('unclosed single quote'); word += line.slice(i + 1, end); i = end + 1; } else if (c === '"') {
        i++;
        while (line[i] !== '"') {
          if (i >= line.length) throw new Error('unclosed double quote');
          if (line.startsWith('$(', i)) {
            let depth = 1; let j = i + 2; let inSingle = false;
            for (; j < line.length && depth > 0; j++) {
              if (line[j] === '\'') inSingle = !inSingle;
              else if (!inSingle && line[j] === '(') depth++;
              else if (!inSingle && line[j] === ')') depth--;
            }
            substitution = line.slice(i + 2, j - 1);
            i = j;
          } else word += line[i++];
        }
        i++;
      } else if (c === '|' || c === ';' || c === '&' || c === '`') throw new Error(`unquoted ${c}`);
      else word += line[i++];
    }
    out.push({ word, substitution });
  }
  return out;
}

/** Python's json.loads, else the string (midclt's from_json). */
const fromJson = (s: string): unknown => { try { return JSON.parse(s); } catch { return s; } };

/**
 * argparse's parse of `midclt call ARGS` with the release's call options (our equivalent of
 * CPython's argparse for these option kinds): an exact option string; a joined short option
 * (`-job` = `-j` + explicit `ob`), which a value-taking option takes as its value and a flag refuses
 * with "ignored explicit argument"; a value-taking option otherwise takes the next word.
 */
function parseMidcltCall(words: string[], options: CallOption[]): { job: boolean; method: string; args: unknown[] } {
  if (words[0] !== 'midclt' || words[1] !== 'call') throw new Error('not midclt call');
  const find = (s: string) => options.find((o) => o.flags.includes(s));
  let job = false;
  const positional: string[] = [];
  for (let i = 2; i < words.length; i++) {
    const w = words[i]!;
    if (positional.length === 0 && w.startsWith('-') && w !== '-' && !/^-\d/.test(w)) {
      let opt = find(w);
      let explicit: string | null = null;
      if (!opt && w.startsWith('--') && w.includes('=')) { opt = find(w.slice(0, w.indexOf('='))); explicit = w.slice(w.indexOf('=') + 1); }
      if (!opt && !w.startsWith('--')) { opt = find(w.slice(0, 2)); explicit = w.slice(2); }
      if (!opt) throw new Error(`unrecognized arguments: ${w}`);
      if (opt.takes === 'none') {
        if (explicit) throw new Error(`argument ${opt.flags.join('/')}: ignored explicit argument '${explicit}'`);
        if (opt.flags.includes('-j')) job = true;
        continue;
      }
      const value = explicit ?? words[++i];
      if (value === undefined) throw new Error(`argument ${opt.flags.join('/')}: expected one argument`);
      if (opt.choices && !opt.choices.includes(value)) throw new Error(`argument ${opt.flags.join('/')}: invalid choice: '${value}'`);
      if (opt.flags.includes('-j')) job = opt.type === 'bool' ? value !== '' : true; // Python's bool(str)
      continue;
    }
    positional.push(w);
  }
  if (positional.length === 0) throw new Error('the following arguments are required: method');
  return { job, method: positional[0]!, args: positional.slice(1).map(fromJson) };
}

/** The release's pool.update model: (id: integer, {topology: {class: [{type, disks: [str]}], spares: [str]}}), nothing else. */
function validatePoolUpdate(params: unknown[], r: Release): string[] {
  const errors: string[] = [];
  if (params.length !== 2) errors.push(`expected 2 parameters, got ${params.length}`);
  if (!Number.isInteger(params[0])) errors.push(`id: value is not a valid integer (${JSON.stringify(params[0])})`);
  const data = params[1] as { topology?: Record<string, unknown> } | undefined;
  if (!data || typeof data !== 'object' || Object.keys(data).some((k) => k !== 'topology')) errors.push('data: only topology is sent');
  for (const [cls, vdevs] of Object.entries(data?.topology ?? {})) {
    if (cls === 'spares') { if (!Array.isArray(vdevs) || vdevs.some((d) => typeof d !== 'string')) errors.push('spares: a list of disk names'); continue; }
    const types = r.poolUpdate.topology[cls];
    if (!types) { errors.push(`topology.${cls}: extra field`); continue; }
    for (const [i, v] of (vdevs as { type?: unknown; disks?: unknown }[]).entries()) {
      if (!types.includes(String(v.type))) errors.push(`topology.${cls}.${i}.type: ${String(v.type)} not in ${types.join('/')}`);
      if (!Array.isArray(v.disks) || v.disks.length === 0 || v.disks.some((d) => typeof d !== 'string' || d.startsWith('/'))) errors.push(`topology.${cls}.${i}.disks: disk names`);
      if (Object.keys(v).some((k) => k !== 'type' && k !== 'disks')) errors.push(`topology.${cls}.${i}: extra field`);
    }
  }
  return errors;
}

/** Runs a printed midclt line as the release's client would read it; `$(…)` is checked, then stands for the pool's id. */
function runPrinted(line: string, r: Release, id: number): { job: boolean; method: string; args: unknown[] } {
  const words = shellWords(line).map((w) => {
    if (w.substitution === null) return w.word;
    const [inner, filter] = w.substitution.split(' | ');
    expect(filter).toBe('jq .id');
    const q = parseMidcltCall(shellWords(inner!).map((x) => x.word), r.midclt.callOptions);
    expect(q.method).toBe('pool.query');
    expect(q.args[1]).toEqual({ get: true });
    return String(id);
  });
  return parseMidcltCall(words, r.midclt.callOptions);
}

const tank = (opts: { id?: number; data?: 'mirror' | 'disk'; special?: 'disk' } = {}): Pool => {
  const data = opts.data === 'disk' ? [leaf('/dev/disk/by-id/ata-a')] : [group('mirror', 'mirror-0', [leaf('/dev/disk/by-id/ata-a'), leaf('/dev/disk/by-id/ata-b')])];
  const p = pool('tank', data, { ashift: 12 });
  if (opts.special) p.vdevs.push({ ...leaf('/dev/disk/by-id/nvme-old'), class: 'special' });
  return { ...p, platformId: opts.id ?? null };
};
const drives = ['a', 'b'].map((x, i) => drive(`nvme-optane-${x}`, { devPath: `/dev/nvme${i}n1`, aliases: [`/dev/nvme${i}n1`], media: 'nvme' }));
const hostOf = (r: Release): Inventory['host'] => ({ ...host('2.3.0', { distribution: r.distribution }), distributionVersion: r.version, platform: r.distribution === 'truenas-core' ? 'freebsd' : 'linux' });
const plan = (r: Release, p: Pool, kind: 'slog' | 'special', devices: string[], accept = false): NativeWay =>
  planAddVdev({ kind, pool: p, devices, host: hostOf(r), pools: [p], drives, openzfs: '2.3.0', acceptLowerRedundancy: accept }).native!;

describe.each(FIXTURE.releases)('TrueNAS $release ($version)', (r) => {
  it('the job flag printed is the one this release\'s midclt parses, and the other spelling is refused', () => {
    const flag = midcltJobFlag(trueNasRelease(r.distribution, r.version));
    const other = flag === '-j' ? '-job' : '-j';
    const ok = parseMidcltCall(['midclt', 'call', flag, 'pool.update', '3', '{"topology":{}}'], r.midclt.callOptions);
    expect(ok).toMatchObject({ job: true, method: 'pool.update', args: [3, { topology: {} }] });
    // The checker can fail: the other spelling stops the client (25.04+) or eats the method name (13.3, 24.10).
    let wrong: { method: string } | Error;
    try { wrong = parseMidcltCall(['midclt', 'call', other, 'pool.update', '3', '{"topology":{}}'], r.midclt.callOptions); } catch (e) { wrong = e as Error; }
    if (wrong instanceof Error) expect(wrong.message).toBe('argument -j/--job: ignored explicit argument \'ob\'');
    else expect(wrong.method).not.toBe('pool.update');
  });

  it('pool id known (read through the API): one pool.update with the integer id; midclt, JSON-RPC and REST validate', () => {
    const n = plan(r, tank({ id: 3 }), 'slog', [drives[0]!.byIdPath!]);
    expect(n.api.map((q) => q.method)).toEqual(['pool.update']);
    expect(validatePoolUpdate(n.api[0]!.params, r)).toEqual([]);
    const call = runPrinted(n.api[0]!.midclt, r, 3);
    expect(call).toEqual({ job: true, method: 'pool.update', args: [3, { topology: { log: [{ type: 'STRIPE', disks: ['nvme0n1'] }] } }] });
    expect(validatePoolUpdate(call.args, r)).toEqual([]);
    const t = nativeWayText(n).api!.requests[0]!;
    if (r.jsonRpc) {
      const rpc = JSON.parse(t.call!) as { method: string; params: unknown[] };
      expect(rpc.method).toBe('pool.update');
      expect(validatePoolUpdate(rpc.params, r)).toEqual([]);
    } else expect(t.call).toBeNull();
    if (r.rest) expect(t.rest).toBe('PUT /api/v2.0/pool/id/3 {"topology":{"log":[{"type":"STRIPE","disks":["nvme0n1"]}]}}');
    else expect(t.rest).toBeNull();
    expect(n.citations.map((c) => c.url).join(' ')).toContain(FIXTURE.releases.find((x) => x === r)!.release === '13.3' ? 'TN-13.3' : '/');
  });

  it('pool id unknown: asked first; no string where the integer goes; the shell line fills it in and validates', () => {
    const n = plan(r, tank(), 'special', [drives[0]!.byIdPath!, drives[1]!.byIdPath!]);
    expect(n.api.map((q) => q.method)).toEqual(['pool.query', 'pool.update']);
    expect(n.api[1]!.params[0]).toBeNull();
    expect(n.api[1]!.poolIdFrom).toBe(0);
    const t = nativeWayText(n).api!.requests;
    for (const q of t) if (q.call) expect(q.call).not.toMatch(/"(POOL_ID|<id[^"]*)"/);
    if (r.jsonRpc) {
      expect(() => JSON.parse(t[1]!.call!)).toThrow();
      const filled = JSON.parse(t[1]!.call!.replace('<id of tank>', '7')) as { params: unknown[] };
      expect(validatePoolUpdate(filled.params, r)).toEqual([]);
    }
    expect(runPrinted(t[0]!.midclt, r, 7)).toEqual({ job: false, method: 'pool.query', args: [[['name', '=', 'tank']], { get: true }] });
    const call = runPrinted(t[1]!.midclt, r, 7);
    expect(call.job).toBe(true);
    expect(validatePoolUpdate(call.args, r)).toEqual([]);
    expect(call.args[1]).toEqual({ topology: { special: [{ type: 'MIRROR', disks: ['nvme0n1', 'nvme1n1'] }] } });
  });

  it('a special vdev of one device under mirrored data: refused from 26 with the mirror alternative, accepted before', () => {
    const n = plan(r, tank({ id: 3 }), 'special', [drives[0]!.byIdPath!], true);
    const update = n.api.find((q) => q.method === 'pool.update')!;
    const special = (update.params[1] as { topology: { special: { type: string; disks: string[] }[] } }).topology.special[0]!;
    if (r.refusesSingleSpecialUnderRedundantData) {
      expect(n.refused).toContain(r.refusal!.message);
      expect(special).toEqual({ type: 'MIRROR', disks: ['nvme0n1', '<a second device of the same size>'] });
      expect(n.uiSteps.join(' ')).toContain('layout Mirror');
      expect(n.citations.map((c) => c.locator).join(' ')).toContain('plugins/pool_/pool.py');
    } else {
      expect(n.refused ?? null).toBeNull();
      expect(special).toEqual({ type: 'STRIPE', disks: ['nvme0n1'] });
    }
    expect(validatePoolUpdate(update.params, r)).toEqual([]);
  });

  it('an existing special vdev without redundancy: from 26 every pool.update of the pool is refused, and the plan says to mirror it first', () => {
    const n = nativeWayForCommands(hostOf(r), ['zpool add tank log /dev/nvme0n1'], drives, [tank({ id: 3, special: 'disk' })])!;
    if (r.refusesSingleSpecialUnderRedundantData) {
      expect(n.refused).toContain('has no redundancy');
      expect(n.api).toEqual([]);
    } else {
      expect(n.refused ?? null).toBeNull();
      expect(validatePoolUpdate(n.api[0]!.params, r)).toEqual([]);
    }
  });
});

describe('the release is read from what the host reports', () => {
  it('system.info and /etc/version spellings', () => {
    expect(trueNasRelease('truenas-core', 'TrueNAS-13.3-U1.2 (a1b2c3)')).toMatchObject({ line: 'core', major: 13, minor: 3 });
    expect(trueNasRelease('truenas-scale', 'TrueNAS-SCALE-24.10.2.4')).toMatchObject({ line: 'scale', major: 24, minor: 10 });
    expect(trueNasRelease('truenas-scale', '25.04.2.6')).toMatchObject({ major: 25, minor: 4 });
    expect(trueNasRelease('truenas-scale', '27.0.0-BETA.1')).toMatchObject({ major: 27, minor: 0 });
    expect(trueNasRelease('truenas-scale', null)).toMatchObject({ major: null });
  });

  it('an unread SCALE version: the current spelling, both transports with their ranges, and the 26 refusal said', () => {
    const r = FIXTURE.releases.find((x) => x.release === '25.10')!;
    const n = planAddVdev({ kind: 'special', pool: tank({ id: 3 }), devices: [drives[0]!.byIdPath!], host: { ...hostOf(r), distributionVersion: null }, pools: [], drives, openzfs: '2.3.0', acceptLowerRedundancy: true }).native!;
    expect(n.api[0]!.midclt).toMatch(/^midclt call -j pool\.update 3 /);
    expect(n.apiHeading).toContain('-job on 24.10');
    expect(n.summary).toContain('TrueNAS 26 and later refuse');
  });
});
