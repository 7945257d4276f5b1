/**
 * The pure parts of the Cockpit transport (ui/src/api/cockpit.ts): where the server listens, read
 * from the unit's EnvironmentFile as systemd reads it, the package config from Cockpit's manifest,
 * and Cockpit's style mapped onto the page's theme. The transport itself runs against real Cockpit
 * in tests/e2e/cockpit.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cockpitOf, DEFAULT_PACKAGE_CONFIG, endpointFromConf, packageConfigOf, type Cockpit } from '../../ui/src/api/cockpit.ts';
import { themeFromCockpitStyle } from '../../ui/src/state/theme.ts';

const REPO = join(import.meta.dirname, '..', '..');

describe('endpointFromConf', () => {
  it('reads the shipped config file as the defaults: localhost, 8077, no base path', () => {
    const shipped = readFileSync(join(REPO, 'plugin', 'debian', 'zfs-advisor.conf'), 'utf8');
    expect(endpointFromConf(shipped)).toEqual({ address: null, port: 8077, basePath: '/' });
    expect(endpointFromConf(null)).toEqual({ address: null, port: 8077, basePath: '/' });
  });

  it('takes the last assignment, quotes, a base path in EXTRA_ARGS, and a specific bind address', () => {
    const conf = [
      'ZFS_ADVISOR_PORT=8077', '# ZFS_ADVISOR_PORT=1', 'ZFS_ADVISOR_PORT="9001"', 'ZFS_ADVISOR_HOST=192.168.7.2',
      "ZFS_ADVISOR_EXTRA_ARGS='--public-name nas.lan --base-path=/zfs'",
    ].join('\n');
    expect(endpointFromConf(conf)).toEqual({ address: '192.168.7.2', port: 9001, basePath: '/zfs/' });
    expect(endpointFromConf('ZFS_ADVISOR_EXTRA_ARGS=--base-path /a/b/\n').basePath).toBe('/a/b/');
  });

  it('connects to loopback when the server listens on every address', () => {
    for (const host of ['0.0.0.0', '::', 'localhost', '127.0.0.1']) expect(endpointFromConf(`ZFS_ADVISOR_HOST=${host}`).address).toBeNull();
    expect(endpointFromConf('ZFS_ADVISOR_HOST=::1').address).toBe('::1');
  });

  it('falls back to the defaults for values that are not a port or a plain path', () => {
    for (const port of ['0', '65536', 'http', '80.5', '']) expect(endpointFromConf(`ZFS_ADVISOR_PORT=${port}`).port).toBe(8077);
    expect(endpointFromConf('ZFS_ADVISOR_EXTRA_ARGS=--base-path /x?y=<script>').basePath).toBe('/');
    expect(endpointFromConf('ZFS_ADVISOR_EXTRA_ARGS=--base-path ../up').basePath).toBe('/');
  });
});

describe('package config and detection', () => {
  const fake = (config: unknown): Cockpit => ({ http: () => { throw new Error('unused'); }, file: () => { throw new Error('unused'); }, manifests: { 'zfs-advisor': { config } } });

  it('uses the manifest config, keeping only absolute paths', () => {
    expect(packageConfigOf(fake({ serverConf: '/srv/a.conf', tokenFile: 'relative/token' }))).toEqual({ serverConf: '/srv/a.conf', tokenFile: DEFAULT_PACKAGE_CONFIG.tokenFile });
    expect(packageConfigOf(fake(undefined))).toEqual(DEFAULT_PACKAGE_CONFIG);
    const manifest = JSON.parse(readFileSync(join(REPO, 'plugin', 'cockpit', 'manifest.json'), 'utf8')) as { config: unknown };
    expect(packageConfigOf(fake(manifest.config))).toEqual(DEFAULT_PACKAGE_CONFIG);
  });

  it('finds Cockpit only when cockpit.js defined it', () => {
    expect(cockpitOf({})).toBeNull();
    expect(cockpitOf({ cockpit: { http: 1 } })).toBeNull();
    const c = fake(undefined);
    expect(cockpitOf({ cockpit: c })).toBe(c);
  });

  it('maps Cockpit\'s style onto the page theme', () => {
    expect(themeFromCockpitStyle('dark')).toBe('dark');
    expect(themeFromCockpitStyle('light')).toBe('light');
    expect(themeFromCockpitStyle('auto')).toBe('system');
    expect(themeFromCockpitStyle(null)).toBe('system');
  });
});
