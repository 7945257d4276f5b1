/**
 * Citations shared by the SLOG, special-vdev and Optane rules: reference documents by file name,
 * zfs-facts.md by fact number, OpenZFS man pages and docs by URL.
 */
import type { Citation } from '../../server/src/model/finding.ts';

const MAN = 'https://openzfs.github.io/openzfs-docs/man/master';
const DOCS = 'https://openzfs.github.io/openzfs-docs';

export const DOC_000 = '000_a5b8e6cc27024805.txt';
export const DOC_003 = '003_cb4c75a7b728e7a4.txt';
export const DOC_004 = '004_43fadf79bcce0939.txt';

export const fact = (locator: string): Citation => ({ source: 'zfs-facts.md', locator, url: null });
export const doc = (source: string, locator: string | null = null): Citation => ({ source, locator, url: null });
export const man = (page: string, section: 4 | 7 | 8, locator: string | null = null): Citation => ({
  source: `${page}(${section})`, locator, url: `${MAN}/${section}/${page}.${section}.html`,
});
export const OPENZFS_SPECIAL_DOC: Citation = {
  source: 'OpenZFS docs: Special vdev', locator: null, url: `${DOCS}/Basic%20Concepts/Pool%20Structure/Special%20vdev.html`,
};
export const OPENZFS_CACHING_DOC: Citation = {
  source: 'OpenZFS docs: Caching (SLOG)', locator: null, url: `${DOCS}/Basic%20Concepts/Pool%20Structure/Caching.html`,
};
export const OPENZFS_WORKLOAD_DOC: Citation = {
  source: 'OpenZFS docs: Workload Tuning (Synchronous I/O)', locator: null, url: `${DOCS}/Performance%20and%20Tuning/Workload%20Tuning.html`,
};
