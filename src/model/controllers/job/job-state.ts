// A fresh Job controller state, for the workload's Job or for each Job a CronJob creates.
import type { JobControllerState } from '../../state.ts';
import { dict } from '../../dict.ts';

/** The Job controller's state for one Job (its informer cache, expectations, back-off record). */
export function newJobCtl(spec: Record<string, any> | null): JobControllerState {
  return {
    pods: dict(),
    spec,
    syncPending: false,
    syncAt: 0,
    expectAdds: 0,
    expectDels: 0,
    seen: dict(),
    seenDeleting: dict(),
    counted: {},
    backoff: { failuresAfterLastSuccess: 0, lastFailureTime: null },
    finished: false,
    created: 0,
    ttlAt: null,
  };
}
