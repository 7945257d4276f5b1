/**
 * A plan the planner will not print: hostile or unknown device names, devices already in a pool,
 * or a redundancy mismatch the caller did not accept. A RangeError so older callers that map
 * RangeError to "bad request" keep working; `reason` lets the API answer 409 for a device in use.
 */
export type RefusalReason = 'invalid-device' | 'device-in-use' | 'redundancy' | 'partitioning';

export class PlanRefused extends RangeError {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    /** How to go on: who may change what, the exact command or option, and what it risks (issue 38 §3). */
    readonly wayForward: string | null = null,
  ) {
    super(message);
    this.name = 'PlanRefused';
  }
}
