/**
 * Citations shared by the SLOG, special-vdev and Optane rules (see citations.ts), plus the
 * OpenZFS documentation pages they cite most.
 */
import type { Citation } from '../../server/src/model/finding.ts';

export { DOC_000, DOC_003, DOC_004, doc, fact, kb, man } from './citations.ts';

const DOCS = 'https://openzfs.github.io/openzfs-docs';

export const OPENZFS_SPECIAL_DOC: Citation = {
  source: 'OpenZFS docs: Special vdev', locator: null, url: `${DOCS}/Basic%20Concepts/Pool%20Structure/Special%20vdev.html`,
};
export const OPENZFS_CACHING_DOC: Citation = {
  source: 'OpenZFS docs: Caching (SLOG)', locator: null, url: `${DOCS}/Basic%20Concepts/Pool%20Structure/Caching.html`,
};
export const OPENZFS_WORKLOAD_DOC: Citation = {
  source: 'OpenZFS docs: Workload Tuning (Synchronous I/O)', locator: null, url: `${DOCS}/Performance%20and%20Tuning/Workload%20Tuning.html`,
};
