/**
 * The UI's typed client depends on ResponseOf<route> being the route's own schema type
 * (not `never`): checked by tsc through expectTypeOf, and at run time on the route table.
 */
import { describe, expectTypeOf, expect, it } from 'vitest';
import { routes, type ResponseOf, type HostView, type ObservationRecord } from '../../server/src/api/contract.ts';

describe('contract types', () => {
  it('ResponseOf gives each JSON route its own schema type', () => {
    expectTypeOf<ResponseOf<'listHosts'>>().toEqualTypeOf<HostView[]>();
    expectTypeOf<ResponseOf<'listObservations'>>().toEqualTypeOf<ObservationRecord[]>();
    expectTypeOf<ResponseOf<'listHosts'>>().not.toBeNever();
    expect(routes.listHosts.response.kind).toBe('json');
  });
});
