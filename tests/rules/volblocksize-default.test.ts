import rule from '../../rules/volblocksize-default.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { dataset, host } from '../support/builders.ts';

const old = dataset('rpool/data/vm-100-disk-0', { type: 'volume', volblocksize: 8192, volsize: 34359738368, properties: { volblocksize: { value: '8192', source: 'default' } } });

ruleTester(rule, {
  valid: [
    { name: '16K zvol on 2.2', artifacts: { Datasets: [dataset('tank/vm', { type: 'volume' })], Host: host('2.2.6') } },
    { name: '8K swap zvol is deliberate', artifacts: { Datasets: [dataset('rpool/swap', { type: 'volume', volblocksize: 8192 })] } },
    { name: 'no zvols', artifacts: { Datasets: [dataset('tank/files')] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: '8K zvol on an OpenZFS 2.2 host: created under the old default',
      artifacts: { Datasets: [old], Host: host('2.2.6') },
      findings: [{ subjectId: 'rpool/data/vm-100-disk-0', mentions: ['pre-2.2 default', 'OpenZFS 2.2.6'], commandIncludes: ['zfs create -s -V 34359738368 -o volblocksize=16K rpool/data/vm-100-disk-0-16k', 'oflag=direct'], reversible: 'partly' }],
    },
    {
      // 002 benchmarked a volblocksize=4k zvol (fiotestpool/testenc/zvol4k) on OpenZFS 2.0.
      name: '4K zvol (002): below even the old default, whatever the version',
      artifacts: { Datasets: [dataset('fiotestpool/testenc/zvol4k', { type: 'volume', volblocksize: 4096, volsize: 107374182400 })], Host: host('2.0.3') },
      findings: [{
        subjectId: 'fiotestpool/testenc/zvol4k', mentions: ['volblocksize=4K', 'below even the old 8K default', 'never save anything', '4× the indirect metadata'],
        commandIncludes: ['-o volblocksize=16K fiotestpool/testenc/zvol4k-16k'],
      }],
    },
    {
      name: '8K zvol on a 2.1 host (Proxmox 7 era)',
      artifacts: { Datasets: [old], Host: host('2.1.6') },
      findings: [{ mentions: ['still 8K', '2.2 raised it to 16K'] }],
    },
  ],
});
