/**
 * Dockerfile lint: hadolint is not packaged for Debian, so these are our own rules, in the spirit
 * of hadolint's DL3006/DL3007 (pinned base, no `latest`), DL3020 (no ADD of URLs), DL3002 (not
 * root at the end), plus a HEALTHCHECK on /api/health and a multi-stage build. No Docker daemon is
 * used; building the image is left to the release pipeline.
 */
import { SHIPPED_NODE_VERSION } from './support/node-runtime.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const REPO = join(import.meta.dirname, '..', '..');
const DOCKER_DIR = join(REPO, 'plugin', 'docker');
const DOCKERFILE = join(DOCKER_DIR, 'Dockerfile');

interface Instruction { op: string; args: string; line: number }

/** Instructions with continuation lines joined and comments dropped. */
export function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let buf = '';
  let start = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (buf === '' && (line === '' || line.startsWith('#'))) return;
    if (buf === '') start = i + 1;
    if (line.startsWith('#')) return;
    buf += (buf ? ' ' : '') + line.replace(/\\$/, '').trim();
    if (!line.endsWith('\\')) {
      const m = /^(\w+)\s+([\s\S]*)$/.exec(buf);
      if (m) out.push({ op: m[1]!.toUpperCase(), args: m[2]!, line: start });
      buf = '';
    }
  });
  return out;
}

export function dockerfileProblems(text: string): string[] {
  const ins = instructions(text);
  const problems: string[] = [];
  const args = new Map<string, string>();
  for (const a of ins.filter((x) => x.op === 'ARG')) {
    const m = /^(\w+)=(\S+)$/.exec(a.args);
    if (m) args.set(m[1]!, m[2]!);
  }
  const stages = new Set<string>();
  const froms = ins.filter((x) => x.op === 'FROM');
  if (froms.length < 2) problems.push('not a multi-stage build');
  for (const f of froms) {
    const [imageRef, , alias] = f.args.split(/\s+/);
    const image = (imageRef ?? '').replace(/^\$\{(\w+)\}$/, (_, n: string) => args.get(n) ?? '');
    // `scratch` is the empty image, not a base to pin.
    if (!stages.has(image) && image !== 'scratch') {
      const tag = image.includes('@') ? 'digest' : image.split(':')[1];
      if (!tag) problems.push(`line ${f.line}: base image ${imageRef} has no tag`);
      else if (tag === 'latest') problems.push(`line ${f.line}: base image uses latest`);
      // An exact version: x.y.z, or a Debian point release (12.11-slim).
      else if (tag !== 'digest' && !/\d+\.\d+\.\d+/.test(tag) && !(image.startsWith('debian:') && /^\d+\.\d+(-slim)?$/.test(tag))) problems.push(`line ${f.line}: base image tag ${tag} is not an exact version`);
    }
    if (alias) stages.add(alias);
  }
  for (const a of ins.filter((x) => x.op === 'ADD')) if (/https?:\/\//.test(a.args)) problems.push(`line ${a.line}: ADD of a URL (use curl + checksum in RUN)`);
  const lastFrom = ins.lastIndexOf(froms[froms.length - 1]!);
  const finalStage = ins.slice(lastFrom);
  const user = finalStage.filter((x) => x.op === 'USER').pop();
  if (!user) problems.push('the final stage has no USER (runs as root)');
  else if (/^(root|0)(:|$)/.test(user.args)) problems.push('the final stage runs as root');
  const health = finalStage.find((x) => x.op === 'HEALTHCHECK');
  if (!health) problems.push('no HEALTHCHECK in the final stage');
  else if (!health.args.includes('/api/health')) problems.push('HEALTHCHECK does not query /api/health');
  if (health) {
    // A probe program missing from the image keeps the container "unhealthy" forever. The
    // node: base images ship node, not curl or wget.
    // Installed in the final stage, or in a stage whose files it copies (a FROM scratch image).
    const copiedFrom = new Set(finalStage.filter((x) => x.op === 'COPY').map((x) => /--from=(\S+)/.exec(x.args)?.[1]).filter(Boolean));
    const stageOf = (i: number) => froms.filter((f) => ins.indexOf(f) <= i).pop()!.args.split(/\s+/)[2];
    const installed = ins.filter((x, i) => x.op === 'RUN' && /apt-get install/.test(x.args) && (i > lastFrom || copiedFrom.has(stageOf(i)))).map((x) => x.args).join(' ');
    for (const tool of ['curl', 'wget']) {
      if (new RegExp(`["\\s]${tool}["\\s]`).test(` ${health.args} `) && !new RegExp(`\\b${tool}\\b`).test(installed)) problems.push(`HEALTHCHECK calls ${tool}, which the final stage does not install`);
    }
  }
  for (const r of ins.filter((x) => x.op === 'RUN' && /apt-get install/.test(x.args))) {
    if (!/--no-install-recommends/.test(r.args)) problems.push(`line ${r.line}: apt-get install without --no-install-recommends`);
    if (!/rm -rf \/var\/lib\/apt\/lists/.test(r.args)) problems.push(`line ${r.line}: apt lists not removed in the same layer`);
  }
  if (ins.some((x) => x.op === 'RUN' && /\bsudo\b/.test(x.args))) problems.push('sudo in RUN');
  return problems;
}

describe('Dockerfile (own lint rules; hadolint is not in Debian)', () => {
  const text = readFileSync(DOCKERFILE, 'utf8');

  it('passes: multi-stage, pinned base, non-root USER, HEALTHCHECK on /api/health, no ADD of URLs', () => {
    expect(dockerfileProblems(text)).toEqual([]);
  });

  it('builds on the Node of plugin/release.env (one setting for the shipped runtime)', () => {
    const arg = /^ARG NODE_IMAGE=node:(\S+)-bookworm-slim$/m.exec(text);
    expect(arg?.[1]).toBe(SHIPPED_NODE_VERSION);
    // An LTS line in support (20 ended in April 2026; see release.env for why not 24 yet).
    expect(Number(SHIPPED_NODE_VERSION.split('.')[0])).toBeGreaterThanOrEqual(22);
  });

  it('runs as uid 568 and starts through tini and the entrypoint', () => {
    const ins = instructions(text);
    expect(ins.filter((i) => i.op === 'USER').pop()?.args).toBe('568:568');
    expect(ins.find((i) => i.op === 'ENTRYPOINT')?.args).toContain('/usr/bin/tini');
  });

  it('runs the bundled server in container mode (benchmarks confined to /bench, no Demo host)', () => {
    const ins = instructions(text);
    const froms = ins.filter((i) => i.op === 'FROM');
    const buildStage = ins.slice(ins.indexOf(froms[0]!), ins.indexOf(froms[1]!));
    const runtime = ins.slice(ins.indexOf(froms[froms.length - 1]!));
    // The bundle keeps each module's source path (scripts/build-server.mjs): same WORKDIR in both stages.
    expect(buildStage.find((i) => i.op === 'WORKDIR')?.args).toBe('/app');
    expect(runtime.find((i) => i.op === 'WORKDIR')?.args).toBe('/app');
    const build = buildStage.filter((i) => i.op === 'RUN').map((i) => i.args).join('\n');
    expect(build.indexOf('npm run build:server')).toBeGreaterThanOrEqual(0);
    expect(build.indexOf('npm run build:server')).toBeLessThan(build.indexOf('npm prune'));
    expect(runtime.some((i) => i.op === 'COPY' && i.args === '--from=build /app/dist ./dist')).toBe(true);
    const env = runtime.filter((i) => i.op === 'ENV').map((i) => i.args).join(' ');
    expect(env).toMatch(/\bZFS_ADVISOR_BENCH_DIR=\/bench\b/);
    expect(env).toMatch(/\bZFS_ADVISOR_NO_DEMO=1\b/);
    const entrypoint = readFileSync(join(DOCKER_DIR, 'entrypoint.sh'), 'utf8');
    expect(entrypoint).toMatch(/^exec node \/app\/dist\/server\.mjs "\$@"$/m);
    expect(entrypoint).not.toMatch(/^exec .*zfs-advisor\.js/m);
    // The build context must carry the bundler script.
    expect(readFileSync(join(DOCKER_DIR, 'Dockerfile.dockerignore'), 'utf8')).toMatch(/^!scripts\/build-server\.mjs$/m);
  });

  it('the image, the compose file and the catalog check health the same way: node fetch of /api/health', () => {
    const health = instructions(text).find((i) => i.op === 'HEALTHCHECK')!.args;
    const compose = parse(readFileSync(join(REPO, 'plugin', 'truenas', 'compose', 'zfs-advisor.yaml'), 'utf8')) as { services: Record<string, { healthcheck: { test: string[] } }> };
    const catalog = readFileSync(join(REPO, 'plugin', 'truenas', 'catalog', 'ix-dev', 'community', 'zfs-advisor', 'templates', 'docker-compose.yaml'), 'utf8');
    const probes = [health, compose.services['zfs-advisor']!.healthcheck.test.join(' '), /set_custom_test\((.*)\)/.exec(catalog)?.[1] ?? ''];
    for (const p of probes) {
      expect(p).toMatch(/"?node"?,? "?-e"?/);
      expect(p).toMatch(/fetch\('http:\/\/127\.0\.0\.1:/);
      expect(p).toContain('/api/health');
      expect(p).toContain('process.exit(r.ok?0:1),()=>process.exit(1)');
      expect(p).not.toMatch(/\b(curl|wget)\b/);
    }
  });

  it('each rule fires on a broken Dockerfile', () => {
    const broken = text
      .replace(/ARG NODE_IMAGE=\S+/, 'ARG NODE_IMAGE=node:latest')
      .replace(/^USER .*$/m, 'USER root')
      .replace(/^HEALTHCHECK[\s\S]*?\n(?=ENTRYPOINT)/m, '')
      .concat('\nADD https://example.org/tool.tar.gz /tmp/\n');
    const problems = dockerfileProblems(broken).join('\n');
    expect(problems).toMatch(/latest/);
    expect(problems).toMatch(/runs as root/);
    expect(problems).toMatch(/no HEALTHCHECK/);
    expect(problems).toMatch(/ADD of a URL/);
    const curlProbe = text.replace(/^(\s*)CMD \["node", "-e", .*$/m, '$1CMD ["curl", "-f", "http://127.0.0.1:8077/api/health"]');
    expect(curlProbe).not.toBe(text);
    expect(dockerfileProblems(curlProbe).join('\n')).toMatch(/HEALTHCHECK calls curl, which the final stage does not install/);
    expect(dockerfileProblems(curlProbe.replace('fio smartmontools', 'curl fio smartmontools'))).toEqual([]);
    expect(dockerfileProblems('FROM debian:12\nRUN apt-get install -y fio\n').join('\n')).toMatch(/multi-stage[\s\S]*not an exact version[\s\S]*no USER[\s\S]*no-install-recommends[\s\S]*apt lists/);
  });
});
