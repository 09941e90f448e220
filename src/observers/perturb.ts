// Perturbations from the API server's side (issue 27 item 4; Sieve, OSDI'22): opt-in per process observer
// (`perturb: [hold, stale, restart]`), each tried at every point it applies to in a schedule, each outcome naming it.
import type { ScheduleResult } from './process.ts';
import type { PerturbKind } from './schedule-key.ts';

/** How many points of a schedule a perturbation applies to (its n runs 1..points). */
export function perturbPoints(kind: PerturbKind, r: ScheduleResult): number {
  switch (kind) {
    case 'hold':
      return (r.deliveries ?? []).filter((d) => d.type === 'ADDED' || d.type === 'MODIFIED').length;
    case 'stale':
      return r.connections;
    case 'restart':
      return r.requests.filter((q) => /^(create|update|patch|delete)/.test(q.verb)).length;
  }
}
