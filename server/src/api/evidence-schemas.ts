/**
 * HTTP shapes of the measured evidence. The schemas are the domain's (`server/src/model/evidence.ts`:
 * the jobs take them from there); this module keeps the routes' import path.
 */
export * from '../model/evidence.ts';
