/**
 * `zfs-advisor capture DIR [--redact] [--redact-pools]`: runs the collectors on this host and
 * writes the raw outputs + meta.json (README "Snapshot format"). `inventory --snapshot DIR` then
 * gives the same inventory anywhere.
 */
import { EXIT, type CliCommand } from '../command.ts';
import { collectLocal } from '../../gather/collect-local.ts';
import { buildInventory } from '../../gather/build.ts';
import { redactSnapshot } from '../../redact/snapshot.ts';
import { writeSnapshot } from '../../snapshot/directory.ts';
import { APP_VERSION } from '../../version.ts';

const command: CliCommand = {
  summary: 'capture this host\'s raw outputs into a snapshot directory (DIR [--redact] [--redact-pools])',
  async run(args, io) {
    const flags = new Set(args.filter((a) => a.startsWith('--')));
    const positional = args.filter((a) => !a.startsWith('--'));
    const unknown = [...flags].filter((f) => f !== '--redact' && f !== '--redact-pools');
    if (positional.length !== 1 || unknown.length) {
      io.stderr('usage: zfs-advisor capture DIR [--redact] [--redact-pools]\n');
      return EXIT.usage;
    }
    const dir = positional[0]!;
    const redact = flags.has('--redact') || flags.has('--redact-pools');
    let raw = await collectLocal();
    const inv = buildInventory(raw, { kind: 'local', label: 'capture', capturedAt: new Date().toISOString(), demo: false, redacted: false });
    let hostname = inv.host.hostname;
    if (redact) {
      ({ raw, hostname } = redactSnapshot(raw, inv, { poolNames: flags.has('--redact-pools') }));
    }
    const files = await writeSnapshot(dir, raw, {
      capturedAt: new Date().toISOString(), hostname, platform: inv.host.platform,
      versions: { 'zfs-advisor': APP_VERSION, ...(inv.host.zfs.userland ? { zfs: inv.host.zfs.userland } : {}), ...(inv.host.zfs.kernel ? { 'zfs-kmod': inv.host.zfs.kernel } : {}) },
      demo: false, label: null, redaction: { applied: redact, poolNames: flags.has('--redact-pools') },
    });
    io.stdout(`${JSON.stringify({ dir, files, gaps: inv.gaps.length, redacted: redact }, null, 2)}\n`);
    return EXIT.ok;
  },
};
export default command;
