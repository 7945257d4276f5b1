/**
 * `zfs-advisor capture DIR [--redact] [--redact-pools] [--json]`: runs the collectors on this host and
 * writes the raw outputs + meta.json (README "Snapshot format"). `inventory --snapshot DIR` then
 * gives the same inventory anywhere.
 */
import { EXIT, type Handler } from '../command.ts';
import type { options } from '../defs/capture.ts';
import { requireZfs } from '../framework/zfs-probe.ts';
import { collectLocal } from '../../gather/collect-local.ts';
import { buildInventory } from '../../gather/build.ts';
import { redactSnapshot } from '../../redact/snapshot.ts';
import { writeSnapshot } from '../../snapshot/directory.ts';
import { APP_VERSION } from '../../version.ts';

export const run: Handler<typeof options> = async ({ values: o, positionals }, io) => {
  const dir = positionals[0]!;
  await requireZfs('capture', 'capture on the ZFS host itself');
  const redact = Boolean(o.redact || o['redact-pools']);
  let raw = await collectLocal();
  const inv = buildInventory(raw, { kind: 'local', label: 'capture', capturedAt: new Date().toISOString(), demo: false, redacted: false });
  let hostname = inv.host.hostname;
  if (redact) {
    ({ raw, hostname } = redactSnapshot(raw, inv, { poolNames: Boolean(o['redact-pools']) }));
  }
  const files = await writeSnapshot(dir, raw, {
    capturedAt: new Date().toISOString(), hostname, platform: inv.host.platform,
    versions: { 'zfs-advisor': APP_VERSION, ...(inv.host.zfs.userland ? { zfs: inv.host.zfs.userland } : {}), ...(inv.host.zfs.kernel ? { 'zfs-kmod': inv.host.zfs.kernel } : {}) },
    demo: false, label: null, redaction: { applied: redact, poolNames: Boolean(o['redact-pools']) },
  });
  const result = { dir, files, gaps: inv.gaps.length, redacted: redact };
  if (o.json) io.stdout(`${JSON.stringify(result, null, 2)}\n`);
  else {
    io.stdout(`Wrote ${files.length} files to ${dir}${redact ? ' (redacted)' : ''}.\n`);
    if (inv.gaps.length) io.stdout(`${inv.gaps.length} outputs could not be read; \`zfs-advisor inventory --snapshot ${dir}\` lists them.\n`);
  }
  return EXIT.ok;
};
