/**
 * A special or dedup vdev on NAND flash without power-loss protection. The vdev holds the pool's
 * metadata (and small blocks, and the dedup table): if a power cut loses writes the drive had
 * already acknowledged, the pool's own structure is damaged, not a few files. 003 §13: "A special
 * vdev should have powerloss protection (or at least a decent powerloss behaviour like the non
 * datacenter Optane) as it holds critical data." Optane passes (no volatile write cache, E5).
 * One finding per vdev, naming every member that lacks PLP (both sides of a mirror in one finding).
 * PLP for SLOG devices is covered by slog-device-suitability.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_003, DOC_004, OPENZFS_SPECIAL_DOC, doc, fact, kb } from './lib/slog-citations.ts';
import { classifyDrive, plpSummary, type DeviceClass } from './lib/device-class.ts';
import { realTopLevel } from './lib/layout-geometry.ts';
import { AUX_CLASSES } from './lib/special-class.ts';
import { commandPath, driveForLeaf, leaves, vdevId } from './lib/topology.ts';
import { newDevice } from './lib/commands.ts';
import { parentDiskName } from '../server/src/gather/device-names.ts';
import type { Drive, VdevNode } from '../server/src/model/inventory.ts';

/** The drive behind a leaf; a partition (`nvme0n1p2`, `…-part2`) resolves to its disk. */
function memberDrive(leaf: VdevNode, drives: readonly Drive[]): Drive | null {
  const direct = driveForLeaf(leaf, drives);
  if (direct) return direct;
  const parent = parentDiskName(leaf.name);
  return parent ? driveForLeaf({ ...leaf, name: parent, driveId: null }, drives) : null;
}

type Verdict = 'no-plp' | 'flushed-only' | 'unknown';

/**
 * Why a NAND member fails the check, or null when it passes (Optane, capacitor PLP, HDD: not NAND)
 * or is no flash this host can see (a virtual disk or LUN: what survives a power cut is up to the
 * storage behind it, and the rule would only guess; slog-device-suitability asks to measure it).
 */
function verdictOf(c: DeviceClass): Verdict | null {
  if (c.hdd || c.optane || c.virtual) return null;
  if (c.plp.plp === 'no') return 'no-plp';
  if (c.plp.plp === 'yes') return c.plp.kind === 'firmware-flushed-only' ? 'flushed-only' : null;
  return 'unknown';
}

const SEVERITY = { 'no-plp': 'warning', 'flushed-only': 'suggestion', unknown: 'suggestion' } as const;

export default defineRule({
  meta: {
    id: 'special-device-plp',
    title: 'Special or dedup vdev on flash without power-loss protection',
    category: 'special',
    defaultSeverity: 'warning',
    requiredArtifacts: ['Pools', 'Drives'],
    optionalArtifacts: ['Host'],
    description:
      'A special vdev holds the pool\'s metadata (and a dedup vdev its dedup table): its loss loses the pool. A NAND SSD without power-loss protection can lose writes it had already acknowledged when the power fails, which on this vdev damages the pool itself. The napp-it allocation-class guide recommends power-loss protection for special vdevs, or at least Optane\'s behaviour (no volatile write cache). Learn more: [Device classes: Power-loss protection](docs/kb/device-classes.md#power-loss-protection).',
    citations: [kb('device-classes', 'Power-loss protection'), doc(DOC_003, '§13 General suggestion'), fact('E3'), fact('E5'), fact('G3'), doc(DOC_004), OPENZFS_SPECIAL_DOC],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Pools, Drives, Host }) {
    const findings: FindingDraft[] = [];
    let judged = 0;
    for (const pool of Pools) {
      for (const cls of AUX_CLASSES) {
        for (const top of realTopLevel(pool, cls)) {
          const members = leaves(top).map((leaf) => ({ leaf, drive: memberDrive(leaf, Drives) }));
          const known = members.filter((m): m is { leaf: VdevNode; drive: Drive } => m.drive !== null);
          if (known.length === 0) continue;
          judged++;
          const bad = known.map((m) => ({ ...m, c: classifyDrive(m.drive) })).map((m) => ({ ...m, v: verdictOf(m.c) }))
            .filter((m): m is typeof m & { v: Verdict } => m.v !== null);
          if (bad.length === 0) continue;
          const worst: Verdict = bad.some((m) => m.v === 'no-plp') ? 'no-plp' : bad.some((m) => m.v === 'flushed-only') ? 'flushed-only' : 'unknown';
          const names = bad.map((m) => `${m.leaf.name} (${m.c.product})`);
          const single = top.children.length === 0;
          const role = cls === 'special' ? 'special vdev' : 'dedup vdev';
          const what = worst === 'no-plp' ? 'no power-loss protection'
            : worst === 'flushed-only' ? 'firmware protection of flushed data only'
              : 'unknown power-loss protection';
          findings.push({
            severity: SEVERITY[worst],
            title: `${pool.name}: ${role} ${top.name} on flash with ${what}: ${names.join(', ')}`,
            subject: single ? { kind: 'drive', id: bad[0]!.drive.id, pool: pool.name } : { kind: 'vdev', id: vdevId(pool.name, top), pool: pool.name },
            evidence: [
              { label: 'vdev', value: `${top.name} (${cls}${single ? '' : `, ${top.type} of ${top.children.length}`})` },
              { label: 'members without PLP', value: names.join(', ') },
              ...bad.map((m) => ({ label: `power-loss protection of ${m.leaf.name}`, value: `${plpSummary(m.c.plp)}: ${m.c.plp.basis}` })),
            ],
            explanation:
              `${top.name} is a ${role} of ${pool.name}; it holds ${cls === 'special' ? 'the pool\'s metadata and any small blocks' : 'the dedup table'}, and losing it loses the pool. ` +
              (worst === 'no-plp'
                ? 'A NAND SSD without power-loss protection keeps acknowledged writes in volatile cache for a moment; a power cut then can lose or tear them, and on this vdev that damages pool structure rather than one file. '
                : worst === 'flushed-only'
                  ? 'Its firmware protects data once flushed, not what is in flight; that is the minimum, not the capacitor-backed protection data-centre drives have. '
                  : 'Whether it has power-loss protection is not known from its model; consumer NAND usually has none. ') +
              (bad.length > 1 ? `Every member is affected, so a mirror does not help: one power cut hits all sides at once. ` : '') +
              'The napp-it allocation-class guide, §13: "A special vdev should have powerloss protection (or at least a decent powerloss behaviour like the non datacenter Optane) as it holds critical data." Optane passes: it has no volatile write cache.',
            action: {
              summary: 'Replace the members one at a time with SSDs that have power-loss protection, or with Optane; a UPS narrows the risk in the meantime.',
              commands: bad.map((m, i) => `zpool replace ${pool.name} ${commandPath(m.leaf, Drives)} ${newDevice(Host, `plp-ssd-${i + 1}`)}`),
              reversible: 'partly',
              reversibleWhy: 'A replace resilvers onto the new device and the old one can be used again; the vdev itself stays (special vdevs cannot be removed from raidz pools).',
            },
            confidence: worst === 'unknown' ? 'low' : 'medium',
          });
        }
      }
    }
    if (judged === 0) return notApplicable('No special or dedup vdev whose devices the inventory could match to drives.');
    return fired(findings);
  },
});
