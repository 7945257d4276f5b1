import rule from '../../rules/zvol-buffered-async.ts';
import { ruleTester } from '../support/rule-tester.ts';
import { dataset, host } from '../support/builders.ts';

const vm = dataset('rpool/data/vm-100-disk-0', { type: 'volume' });

ruleTester(rule, {
  valid: [
    { name: 'zvol with sync=always', artifacts: { Datasets: [dataset('rpool/data/vm-101-disk-0', { type: 'volume', sync: 'always' })] } },
    { name: 'no zvols', artifacts: { Datasets: [dataset('tank/media')] }, status: 'not-applicable' },
  ],
  invalid: [
    {
      name: 'Proxmox zvol with sync=standard: low-confidence suggestion citing 002',
      artifacts: { Datasets: [vm, dataset('rpool/data')], Host: host('2.1.6', { distribution: 'proxmox-ve' }) },
      findings: [{
        severity: 'suggestion', subjectId: 'rpool', mentions: ['77×', 'crashed the kernel', 'cache mode is `none`'],
        commandIncludes: ['oflag=direct', '/dev/zvol/rpool/data/vm-100-disk-0', 'zfs set sync=always rpool/data/vm-100-disk-0'],
        reversible: 'yes',
        check: (f) => { if (f.confidence !== 'low') throw new Error('confidence'); if (!f.citations.some((c) => c.url === 'https://coda.io/@ff0/zvol-performance-issues')) throw new Error('citation of the Proxmox zvol study'); },
      }],
    },
    {
      name: 'zvol with sync=disabled: warning',
      artifacts: { Datasets: [dataset('tank/iscsi', { type: 'volume', sync: 'disabled' })] },
      findings: [{ severity: 'warning', subjectId: 'tank', check: (f) => { if (f.evidence[0]!.value !== 'tank/iscsi (disabled)') throw new Error(String(f.evidence[0]!.value)); } }],
    },
  ],
});
