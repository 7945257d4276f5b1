// Registers the TrueNAS system this container runs on as a host of the advisor, from the
// container's environment (the API key preferably as a compose secret file), once the server
// answers /api/health. Idempotent: a host with the same name is updated, not duplicated, so
// a changed key in the app's settings takes effect on the next start.
//
// Environment: TRUENAS_API_KEY_FILE (or TRUENAS_API_KEY), TRUENAS_USERNAME (the read-only
// admin owning the key), TRUENAS_HOST (default host.docker.internal), TRUENAS_PORT (443),
// TRUENAS_TLS_FINGERPRINT (SHA-256 of TrueNAS's self-signed certificate to pin; without it the
// certificate chain must verify), TRUENAS_HOST_NAME (shown in the UI), ZFS_ADVISOR_PORT,
// ZFS_ADVISOR_BASE_PATH, ZFS_ADVISOR_DATA_DIR (where the server keeps its API token).
// Exit code 0 when registered, 1 with one line on stderr otherwise. Plain Node, no packages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const env = process.env;
const say = (line) => process.stderr.write(`register-truenas-host: ${line}\n`);

function settings() {
  const keyFile = env.TRUENAS_API_KEY_FILE;
  let apiKey = env.TRUENAS_API_KEY ?? '';
  if (keyFile) {
    try { apiKey = readFileSync(keyFile, 'utf8'); } catch (err) { return { error: `cannot read TRUENAS_API_KEY_FILE ${keyFile}: ${err.code ?? err.message}` }; }
  }
  apiKey = apiKey.trim();
  const username = (env.TRUENAS_USERNAME ?? '').trim();
  if (!apiKey) return { error: 'no API key (TRUENAS_API_KEY_FILE or TRUENAS_API_KEY)' };
  if (!username) return { error: 'TRUENAS_USERNAME is empty: TrueNAS API keys belong to a user, give that user name' };
  const pin = (env.TRUENAS_TLS_FINGERPRINT ?? '').trim();
  const port = env.TRUENAS_PORT ? Number(env.TRUENAS_PORT) : undefined;
  return {
    name: (env.TRUENAS_HOST_NAME ?? '').trim() || 'TrueNAS (this system)',
    address: (env.TRUENAS_HOST ?? '').trim() || 'host.docker.internal',
    port,
    username,
    apiKey,
    verifyTls: pin === '',
    pinnedFingerprint: pin === '' ? null : pin,
  };
}

function apiBase() {
  const port = env.ZFS_ADVISOR_PORT || '8077';
  const base = (env.ZFS_ADVISOR_BASE_PATH ?? '').replace(/\/+$/, '');
  return `http://127.0.0.1:${port}${base}/api`;
}

function readToken() {
  try { return readFileSync(join(env.ZFS_ADVISOR_DATA_DIR || '/data', 'api-token'), 'utf8').trim(); } catch { return null; }
}

async function waitForHealth(api, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    try {
      const r = await fetch(`${api}/health`);
      if (r.ok) return true;
    } catch { /* not listening yet */ }
    await sleep(1000);
  }
  return false;
}

async function main() {
  const s = settings();
  if (s.error) { say(s.error); return 1; }
  const api = apiBase();
  const timeoutMs = Number(env.REGISTER_TIMEOUT_MS || 120_000);
  if (!(await waitForHealth(api, timeoutMs))) { say(`the server did not answer ${api}/health within ${timeoutMs / 1000} s`); return 1; }
  const token = readToken();
  const headers = { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const list = await fetch(`${api}/hosts`, { headers });
  if (!list.ok) { say(`GET /api/hosts answered ${list.status}`); return 1; }
  const hosts = await list.json();
  const existing = hosts.find((h) => h.kind === 'truenas' && h.name === s.name);
  const fields = { address: s.address, username: s.username, apiKey: s.apiKey, verifyTls: s.verifyTls, pinnedFingerprint: s.pinnedFingerprint, ...(s.port ? { port: s.port } : {}) };
  const r = existing
    ? await fetch(`${api}/hosts/${encodeURIComponent(existing.id)}`, { method: 'PATCH', headers, body: JSON.stringify(fields) })
    : await fetch(`${api}/hosts`, { method: 'POST', headers, body: JSON.stringify({ kind: 'truenas', name: s.name, ...fields, ...(fields.pinnedFingerprint === null ? { pinnedFingerprint: undefined } : {}) }) });
  if (!r.ok) {
    const body = await r.text();
    say(`${existing ? 'updating' : 'adding'} the TrueNAS host failed: HTTP ${r.status} ${body.slice(0, 300)}`);
    return 1;
  }
  const host = await r.json();
  say(`${existing ? 'updated' : 'added'} TrueNAS host "${host.name}" (${s.address}) as ${host.id}`);
  return 0;
}

process.exitCode = await main();
