/**
 * Proxmox VE's identifier rules as its own parsers apply them (issue 36 §3): API token ids
 * (pve-access-control) and storage ids (pve-common `parse_id`, the format of the pool name in
 * /disks/zfs/{name}). The cases are tests/fixtures/platforms/pve-ids.json, written from the source
 * at the commits it names and checked there with Perl; the server schema and the Hosts form use the
 * same functions.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPveStorageId, parsePveTokenId } from '../../server/src/remote/pve-ids.ts';
import { HostCreate } from '../../server/src/api/schemas.ts';
import { emptyForm, hostCreateBody } from '../../ui/src/hosts/host-form.ts';

const F = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'platforms', 'pve-ids.json'), 'utf8')) as {
  tokenIds: { accepted: { id: string; user: string; realm: string; token: string }[]; refused: string[] };
  storageIds: { accepted: string[]; refused: string[] };
};

describe('Proxmox VE token ids', () => {
  it.each(F.tokenIds.accepted)('$id splits as PVE splits it', (t) => {
    expect(parsePveTokenId(t.id)).toEqual({ userid: `${t.user}@${t.realm}`, user: t.user, realm: t.realm, tokenName: t.token });
  });
  it.each(F.tokenIds.refused)('%s is refused', (id) => { expect(parsePveTokenId(id)).toBeNull(); });

  it('the server\'s request schema and the Hosts form accept and refuse the same', () => {
    const body = (tokenId: string) => ({ kind: 'proxmox', name: 'pve', address: 'pve.example', node: 'pve1', tokenId, tokenSecret: 'f0e1d2c3-b4a5-4697-8899-aabbccddeeff' });
    for (const t of F.tokenIds.accepted) {
      expect(HostCreate.safeParse(body(t.id)).success, t.id).toBe(true);
      expect(hostCreateBody({ ...emptyForm('proxmox'), address: 'pve.example', node: 'pve1', tokenId: t.id, tokenSecret: 's' }).ok, t.id).toBe(true);
    }
    for (const id of F.tokenIds.refused) {
      expect(HostCreate.safeParse(body(id)).success, id).toBe(false);
      expect(hostCreateBody({ ...emptyForm('proxmox'), address: 'pve.example', node: 'pve1', tokenId: id, tokenSecret: 's' }), id).toMatchObject({ ok: false, invalid: expect.stringContaining('john.doe@corp.example@ad!reader') });
    }
  });
});

describe('Proxmox VE storage ids (the pool name in /disks/zfs/{name})', () => {
  it.each(F.storageIds.accepted)('%s is one', (id) => { expect(isPveStorageId(id)).toBe(true); });
  it.each(F.storageIds.refused)('%s is not', (id) => { expect(isPveStorageId(id)).toBe(false); });
});
