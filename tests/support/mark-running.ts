/** Setup file: marks the test file as running while its tests run (tests/support/running-files.ts). */
import { afterAll, beforeAll } from 'vitest';
import { markRunning } from './running-files.ts';

let unmark: (() => void) | null = null;
// The context must be destructured (vitest's fixture parser); the file is the second argument.
// eslint-disable-next-line no-empty-pattern
beforeAll(({}, suite) => { unmark = markRunning('filepath' in suite ? String(suite.filepath) : suite.name); });
afterAll(() => { unmark?.(); unmark = null; });
