/**
 * The Hosts page's form as data: which fields each kind of host asks for, and the request body
 * (the contract's HostCreate) built from what was typed. The server checks every value again.
 */
import type { BodyOf } from '../../../server/src/api/contract.ts';
import { parsePveTokenId, PVE_TOKEN_ID_HINT } from '../../../server/src/remote/pve-ids.ts';

type HostCreate = BodyOf<'createHost'>;

export type AddableKind = HostCreate['kind'];

export interface HostFormFields {
  kind: AddableKind;
  name: string;
  address: string;
  port: string;
  username: string;
  apiKey: string;
  node: string;
  tokenId: string;
  tokenSecret: string;
  pinnedFingerprint: string;
}

export const KIND_LABELS: Record<AddableKind, string> = {
  local: 'This machine',
  truenas: 'TrueNAS (API key)',
  proxmox: 'Proxmox VE (API token)',
  demo: 'Demo system',
};

export const DEFAULT_NAMES: Record<AddableKind, string> = { local: 'This machine', truenas: 'TrueNAS', proxmox: 'Proxmox VE', demo: 'Demo' };

export function emptyForm(kind: AddableKind = 'local'): HostFormFields {
  return { kind, name: DEFAULT_NAMES[kind], address: '', port: '', username: '', apiKey: '', node: '', tokenId: '', tokenSecret: '', pinnedFingerprint: '' };
}

/** The request body, or the first field that is missing (named as on the form), or one Proxmox VE would refuse. */
export function hostCreateBody(f: HostFormFields): { ok: true; body: HostCreate } | { ok: false; missing: string } | { ok: false; invalid: string } {
  const name = f.name.trim() || DEFAULT_NAMES[f.kind];
  if (f.kind === 'local' || f.kind === 'demo') return { ok: true, body: { kind: f.kind, name } };
  const need = (label: string, v: string) => (v.trim() === '' ? label : null);
  const port = f.port.trim() === '' ? undefined : Number(f.port);
  const tls = f.pinnedFingerprint.trim() ? { pinnedFingerprint: f.pinnedFingerprint.trim(), verifyTls: false } : { verifyTls: true };
  if (f.kind === 'truenas') {
    const missing = need('Address', f.address) ?? need('User', f.username) ?? need('API key', f.apiKey);
    if (missing) return { ok: false, missing };
    return { ok: true, body: { kind: 'truenas', name, address: f.address.trim(), ...(port !== undefined ? { port } : {}), username: f.username.trim(), apiKey: f.apiKey.trim(), ...tls } };
  }
  const missing = need('Address', f.address) ?? need('Node', f.node) ?? need('Token ID', f.tokenId) ?? need('Token secret', f.tokenSecret);
  if (missing) return { ok: false, missing };
  // The same rule as Proxmox VE's (pve-access-control): the user part may itself hold @ (AD/LDAP realms).
  if (!parsePveTokenId(f.tokenId.trim())) return { ok: false, invalid: `Token ID is not one Proxmox VE accepts: ${PVE_TOKEN_ID_HINT}.` };
  return { ok: true, body: { kind: 'proxmox', name, address: f.address.trim(), ...(port !== undefined ? { port } : {}), node: f.node.trim(), tokenId: f.tokenId.trim(), tokenSecret: f.tokenSecret.trim(), ...tls } };
}
