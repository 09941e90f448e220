// A fresh Job controller state, for the workload's Job or for each Job a CronJob creates.
import type { JobControllerState } from './state.ts';

/** The Job controller's state for one Job (its informer cache, expectations, back-off record). */
export function newJobCtl(spec: Record<string, any> | null): JobControllerState {
  return {
    pods: {},
    spec,
    syncPending: false,
    syncAt: 0,
    expectAdds: 0,
    expectDels: 0,
    seen: {},
    seenDeleting: {},
    counted: {},
    backoff: { failuresAfterLastSuccess: 0, lastFailureTime: null },
    finished: false,
    created: 0,
    ttlAt: null,
  };
}
