/**
 * recordsize ≤ 8K on a general-purpose filesystem: slower (002: the default was 6.4× faster for
 * 4k writes), no compression gain, more metadata.
 */
import { defineRule, fired, notApplicable } from './engine/types.ts';
import type { FindingDraft } from './engine/types.ts';
import { DOC_002, doc, fact, kb, man } from './lib/layout-citations.ts';
import { reportOnce } from './lib/layout-dataset-props.ts';
import { fmtKiB } from './lib/layout-geometry.ts';

/** Issue 3 / cheat-sheet: ≤ 8K is "too small" for a general dataset (C26, C28). */
export const SMALL_RECORDSIZE = 8192;
/** 002: zfs-fs 4k writes with default recordsize were 6.4× faster than with recordsize=4k. */
export const OBSERVED_SPEEDUP = 6.4;
/** Dataset names that suggest a page-sized database, where a small recordsize can be deliberate (D9). */
export const DATABASE_NAME = /(postgres|pgsql|pgdata|mysql|mariadb|innodb|oracle|mssql|sqlserver|db2|(^|[/_-])(db|pg|sql)([/_-]|$))/i;

export default defineRule({
  meta: {
    id: 'recordsize-too-small',
    title: 'recordsize of 8K or less on a general filesystem',
    category: 'workload',
    defaultSeverity: 'suggestion',
    requiredArtifacts: ['Datasets'],
    description:
      'recordsize is an upper bound: small files get small blocks anyway, so lowering it only helps applications that rewrite small pieces of large files (databases). On general datasets it costs speed (a Proxmox zvol study: default recordsize 6.4× faster for 4k writes), compression and metadata. Learn more: [raidz space, padding and resilience: recordsize](docs/kb/raidz-space.md#recordsize).',
    citations: [kb('raidz-space', 'recordsize'), doc(DOC_002, 'zfs-fs 4k-def vs. 4k-4k'), fact('C26'), fact('C27'), fact('C28'), fact('D9'), man('zfsprops', 7, 'recordsize')],
    appliesTo: { minVersion: null, maxVersion: null },
  },
  check({ Datasets }) {
    const fs = Datasets.filter((d) => d.type === 'filesystem');
    if (fs.length === 0 || fs.every((d) => d.recordsize === null)) return notApplicable('No filesystem datasets with a known recordsize.');
    const heads = reportOnce(fs, 'recordsize', (d) => d.recordsize !== null && d.recordsize <= SMALL_RECORDSIZE);
    const findings: FindingDraft[] = [];
    for (const { dataset: d, inheritedBy } of heads) {
      const db = DATABASE_NAME.test(d.name);
      const rs = fmtKiB(d.recordsize!);
      findings.push({
        severity: db ? 'info' : 'suggestion',
        title: `recordsize=${rs} on ${d.name}`,
        subject: { kind: 'dataset', id: d.name, pool: d.pool },
        evidence: [
          { label: 'recordsize', value: d.recordsize, unit: 'bytes' },
          { label: 'set at', value: d.properties.recordsize?.source ?? null },
          { label: 'inherited by', value: inheritedBy.length > 0 ? inheritedBy.join(', ') : null },
          { label: 'compressratio', value: d.compressratio },
          { label: 'name suggests a database', value: db },
        ],
        explanation:
          `recordsize is the largest block a file is cut into; files smaller than it are stored in one block of about their own size, so a ${rs} recordsize does not help small files — it only splits large files into ${rs} pieces. ` +
          `A Proxmox zvol study measured 4k writes on a filesystem with the default recordsize ${OBSERVED_SPEEDUP}× faster than with recordsize=4k. Blocks this small also cannot compress with ashift 12 and need up to 32× the block-pointer metadata of 128K records. ` +
          (db
            ? 'The name suggests a database with fixed-size pages, where matching recordsize to the page size (e.g. 16K for InnoDB, 8K for PostgreSQL) is OpenZFS\'s own advice: check it matches the page size and leave it.'
            : 'Unless an application rewrites fixed-size pages of this size inside large files, the default is better.'),
        action: {
          summary: 'Return to the default recordsize (128K); it applies to files written afterwards.',
          commands: [`zfs inherit recordsize ${d.name}`, `zfs get recordsize ${d.name}`],
          reversible: 'yes',
          reversibleWhy: 'recordsize can be changed back at any time; existing files keep their block size until rewritten.',
        },
        confidence: db ? 'low' : 'medium',
      });
    }
    return fired(findings);
  },
});
