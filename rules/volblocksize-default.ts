/**
 * zvols on the pre-2.2 default volblocksize of 8K, or below it (4K, as 002 benchmarked): more
 * metadata, no compression gain on 4K sectors, poor raidz efficiency. New zvols get 16K since
 * OpenZFS 2.2, and `zfs create -V` warns below the default (D6).
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_002, doc, fact, kb, man } from './lib/layout-citations.ts';
import { atLeast } from './engine/version.ts';

/** Default volblocksize in OpenZFS ≤ 2.1 (D5). */
export const OLD_DEFAULT = 8192;
/** Default volblocksize since OpenZFS 2.2.0 (D5). */
export const NEW_DEFAULT = 16384;
/** Swap zvols deliberately use the page size (D10). */
const SWAP = /swap/i;

export default defineRule({
  meta: {
    id: 'volblocksize-default',
    title: 'zvols on the old 8K default volblocksize or below',
    category: 'workload',
    defaultSeverity: 'suggestion',
    requiredArtifacts: ['Datasets'],
    optionalArtifacts: ['Host'],
    description:
      'OpenZFS raised the default volblocksize from 8K to 16K in 2.2 because 8K blocks carry twice the metadata, cannot compress on 4K-sector pools and waste space on raidz. zvols created earlier keep 8K for life; zvols made with an even smaller volblocksize (4K) pay double again and can never compress at ashift 12, which is why `zfs create -V` warns. Learn more: [zvols, sync and the page cache: volblocksize](docs/kb/zvol-sync.md#volblocksize).',
    citations: [kb('zvol-sync', 'volblocksize'), fact('D5'), fact('D6'), fact('C26'), fact('C28'), man('zfsprops', 7, 'volblocksize'), doc(DOC_002, 'zvol results')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Datasets, Host }) {
    const zvols = Datasets.filter((d) => d.type === 'volume' && d.volblocksize !== null);
    if (zvols.length === 0) return notApplicable('No zvols with a known volblocksize.');
    const version = Host?.zfs.openzfs ?? null;
    const newDefault = atLeast(version, '2.2');
    const findings: FindingDraft[] = zvols
      .filter((z) => z.volblocksize !== null && z.volblocksize <= OLD_DEFAULT && !SWAP.test(z.name))
      .map((z) => ({ z, tiny: z.volblocksize! < OLD_DEFAULT, kib: `${z.volblocksize! / 1024}K` }))
      .map(({ z, tiny, kib }) => ({
        title: tiny
          ? `${z.name} uses volblocksize=${kib}, below even the old 8K default`
          : `${z.name} uses volblocksize=8K${newDefault ? ' (the pre-2.2 default)' : ''}`,
        subject: { kind: 'dataset' as const, id: z.name, pool: z.pool },
        evidence: [
          { label: 'volblocksize', value: z.volblocksize, unit: 'bytes' },
          { label: 'set at', value: z.properties.volblocksize?.source ?? null },
          { label: 'OpenZFS', value: version },
          { label: 'current default', value: newDefault ? NEW_DEFAULT : version ? OLD_DEFAULT : null, unit: 'bytes' },
        ],
        explanation: tiny
          ? `${z.name} has volblocksize=${kib}. At ashift 12 a ${kib} block is a single 4K sector or less, so compression can never save anything; every block needs its own 128-byte pointer, ${NEW_DEFAULT / z.volblocksize!}× the indirect metadata of 16K blocks — more ARC, special-vdev and dedup-table space — and on raidz each block costs parity like a mirror. ` +
            '`zfs create -V` itself warns below the default minimum block size. It only pays off for a guest that writes exactly that size at random and reads little; for VM disks 16K or larger is the better trade-off. The value cannot be changed after creation.'
          : (newDefault
            ? `This host runs OpenZFS ${version}, whose default volblocksize is 16K; this zvol has 8K, most likely because it was created under ≤ 2.1 (or by a tool that asked for 8K). `
            : `On OpenZFS ${version ?? '(version unknown)'} the default volblocksize is still 8K; 2.2 raised it to 16K. `) +
          '8K blocks need twice the block pointers of 16K (more ARC and special-vdev metadata), can only compress by going down to a single 4K sector, and on raidz use as much raw space as a mirror. ' +
          'A smaller block helps only if the guest writes 8K pages at random and reads little; for most VM disks 16K or larger is the better trade-off. The value cannot be changed after creation.',
        action: {
          summary: 'Create new zvols with volblocksize=16K (or larger); migrate this one by copying into a new zvol when convenient.',
          commands: [
            `zfs create -s -V ${z.volsize ?? '<size>'} -o volblocksize=16K ${z.name}-16k`,
            `dd if=/dev/zvol/${z.name} of=/dev/zvol/${z.name}-16k bs=1M oflag=direct status=progress`,
          ],
          reversible: 'partly' as const,
          reversibleWhy: 'The original zvol remains until you destroy it and switch the consumer to the copy; after that the change is permanent.',
        },
        confidence: 'medium' as const,
      }));
    return fired(findings);
  },
});
