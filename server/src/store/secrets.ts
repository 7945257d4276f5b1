/**
 * Remote hosts' credentials, kept OUT of the database: a JSON file `secrets.json` in the data
 * directory, mode 0600, written atomically (temp file created 0600, then renamed). A copy of the
 * database, a snapshot or a report therefore cannot carry a secret; the API only ever says
 * whether one is stored (`hasSecret`).
 *
 * Nothing here logs or returns a secret except `get()`, which only the remote clients call.
 */
import { chmodSync, closeSync, existsSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';

export const SECRETS_FILE_NAME = 'secrets.json';

/**
 * The endpoint a secret was entered for: it is only ever sent there (remote/secret-target.ts).
 * Files written before this was recorded have none; see secretTargetMatches for how those are read.
 */
export const SecretTarget = z.object({
  address: z.string().nullable(),
  port: z.number().int().nullable(),
  verifyTls: z.boolean(),
  pinnedFingerprint: z.string().nullable(),
});
export type SecretTarget = z.infer<typeof SecretTarget>;

export const HostSecret = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('truenas'), username: z.string(), apiKey: z.string(), target: SecretTarget.optional() }),
  z.object({ kind: z.literal('proxmox'), tokenId: z.string(), tokenSecret: z.string(), target: SecretTarget.optional() }),
]);
export type HostSecret = z.infer<typeof HostSecret>;

const SecretsFile = z.object({ version: z.literal(1), hosts: z.record(z.string(), HostSecret) });
type SecretsFile = z.infer<typeof SecretsFile>;

export interface SecretStore {
  get(hostId: string): HostSecret | null;
  set(hostId: string, secret: HostSecret): void;
  delete(hostId: string): void;
  /** Every stored secret value (for tests/log scrubbing: what must never appear anywhere). */
  values(): string[];
  file: string;
}

export class SecretsFileError extends Error {}

export function openSecretStore(dataDir: string): SecretStore {
  const file = join(dataDir, SECRETS_FILE_NAME);

  const read = (): SecretsFile => {
    if (!existsSync(file)) return { version: 1, hosts: {} };
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // Never echo the content: it is secret.
      throw new SecretsFileError(`the secrets file ${file} is not valid JSON; it was left untouched`);
    }
    const r = SecretsFile.safeParse(parsed);
    if (!r.success) throw new SecretsFileError(`the secrets file ${file} has an unexpected shape; it was left untouched`);
    return r.data;
  };

  const write = (data: SecretsFile): void => {
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, JSON.stringify(data));
    } finally {
      closeSync(fd);
    }
    try {
      renameSync(tmp, file);
    } catch (err) {
      try { unlinkSync(tmp); } catch { /* ignore */ }
      throw err;
    }
    chmodSync(file, 0o600);
  };

  return {
    file,
    get: (hostId) => read().hosts[hostId] ?? null,
    set: (hostId, secret) => {
      const data = read();
      data.hosts[hostId] = HostSecret.parse(secret);
      write(data);
    },
    delete: (hostId) => {
      const data = read();
      if (!(hostId in data.hosts)) return;
      delete data.hosts[hostId];
      write(data);
    },
    values: () =>
      Object.values(read().hosts).flatMap((s) => (s.kind === 'truenas' ? [s.apiKey] : [s.tokenSecret, `${s.tokenId}=${s.tokenSecret}`])),
  };
}
