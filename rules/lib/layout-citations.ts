/**
 * Citations the layout, workload and health rules share (see citations.ts): reference documents,
 * facts by their primary sources, man pages and knowledge-page sections, all as links.
 */
export { DOC_001, DOC_002, DOC_004, doc, fact, kb, man } from './citations.ts';
