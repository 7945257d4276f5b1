/**
 * The release location, the image name, the maintainer and the icon are set in one place,
 * plugin/release.env; everything that names them (the TrueNAS catalog entry, the compose file,
 * the Debian package's build, the release workflow, the README) must agree with it, and no
 * placeholder may remain in what users install or read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const REPO = join(import.meta.dirname, '..', '..');
const read = (p: string) => readFileSync(join(REPO, p), 'utf8');
const CATALOG = 'plugin/truenas/catalog/ix-dev/community/zfs-advisor';

/** plugin/release.env: KEY=value lines, double quotes allowed (the file is also sourced by bash). */
function releaseEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of read('plugin/release.env').split('\n')) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line);
    if (m) out[m[1]!] = m[2]!.replace(/^"(.*)"$/, '$1');
  }
  return out;
}

const env = releaseEnv();
const version = (JSON.parse(read('package.json')) as { version: string }).version;

describe('release coordinates (plugin/release.env)', () => {
  it('defines every coordinate, each one consistent with the repository', () => {
    for (const k of ['ZFS_ADVISOR_REPO', 'ZFS_ADVISOR_HOMEPAGE', 'ZFS_ADVISOR_RELEASE_BASE', 'ZFS_ADVISOR_IMAGE', 'ZFS_ADVISOR_MAINTAINER', 'ZFS_ADVISOR_MAINTAINER_EMAIL', 'ZFS_ADVISOR_ICON_URL']) {
      expect(env[k], k).toBeTruthy();
    }
    const repo = env.ZFS_ADVISOR_REPO!;
    expect(env.ZFS_ADVISOR_HOMEPAGE).toBe(`https://github.com/${repo}`);
    expect(env.ZFS_ADVISOR_RELEASE_BASE).toBe(`https://github.com/${repo}/releases/download`);
    expect(env.ZFS_ADVISOR_IMAGE).toBe(`ghcr.io/${repo}`);
    expect(env.ZFS_ADVISOR_MAINTAINER).toBe(`ZFS Advisor maintainers <${env.ZFS_ADVISOR_MAINTAINER_EMAIL}>`);
    // The icon is a file in this repository, served from the default branch.
    const prefix = `https://raw.githubusercontent.com/${repo}/main/`;
    expect(env.ZFS_ADVISOR_ICON_URL!.startsWith(prefix)).toBe(true);
    const icon = env.ZFS_ADVISOR_ICON_URL!.slice(prefix.length);
    expect(existsSync(join(REPO, icon)), icon).toBe(true);
    const svg = read(icon);
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 128 128"/);
    expect(svg).not.toMatch(/<script|href="http|xlink:href/);
  });

  it('the TrueNAS catalog entry and the compose file name the same home, maintainer, icon and image', () => {
    const app = parse(read(`${CATALOG}/app.yaml`)) as { home: string; icon: string; changelog_url: string; sources: string[]; maintainers: { email: string; url: string }[]; app_version: string };
    expect(app.home).toBe(env.ZFS_ADVISOR_HOMEPAGE);
    expect(app.sources).toContain(env.ZFS_ADVISOR_HOMEPAGE);
    expect(app.changelog_url).toBe(`${env.ZFS_ADVISOR_HOMEPAGE}/releases`);
    expect(app.icon).toBe(env.ZFS_ADVISOR_ICON_URL);
    expect(app.maintainers.map((m) => m.email)).toEqual([env.ZFS_ADVISOR_MAINTAINER_EMAIL]);
    expect(app.app_version).toBe(version);
    const values = parse(read(`${CATALOG}/ix_values.yaml`)) as { images: { image: { repository: string; tag: string } } };
    expect(values.images.image).toEqual({ repository: env.ZFS_ADVISOR_IMAGE, tag: version });
    const compose = parse(read('plugin/truenas/compose/zfs-advisor.yaml')) as { services: Record<string, { image?: string }> };
    expect(compose.services['zfs-advisor']!.image).toBe(`${env.ZFS_ADVISOR_IMAGE}:${version}`);
  });

  it('the build and the release workflow read the coordinates from plugin/release.env', () => {
    const build = read('plugin/debian/build-deb.sh');
    expect(build).toContain('. "$REPO/plugin/release.env"');
    expect(build).toContain('RELEASE_URL=${ZFS_ADVISOR_RELEASE_URL:-$ZFS_ADVISOR_RELEASE_BASE/v$APP_VERSION}');
    expect(build).toContain('MAINTAINER=${DEB_MAINTAINER:-$ZFS_ADVISOR_MAINTAINER}');
    const wf = parse(read('.github/workflows/release.yml')) as { on: { push: { tags: string[] } }; jobs: Record<string, { steps: { run?: string; with?: Record<string, string> }[] }> };
    expect(wf.on.push.tags).toEqual(['v*']);
    const runs = Object.values(wf.jobs).flatMap((j) => j.steps.map((s) => s.run ?? '')).join('\n');
    expect(runs).toContain('. plugin/release.env');
    expect(runs).toContain('plugin/debian/build-deb.sh --out dist');
    expect(runs).toContain('buildah bud');
    expect(runs).toContain('-f plugin/docker/Dockerfile');
    expect(runs).toContain('buildah push');
    expect(runs).toMatch(/gh release create[\s\S]*dist\/\*\.deb dist\/\*\.deb\.sha256 dist\/install\.sh dist\/install\.sh\.sha256/);
    // The README's install commands use the same location.
    expect(read('README.md')).toContain(`${env.ZFS_ADVISOR_RELEASE_BASE}/v${version}/install.sh`);
  });

  it('no placeholder is left in what users install or read', () => {
    const files = ['README.md', 'plugin/install.sh', 'plugin/debian/build-deb.sh', 'plugin/debian/control.in', 'plugin/debian/README.Debian',
      `${CATALOG}/app.yaml`, `${CATALOG}/README.md`, `${CATALOG}/ix_values.yaml`, 'plugin/truenas/compose/zfs-advisor.yaml', 'plugin/truenas/compose/README.md',
      'plugin/docker/Dockerfile', 'plugin/cockpit/manifest.json', '.github/workflows/release.yml'];
    for (const f of files) {
      const text = read(f);
      for (const bad of [/<release-url>/i, /FILL-IN/, /\.invalid\b/, /PLACEHOLDER/, /a-seed-[0-9a-f]/, /noreply\.[a-z0-9.-]*\.example/, /TODO|FIXME/]) {
        expect(text, `${f} contains ${bad}`).not.toMatch(bad);
      }
    }
  });
});
