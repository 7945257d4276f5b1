/** Real OpenZFS 2.3 in a second lab guest: the other half of this line's lab cases (tests/lab/openzfs-line.ts). */
import { describeLine } from './openzfs-line.ts';

describeLine('2.3', { index: 1, of: 2 });
