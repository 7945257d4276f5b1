/** The collectors, in build order (Host first: others read its platform). Config as data. */
import { arcCollector } from './arc.ts';
import { datasetsCollector } from './datasets.ts';
import { drivesCollector } from './drives.ts';
import { hostCollector } from './host.ts';
import { poolsCollector } from './pools.ts';
import { zilCollector } from './zil.ts';

export const COLLECTORS = [hostCollector, poolsCollector, datasetsCollector, drivesCollector, zilCollector, arcCollector] as const;
export { arcCollector, datasetsCollector, drivesCollector, hostCollector, poolsCollector, zilCollector };
