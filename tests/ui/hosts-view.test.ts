// @vitest-environment happy-dom
/**
 * The Hosts page adds and removes hosts through the API (createHost/deleteHost), with the fields
 * each kind needs; secrets go into the request and nowhere else on the page.
 */
import { describe, expect, it, vi } from 'vitest';
import { flushPromises, mount } from '@vue/test-utils';
import HostsView from '../../ui/src/hosts/HostsView.vue';
import { createSession, SessionKey } from '../../ui/src/state/session.ts';
import { hostCreateBody, emptyForm } from '../../ui/src/hosts/host-form.ts';
import type { ApiClient } from '../../ui/src/api/client.ts';

interface Host { id: string; kind: string; name: string; address: string | null; port: number | null }

function fakeApi(hosts: Host[]) {
  const calls: { id: string; body?: unknown; params?: unknown }[] = [];
  const view = (h: Host) => ({ ...h, node: null, verifyTls: true, pinnedFingerprint: null, hasSecret: h.kind === 'truenas', createdAt: 't', updatedAt: 't', lastAssessment: null });
  const api = {
    call: vi.fn(async (id: string, opts?: { body?: Record<string, unknown>; params?: { hostId: string } }) => {
      calls.push({ id, body: opts?.body, params: opts?.params });
      if (id === 'info') return { ok: true, value: { version: 'x', demo: false } };
      if (id === 'listHosts') return { ok: true, value: hosts.map(view) };
      if (id === 'createHost') {
        const b = opts!.body!;
        const h: Host = { id: String(b.name).toLowerCase(), kind: String(b.kind), name: String(b.name), address: (b.address as string) ?? null, port: null };
        hosts.push(h);
        return { ok: true, value: view(h) };
      }
      if (id === 'deleteHost') {
        hosts.splice(hosts.findIndex((h) => h.id === opts!.params!.hostId), 1);
        return { ok: true, value: null };
      }
      return { ok: false, status: 404, code: 'not-found', message: 'no' };
    }),
  } as unknown as ApiClient;
  return { api, calls };
}

describe('Hosts page', () => {
  it('adds a TrueNAS host with its API key and removes the demo', async () => {
    const { api, calls } = fakeApi([{ id: 'local', kind: 'local', name: 'This machine', address: null, port: null }, { id: 'demo', kind: 'demo', name: 'Demo', address: null, port: null }]);
    const session = createSession(api, null);
    await session.load();
    const w = mount(HostsView, { global: { provide: { [SessionKey as symbol]: session } } });
    expect(w.findAll('tbody tr').map((r) => r.find('th').text())).toEqual(['This machine', 'Demo']);
    // "This machine" exists already: it cannot be added twice.
    expect(w.find('input[value="local"]').attributes('disabled')).toBeDefined();

    await w.find('input[value="truenas"]').setValue(true);
    await w.find('[data-testid="host-name"]').setValue('NAS');
    await w.find('[data-testid="add-host"]').trigger('submit');
    expect(w.text()).toContain('Address is needed');
    await w.find('[data-testid="host-address"]').setValue('nas.example.lan');
    const inputs = w.findAll('input');
    await inputs.find((i) => i.attributes('placeholder') === 'advisor')!.setValue('advisor');
    await inputs.find((i) => i.attributes('type') === 'password')!.setValue('1-secretkey');
    await w.find('[data-testid="add-host"]').trigger('submit');
    await flushPromises();
    expect(calls.find((c) => c.id === 'createHost')!.body).toEqual({ kind: 'truenas', name: 'NAS', address: 'nas.example.lan', username: 'advisor', apiKey: '1-secretkey', verifyTls: true });
    expect(w.findAll('tbody tr').map((r) => r.find('th').text())).toEqual(['This machine', 'Demo', 'NAS']);
    expect(session.hostId.value).toBe('nas');
    expect(w.html()).not.toContain('1-secretkey');

    await w.find('[data-testid="remove-demo"]').trigger('click');
    expect(calls.some((c) => c.id === 'deleteHost')).toBe(false);
    expect(w.find('[data-testid="remove-demo"]').text()).toBe('Remove with its history');
    await w.find('[data-testid="remove-demo"]').trigger('click');
    await flushPromises();
    expect(calls.find((c) => c.id === 'deleteHost')!.params).toEqual({ hostId: 'demo' });
    expect(w.findAll('tbody tr').map((r) => r.find('th').text())).toEqual(['This machine', 'NAS']);
  });

  it('builds each kind\'s request body, naming the first missing field', () => {
    expect(hostCreateBody({ ...emptyForm('local'), name: ' ' })).toEqual({ ok: true, body: { kind: 'local', name: 'This machine' } });
    expect(hostCreateBody({ ...emptyForm('proxmox'), address: 'pve', node: 'pve' })).toEqual({ ok: false, missing: 'Token ID' });
    expect(hostCreateBody({ ...emptyForm('proxmox'), address: 'pve', port: '8006', node: 'pve', tokenId: 'a@pve!tk', tokenSecret: 's', pinnedFingerprint: 'AB:CD' })).toEqual({
      ok: true, body: { kind: 'proxmox', name: 'Proxmox VE', address: 'pve', port: 8006, node: 'pve', tokenId: 'a@pve!tk', tokenSecret: 's', pinnedFingerprint: 'AB:CD', verifyTls: false },
    });
  });
});
