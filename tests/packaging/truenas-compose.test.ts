/**
 * The TrueNAS "Install via YAML" file (plugin/truenas/compose/zfs-advisor.yaml) against the
 * Compose-spec JSON Schema and the TrueNAS rules in compose-checks.ts. Each rule also gets a
 * broken copy of the file, so a check that accepts everything fails here.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { composeSchemaErrors, refusedHostPath, trueNasComposeErrors } from './compose-checks.ts';

const FILE = join(import.meta.dirname, '..', '..', 'plugin', 'truenas', 'compose', 'zfs-advisor.yaml');
const text = readFileSync(FILE, 'utf8');
const load = () => parse(text) as Record<string, unknown> & { services: Record<string, Record<string, unknown>> };

describe('TrueNAS compose file', () => {
  it('is valid against the Compose-spec JSON Schema', () => {
    expect(composeSchemaErrors(load())).toEqual([]);
  });

  it('passes the TrueNAS checks (portals, notes, pinned image, mounts, gateway, no key)', () => {
    expect(trueNasComposeErrors(load(), text)).toEqual([]);
  });

  it('mounts a dedicated benchmark dataset at /bench and the data at /data, as uid 568, key as a secret', () => {
    const s = load().services['zfs-advisor']!;
    const volumes = s.volumes as Array<{ source: string; target: string }>;
    expect(volumes.map((v) => v.target).sort()).toEqual(['/bench', '/data']);
    const bench = volumes.find((v) => v.target === '/bench')!;
    expect(bench.source).toMatch(/^\/mnt\/[^/]+\/.+/);
    expect(s.user).toBe('568:568');
    expect(s.secrets).toEqual(['truenas_api_key']);
    expect((s.environment as Record<string, string>).TRUENAS_API_KEY_FILE).toBe('/run/secrets/truenas_api_key');
  });

  it('runs in container mode: benchmarks only in the dataset mounted at /bench, no Demo host', () => {
    const s = load().services['zfs-advisor']!;
    const env = s.environment as Record<string, string>;
    const targets = (s.volumes as Array<{ target: string }>).map((v) => v.target);
    expect(env.ZFS_ADVISOR_BENCH_DIR).toBe('/bench');
    expect(targets).toContain(env.ZFS_ADVISOR_BENCH_DIR);
    expect(env.ZFS_ADVISOR_NO_DEMO).toBe('1');
    expect(load()['x-notes']).toMatch(/Benchmarks \(fio\) run only inside `\/mnt\/[^`]+`, mounted at `\/bench`/);
  });

  it('checks health with node (the image has no curl) on /api/health at the container port', () => {
    const s = load().services['zfs-advisor']!;
    const test = (s.healthcheck as { test: string[] }).test;
    expect(test.slice(0, 3)).toEqual(['CMD', 'node', '-e']);
    expect(test[3]).toContain(`fetch('http://127.0.0.1:${(s.environment as Record<string, string>).ZFS_ADVISOR_PORT}/api/health')`);
    expect(test.join(' ')).not.toMatch(/\b(curl|wget)\b/);
  });

  it('the schema rejects an unknown service key and a malformed healthcheck duration', () => {
    const doc = load();
    doc.services['zfs-advisor']!.privileged_mode = true;
    expect(composeSchemaErrors(doc).join('\n')).toMatch(/additional/i);
    const doc2 = load();
    (doc2.services['zfs-advisor']!.healthcheck as Record<string, unknown>).interval = 'thirty seconds';
    expect(composeSchemaErrors(doc2).join('\n')).toMatch(/format/);
  });

  it('flags /mnt, / and /mnt/.ix-apps mounts, an unpinned image, missing portals/notes and a pasted key', () => {
    for (const source of ['/mnt', '/', '/mnt/.ix-apps/app_mounts', '/var/run/middleware']) {
      const doc = load();
      (doc.services['zfs-advisor']!.volumes as Array<{ source: string }>)[1]!.source = source;
      expect(trueNasComposeErrors(doc, text).join('\n')).toContain(source);
    }
    const unpinned = load();
    unpinned.services['zfs-advisor']!.image = 'ghcr.io/zfs-advisor/zfs-advisor:latest';
    expect(trueNasComposeErrors(unpinned, text).join('\n')).toMatch(/not pinned/);
    const bare = load();
    delete bare['x-portals'];
    delete bare['x-notes'];
    expect(trueNasComposeErrors(bare, text).join('\n')).toMatch(/x-portals.*\n?.*x-notes|x-notes/);
    const badPortal = load();
    (badPortal['x-portals'] as Array<Record<string, unknown>>)[0]!.scheme = 'ftp';
    expect(trueNasComposeErrors(badPortal, text).join('\n')).toMatch(/scheme/);
    const noGateway = load();
    delete noGateway.services['zfs-advisor']!.extra_hosts;
    expect(trueNasComposeErrors(noGateway, text).join('\n')).toMatch(/host-gateway/);
    const keyInEnv = load();
    (keyInEnv.services['zfs-advisor']!.environment as Record<string, string>).TRUENAS_API_KEY = '';
    expect(trueNasComposeErrors(keyInEnv, text).join('\n')).toMatch(/TRUENAS_API_KEY in environment/);
    const withKey = `${text}\n# 1-${'a1B2'.repeat(16)}\n`;
    expect(trueNasComposeErrors(parse(withKey), withKey).join('\n')).toMatch(/API key/);
  });

  it('refusedHostPath follows the apps library: dataset paths pass, system paths do not', () => {
    expect(refusedHostPath('/mnt/tank/bench')).toBeNull();
    expect(refusedHostPath('/mnt/')).not.toBeNull();
    expect(refusedHostPath('/home/admin')).not.toBeNull();
    expect(refusedHostPath('/mnt/.ix-apps')).not.toBeNull();
  });

  it('round-trips as the string TrueNAS app.create receives (custom_compose_config_string)', () => {
    // shared/samples/platform/truenas/app.create.custom.DERIVED.json: the YAML is sent as one string.
    const again = parse(stringify(load()));
    expect(composeSchemaErrors(again)).toEqual([]);
  });
});
