/** Real OpenZFS 2.4 in a lab guest: every lab case of this line (tests/lab/openzfs-line.ts). */
import { describeLine } from './openzfs-line.ts';

describeLine('2.4');
