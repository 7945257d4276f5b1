/** Real OpenZFS 2.3 in a lab guest: every lab case of this line (tests/lab/openzfs-line.ts). */
import { describeLine } from './openzfs-line.ts';

describeLine('2.3');
