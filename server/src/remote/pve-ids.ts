/**
 * Proxmox VE's own rules for the identifiers we send it (issue 36 §3), written from its source:
 *
 * - API token ids (pve-access-control 5ccd07d9 `src/PVE/AccessControl.pm` `$token_full_regex`,
 *   `pve_verify_tokenid`, `split_tokenid`; `src/PVE/Auth/Plugin.pm` `$user_regex`, `$realm_regex`):
 *   `USER@REALM!TOKENNAME` with USER `[^\s:/]+` (it may itself hold `@`: the realm is what follows the
 *   last `@` that leaves a valid realm and token, e.g. `john.doe@corp.example@ad!reader`), REALM and
 *   TOKENNAME `[A-Za-z][A-Za-z0-9.\-_]+` (a letter, then at least one more).
 * - Storage ids, the format of `{name}` in GET /nodes/{node}/disks/zfs/{name} (pve-storage 0c56bad8
 *   `src/PVE/API2/Disks/ZFS.pm`: `get_standard_option('pve-storage-id')`; pve-common f665029e
 *   `src/PVE/JSONSchema.pm` `parse_id`): at least 2 characters, `^[a-z][a-z0-9\-_.]*[a-z0-9]$` without
 *   regard to case. A pool named otherwise (`a`, `tank:2`, `my pool`) gets HTTP 400 there.
 * Pure; the server's request schemas and the Hosts form use the same functions.
 */

const USER = String.raw`[^\s:/]+`;
const REALM = String.raw`[A-Za-z][A-Za-z0-9.\-_]+`;
const TOKEN_FULL = new RegExp(`^((${USER})@(${REALM}))!(${REALM})$`);

export interface PveTokenId { userid: string; user: string; realm: string; tokenName: string }

/** The token id as PVE splits it, or null when PVE would refuse it ("does not look like a valid token ID"). */
export function parsePveTokenId(tokenId: string): PveTokenId | null {
  const m = TOKEN_FULL.exec(tokenId);
  return m ? { userid: m[1]!, user: m[2]!, realm: m[3]!, tokenName: m[4]! } : null;
}

export const PVE_TOKEN_ID_HINT = 'USER@REALM!TOKENNAME, e.g. advisor@pve!zfs or john.doe@corp.example@ad!reader (realm and token name start with a letter and have at least 2 characters)';

/** Whether PVE accepts `id` where its API wants a `pve-storage-id` (e.g. a pool in /disks/zfs/{name}). */
export function isPveStorageId(id: string): boolean {
  return id.length >= 2 && /^[a-z][a-z0-9\-_.]*[a-z0-9]$/i.test(id);
}
