import rule from '../../rules/special-small-blocks-value.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { benchPool, testPool } from '../fixtures/rules/slog-fixtures.ts';
import { dataset, host } from '../support/builders.ts';
import type { SizeHistogram } from '../../server/src/model/workload.ts';

const G = 2 ** 30;
// Candidates for test-pool/share-data: metadata + small blocks per threshold. The 16K row matches 000
// (11.9 GB on special at 16K); larger thresholds are constructed for the test.
const hist: SizeHistogram = {
  target: '/mnt/test-pool/share-data', dataset: 'test-pool/share-data', pool: 'test-pool', method: 'walk', recordsize: 131072, ashift: 12,
  files: 452_000, totalBytes: 3.6e12, fileBins: [], blockBins: [], metadataBasis: 'constructed', capturedAt: '2026-01-01T00:00:00Z', notes: [],
  candidates: [
    { specialSmallBlocks: 0, smallBlockBytes: 0, metadataBytes: 10 * G, totalBytes: 10 * G },
    { specialSmallBlocks: 16384, smallBlockBytes: 1.1 * G, metadataBytes: 10 * G, totalBytes: 11.1 * G },
    { specialSmallBlocks: 32768, smallBlockBytes: 4 * G, metadataBytes: 10 * G, totalBytes: 14 * G },
    { specialSmallBlocks: 65536, smallBlockBytes: 38 * G, metadataBytes: 10 * G, totalBytes: 48 * G },
    { specialSmallBlocks: 131072, smallBlockBytes: 900 * G, metadataBytes: 10 * G, totalBytes: 910 * G },
  ],
};
const shareData = (ssb: number) => dataset('test-pool/share-data', { specialSmallBlocks: ssb });

ruleTester(rule, {
  valid: [
    { name: '32K already set (largest fitting value)', artifacts: { Pools: [testPool], Datasets: [shareData(32768)], SizeHistograms: [hist] } },
    { name: 'no histogram, sane value', artifacts: { Pools: [testPool], Datasets: [shareData(16384)] } },
    { name: 'no special vdev', status: 'not-applicable', artifacts: { Pools: [benchPool], Datasets: [dataset('bench-pool')] } },
  ],
  invalid: [
    {
      name: '000 share-data at 16K: 32K still fits under 75 % of 54.9G (64K would not)',
      artifacts: { Pools: [testPool], Datasets: [shareData(16384)], SizeHistograms: [hist] },
      findings: [{ severity: 'suggestion', subjectId: 'test-pool/share-data', mentions: ['32K', '75 %'], commandIncludes: ['zfs set special_small_blocks=32K test-pool/share-data'], reversible: 'partly' }],
    },
    {
      name: 'special_small_blocks = recordsize sends the whole dataset (003 §4)',
      artifacts: { Pools: [testPool], Datasets: [shareData(131072)] },
      findings: [{ severity: 'warning', mentions: ['whole dataset'], commandIncludes: ['zfs set special_small_blocks=64K'] }],
    },
    {
      name: 'zvol with special_small_blocks on OpenZFS 2.2',
      artifacts: { Pools: [testPool], Datasets: [dataset('test-pool/vm1', { type: 'volume', specialSmallBlocks: 16384 })], Host: host('2.2.6') },
      findings: [{ severity: 'info', subjectId: 'test-pool/vm1', mentions: ['needs OpenZFS 2.4', 'refuses the property on a volume'] }],
    },
  ],
});
