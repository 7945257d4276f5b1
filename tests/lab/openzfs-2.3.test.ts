/** Real OpenZFS 2.3 in a lab guest: the first half of this line's lab cases (tests/lab/openzfs-line.ts; the other half is openzfs-2.3-b.test.ts). */
import { describeLine } from './openzfs-line.ts';

describeLine('2.3', { index: 0, of: 2 });
