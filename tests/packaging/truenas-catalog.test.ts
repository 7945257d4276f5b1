/**
 * The catalog app (plugin/truenas/catalog/ix-dev/community/zfs-advisor) against our statement of
 * the truenas/apps catalog rules (catalog-rules.ts). Broken copies prove each rule bites.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { appYamlErrors, itemYamlErrors, ixValuesErrors, libraryErrors, questionsErrors, templateErrors, testValuesErrors, type AppsLibrary } from './catalog-rules.ts';
import { refusedHostPath } from './compose-checks.ts';

const APP_DIR = join(import.meta.dirname, '..', '..', 'plugin', 'truenas', 'catalog', 'ix-dev', 'community', 'zfs-advisor');
const read = (rel: string) => readFileSync(join(APP_DIR, rel), 'utf8');
const yaml = (rel: string): unknown => parse(read(rel));
const dir = { name: basename(APP_DIR), train: basename(dirname(APP_DIR)) };
const clone = <T>(x: T): T => structuredClone(x);
/** The catalog library's version, hash and API (truenas/apps @ 5a5f8aa8; tests/fixtures/platforms/PROVENANCE.md). */
const LIB = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'platforms', 'truenas-apps-library.json'), 'utf8')) as AppsLibrary;

describe('TrueNAS catalog app', () => {
  it('has the files the catalog requires', () => {
    // truenas/apps commits item.yaml with every app (apps_validation validate_app.py: "Item configuration (item.yaml) not found").
    for (const f of ['app.yaml', 'item.yaml', 'ix_values.yaml', 'questions.yaml', 'README.md', 'templates/docker-compose.yaml', 'templates/test_values/basic-values.yaml']) {
      expect(existsSync(join(APP_DIR, f)), f).toBe(true);
    }
    // The library copy (templates/library/base_v<lib_version>) is the catalog's own code: its
    // contributor script places it at submission (plugin/truenas/catalog/README.md); we do not commit it.
    expect(existsSync(join(APP_DIR, 'templates', 'library'))).toBe(false);
  });

  it('item.yaml follows the catalog\'s item schema; a broken one is refused', () => {
    expect(itemYamlErrors(yaml('item.yaml'), LIB)).toEqual([]);
    expect(itemYamlErrors({ tags: 'zfs', icon_url: 3 }, LIB).join('\n')).toMatch(/'categories' is a required property[\s\S]*tags must be a list[\s\S]*icon_url must be a string/);
  });

  it('is written for the library\'s current API: lib_version with its hash, c1.add_port, the permissions image', () => {
    expect(LIB.latest).toBe('2.3.11');
    expect(libraryErrors(yaml('app.yaml'), read('templates/docker-compose.yaml'), yaml('ix_values.yaml'), LIB)).toEqual([]);
    // What the catalog's validator refused in the previous entry, each one caught.
    const noLib = clone(yaml('app.yaml')) as Record<string, unknown>;
    delete noLib.lib_version;
    expect(libraryErrors(noLib, read('templates/docker-compose.yaml'), yaml('ix_values.yaml'), LIB).join('\n')).toMatch(/no lib_version/);
    const oldPorts = read('templates/docker-compose.yaml').replace(/c1\.add_port\([^)]*\}\)/, 'c1.ports.add_port(values.network.web_port, values.consts.internal_web_port)');
    expect(libraryErrors(yaml('app.yaml'), oldPorts, yaml('ix_values.yaml'), LIB).join('\n')).toMatch(/ports has no public add_port/);
    const noUtils = clone(yaml('ix_values.yaml')) as { images: Record<string, unknown> };
    delete noUtils.images.container_utils_image;
    expect(libraryErrors(yaml('app.yaml'), read('templates/docker-compose.yaml'), noUtils, LIB).join('\n')).toMatch(/needs images\.container_utils_image/);
    const badHash = { ...(yaml('app.yaml') as object), lib_version_hash: '0'.repeat(64) };
    expect(libraryErrors(badHash, read('templates/docker-compose.yaml'), yaml('ix_values.yaml'), LIB).join('\n')).toMatch(/not the hash/);
  });

  it('app.yaml follows the metadata schema; name and train match the directories', () => {
    expect(appYamlErrors(yaml('app.yaml'), dir)).toEqual([]);
  });

  it('app.yaml rules reject a wrong name, a non-semver version and lib_version without its hash', () => {
    const bad = clone(yaml('app.yaml')) as Record<string, unknown>;
    bad.name = 'other';
    bad.version = '1.0';
    delete bad.lib_version_hash;
    const errors = appYamlErrors(bad, dir).join('\n');
    expect(errors).toMatch(/not the directory name/);
    expect(errors).toMatch(/version/);
    expect(errors).toMatch(/lib_version_hash/);
    const missing = clone(yaml('app.yaml')) as Record<string, unknown>;
    delete missing.run_as_context;
    expect(appYamlErrors(missing, dir).join('\n')).toMatch(/run_as_context/);
  });

  it('ix_values.yaml has a pinned image and the consts the template uses', () => {
    expect(ixValuesErrors(yaml('ix_values.yaml'))).toEqual([]);
    expect(ixValuesErrors({ images: { main: { repository: 'x', tag: 'latest' } } }).join('\n')).toMatch(/end in "image"[\s\S]*latest/);
  });

  it('questions.yaml follows the questions schema', () => {
    expect(questionsErrors(yaml('questions.yaml'))).toEqual([]);
  });

  it('questions rules reject an undeclared group, a default outside its enum, bad enum items and unknown keys', () => {
    const q = clone(yaml('questions.yaml')) as { questions: Array<Record<string, unknown>> };
    q.questions[0]!.group = 'Nowhere';
    expect(questionsErrors(q).join('\n')).toMatch(/not declared/);
    const net = clone(yaml('questions.yaml')) as { questions: Array<{ variable: string; schema: { attrs: Array<{ variable: string; schema: { attrs: Array<{ variable: string; schema: Record<string, unknown> }> } }> } }> };
    const bindMode = net.questions.find((x) => x.variable === 'network')!.schema.attrs[0]!.schema.attrs[0]!;
    bindMode.schema.default = 'bridged';
    (bindMode.schema.enum as unknown[]).push({ value: 'x' });
    bindMode.schema.placeholder = 'x';
    const errors = questionsErrors(net).join('\n');
    expect(errors).toMatch(/not in enum/);
    expect(errors).toMatch(/exactly \{value, description\}/);
    expect(errors).toMatch(/"placeholder" is not allowed/);
  });

  it('the API key question is private and required; the benchmark path is a host path', () => {
    const q = yaml('questions.yaml') as { questions: Array<{ variable: string; schema: { attrs: Array<{ variable: string; schema: Record<string, unknown> }> } }> };
    const cfg = q.questions.find((x) => x.variable === 'zfs_advisor')!.schema.attrs;
    expect(cfg.find((a) => a.variable === 'truenas_api_key')!.schema).toMatchObject({ type: 'string', private: true, required: true });
    const storage = q.questions.find((x) => x.variable === 'storage')!.schema.attrs;
    expect(storage.map((s) => s.variable)).toEqual(['data', 'bench']);
  });

  it('the compose template is well-formed and only uses declared questions, consts and images', () => {
    expect(templateErrors(read('templates/docker-compose.yaml'), yaml('questions.yaml'), yaml('ix_values.yaml'))).toEqual([]);
    const broken = read('templates/docker-compose.yaml').replace('{% endif %}', '').replace('values.zfs_advisor.truenas_host', 'values.zfs_advisor.truenas_hostname');
    const errors = templateErrors(broken, yaml('questions.yaml'), yaml('ix_values.yaml')).join('\n');
    expect(errors).toMatch(/truenas_hostname is not a question/);
    expect(errors).toMatch(/unclosed|closes/);
  });

  it('the template reaches the host API, checks health with node (the image has no curl), and gates the privileged mode behind the question', () => {
    const t = read('templates/docker-compose.yaml');
    expect(t).toContain('add_extra_host("host.docker.internal", "host-gateway")');
    // The library's "curl"/"wget" test variants call programs the image does not have.
    expect(t).not.toMatch(/healthcheck\.set_test\(/);
    const health = /healthcheck\.set_custom_test\((\[[^\]]*\])\)/.exec(t);
    expect(health).not.toBeNull();
    expect(health![1]).toMatch(/^\["CMD", "node", "-e", "fetch\('http:\/\/127\.0\.0\.1:" ~ values\.consts\.internal_web_port ~ "\/api\/health'\)/);
    // The library refuses "$" in a CMD healthcheck (shell variables are not expanded there).
    expect(health![1]).not.toContain('$');
    const privileged = t.indexOf('set_privileged(true)');
    const gate = t.indexOf('{% if values.zfs_advisor.direct_disk_access %}');
    const end = t.indexOf('{% endif %}', gate);
    expect(gate).toBeGreaterThanOrEqual(0);
    expect(privileged).toBeGreaterThan(gate);
    expect(privileged).toBeLessThan(end);
  });

  it('passes the API key as a file (library configs), never as an environment variable', () => {
    const t = read('templates/docker-compose.yaml');
    expect(t).not.toMatch(/add_env\("TRUENAS_API_KEY"/);
    expect(t).toContain('c1.configs.add("truenas_api_key", values.zfs_advisor.truenas_api_key, values.consts.api_key_file)');
    expect(t).toContain('add_env("TRUENAS_API_KEY_FILE", values.consts.api_key_file)');
    expect((yaml('ix_values.yaml') as { consts: Record<string, unknown> }).consts.api_key_file).toBe('/run/secrets/truenas_api_key');
  });

  it('runs in container mode: benchmarks confined to the mounted benchmark dataset, no Demo host', () => {
    const t = read('templates/docker-compose.yaml');
    const consts = (yaml('ix_values.yaml') as { consts: Record<string, unknown> }).consts;
    expect(t).toContain('add_env("ZFS_ADVISOR_BENCH_DIR", values.consts.bench_path)');
    expect(t).toContain('c1.add_storage(values.consts.bench_path, values.storage.bench)');
    expect(consts.bench_path).toBe('/bench');
    expect(t).toContain('add_env("ZFS_ADVISOR_NO_DEMO", "1")');
  });

  it('names the project as maintainer, not TrueNAS', () => {
    const app = yaml('app.yaml') as { maintainers: Array<{ name: string; email: string; url?: string }>; home: string };
    for (const m of app.maintainers) {
      expect(m.email).not.toMatch(/truenas|ixsystems/i);
      expect(m.name).not.toMatch(/truenas|ixsystems/i);
    }
    expect(app.maintainers[0]!.url).toBe(app.home);
    // The project's address (plugin/release.env; release-coordinates.test.ts checks they agree).
    expect(app.maintainers[0]!.email).toMatch(/^[a-z0-9.-]+@users\.noreply\.github\.com$/);
  });

  it('every test values file answers the required questions and mounts only allowed paths', () => {
    const files = readdirSync(join(APP_DIR, 'templates', 'test_values'));
    expect(files).toContain('basic-values.yaml');
    for (const f of files) {
      const v = yaml(`templates/test_values/${f}`) as { storage: Record<string, { host_path_config?: { path: string } }> };
      expect(testValuesErrors(v, yaml('questions.yaml')), f).toEqual([]);
      for (const s of Object.values(v.storage)) if (s.host_path_config) {
        expect(s.host_path_config.path.startsWith('/opt/tests/'), f).toBe(true);
        expect(refusedHostPath(s.host_path_config.path)).toBeNull();
      }
    }
    const missing = testValuesErrors({ network: {} }, yaml('questions.yaml')).join('\n');
    expect(missing).toMatch(/zfs_advisor\.truenas_api_key is required/);
    expect(missing).toMatch(/storage\.bench\.host_path_config\.path is required/);
  });
});
