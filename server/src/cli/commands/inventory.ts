/**
 * `zfs-advisor inventory [--snapshot DIR] [--demo [NAME]] [--json]`: the inventory of this host,
 * a snapshot directory or the bundled demo; a human summary unless --json.
 */
import { EXIT, type CliCommand } from '../command.ts';
import { InventoryLoadError, loadInventory, DEMO_SNAPSHOTS } from '../../gather/load.ts';
import { formatBytes, layoutLines } from '../../gather/layout-words.ts';
import type { Inventory } from '../../model/inventory.ts';

export function summarise(inv: Inventory): string {
  const lines: string[] = [];
  if (inv.source.demo) lines.push(`*** ${inv.source.label.startsWith("Demo data") ? "" : "Demo data: "}${inv.source.label} ***`);
  else lines.push(`Source: ${inv.source.kind} ${inv.source.label} (captured ${inv.source.capturedAt})${inv.source.redacted ? ' [redacted]' : ''}`);
  const h = inv.host;
  lines.push(`Host: ${h.hostname ?? '?'} | ${h.platform} | ${h.distribution}${h.distributionVersion ? ` ${h.distributionVersion}` : ''} | ZFS ${h.zfs.openzfs ?? h.zfs.userland ?? 'unknown'} (${h.zfs.flavour})`);
  lines.push('', `Pools (${inv.pools.length}):`);
  for (const p of inv.pools) {
    lines.push(`  ${p.name}  ${p.state ?? '?'}  size ${formatBytes(p.sizeBytes)}  used ${p.capacityPct ?? '?'}%`);
    for (const l of layoutLines(p, inv.drives)) lines.push(`    ${l}`);
  }
  lines.push('', `Drives (${inv.drives.length}):`);
  for (const d of inv.drives) {
    const health = d.smartPassed === null ? 'health unknown' : d.smartPassed ? 'SMART passed' : 'SMART FAILED';
    lines.push(`  ${d.devPath ?? d.id}  ${d.model ?? '?'}  ${formatBytes(d.sizeBytes)}  ${d.media}/${d.transport}  ${health}${d.optane ? `  [${d.optane.product}]` : ''}`);
  }
  lines.push('', `Datasets: ${inv.datasets.length}`);
  if (inv.gaps.length) {
    lines.push('', `Could not read (${inv.gaps.length}):`);
    for (const g of inv.gaps) lines.push(`  [${g.severity}] ${g.artifact}: ${g.message}`);
  }
  return `${lines.join('\n')}\n`;
}

const command: CliCommand = {
  summary: 'inventory of this host, a snapshot (--snapshot DIR) or the demo (--demo); --json for the model',
  async run(args, io) {
    let snapshot: string | undefined;
    let demo = false;
    let demoName: string | undefined;
    let json = false;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      if (a === '--json') json = true;
      else if (a === '--snapshot' && args[i + 1]) snapshot = args[++i];
      else if (a === '--demo') { demo = true; if (args[i + 1] && (DEMO_SNAPSHOTS as readonly string[]).includes(args[i + 1]!)) demoName = args[++i]; }
      else { io.stderr(`usage: zfs-advisor inventory [--snapshot DIR] [--demo [${DEMO_SNAPSHOTS.join('|')}]] [--json]\n`); return EXIT.usage; }
    }
    try {
      const { inventory } = await loadInventory({ snapshot, demo, demoName });
      io.stdout(json ? `${JSON.stringify(inventory, null, 2)}\n` : summarise(inventory));
      return EXIT.ok;
    } catch (e) {
      if (e instanceof InventoryLoadError) { io.stderr(`${e.message}\n`); return EXIT.badInput; }
      throw e;
    }
  },
};
export default command;
