/**
 * `zfs-advisor inventory [--snapshot DIR] [--demo [NAME]] [--json]`: the inventory of this host,
 * a snapshot directory or the bundled demo; a human summary unless --json.
 */
import { EXIT, type Handler } from '../command.ts';
import type { options } from '../defs/inventory.ts';
import { firstLine, inputError, usageError } from '../framework/errors.ts';
import { InventoryLoadError, loadInventory } from '../../gather/load.ts';
import { layoutLines } from '../../gather/layout-words.ts';
import { terminalText } from '../../text/markdown.ts';
import { ABSENT, formatBytes, formatPercent, formatTime, platformText } from '../../text/format.ts';
import type { Inventory } from '../../model/inventory.ts';
import { driveUsability } from '../../model/usable.ts';

export function summarise(inv: Inventory): string {
  const lines: string[] = [];
  if (inv.source.demo) lines.push(`*** ${inv.source.label.startsWith("Demo data") ? "" : "Demo data: "}${inv.source.label} ***`);
  else lines.push(`Source: ${inv.source.kind} ${inv.source.label} (captured ${formatTime(inv.source.capturedAt)})${inv.source.redacted ? ' [redacted]' : ''}`);
  const h = inv.host;
  lines.push(`Host: ${h.hostname ?? ABSENT} | ${platformText(h)} | ZFS ${h.zfs.openzfs ?? h.zfs.userland ?? 'unknown'} (${h.zfs.flavour})`);
  lines.push('', `Pools (${inv.pools.length}):`);
  for (const p of inv.pools) {
    lines.push(`  ${p.name}  ${p.state ?? ABSENT}  size ${formatBytes(p.sizeBytes)}  used ${formatPercent(p.capacityPct)}`);
    for (const l of layoutLines(p, inv.drives)) lines.push(`    ${l}`);
  }
  lines.push('', `Drives (${inv.drives.length}):`);
  for (const d of inv.drives) {
    const health = d.smartPassed === null ? 'health unknown' : d.smartPassed ? 'SMART passed' : 'SMART FAILED';
    lines.push(`  ${d.devPath ?? d.id}  ${d.model ?? ABSENT}  ${formatBytes(d.sizeBytes)}  ${d.media}/${d.transport}  ${health}${d.optane ? `  [${d.optane.product}]` : ''}  ${driveUsability(d, inv.pools, inv.drives).words}`);
  }
  lines.push('', `Datasets and zvols: ${inv.datasets.length}`);
  if (inv.gaps.length) {
    lines.push('', `Could not read (${inv.gaps.length}):`);
    for (const g of inv.gaps) lines.push(`  [${g.severity}] ${g.artifact}: ${terminalText(g.message)}`);
  }
  return `${lines.join('\n')}\n`;
}

export const run: Handler<typeof options> = async ({ values: o }, io) => {
  if (o.snapshot !== undefined && o.demo !== undefined) throw usageError('--snapshot and --demo exclude each other', 'give one');
  try {
    const { inventory } = await loadInventory({ snapshot: o.snapshot, demo: o.demo !== undefined, demoName: typeof o.demo === 'string' ? o.demo : undefined });
    io.stdout(o.json ? `${JSON.stringify(inventory, null, 2)}\n` : summarise(inventory));
    return EXIT.ok;
  } catch (e) {
    if (e instanceof InventoryLoadError) throw inputError(firstLine(e), o.snapshot ? 'give a directory written by `zfs-advisor capture`' : 'see zfs-advisor inventory --help');
    throw e;
  }
};
