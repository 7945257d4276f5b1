/**
 * Citations the layout, workload and health rules share: the project's reference documents by
 * file name, zfs-facts.md by fact number, and the OpenZFS man pages by URL.
 */
import type { Citation } from '../../server/src/model/finding.ts';

const MAN = 'https://openzfs.github.io/openzfs-docs/man/master';

export const fact = (locator: string): Citation => ({ source: 'zfs-facts.md', locator, url: null });
export const doc = (source: string, locator: string | null = null): Citation => ({ source, locator, url: null });
export const man = (page: string, section: 4 | 7 | 8, locator: string | null = null): Citation => ({
  source: `${page}(${section})`, locator, url: `${MAN}/${section}/${page}.${section}.html`,
});

/** Reference documents (shared/reference). */
export const DOC_001 = '001_5bdf7b1e4a49fbe8.txt';
export const DOC_002 = '002_afd18be8c5a70a7f.txt';
export const DOC_004 = '004_43fadf79bcce0939.txt';
