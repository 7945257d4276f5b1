/** Real OpenZFS 2.4 in a lab guest: the first half of this line's lab cases (tests/lab/openzfs-line.ts; the other half is openzfs-2.4-b.test.ts). */
import { describeLine } from './openzfs-line.ts';

describeLine('2.4', { index: 0, of: 2 });
