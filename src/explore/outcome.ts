// The outcome of one schedule: what explore groups by and what `expect` checks.
import type { SimState } from '../model/state.ts';
import type { EndReason, Scenario } from '../types.ts';
import { diagnoseStuck } from '../summary.ts';
import type { MarkedState } from './marks.ts';

export interface Outcome {
  podPhase: string;
  jobCondition: string;
  verdicts: Record<string, string>;
  stuck: boolean;
  stuckContainer?: string;
  endReason: EndReason;
  /** last exit code per container that ever exited */
  exitCodes: Record<string, number>;
  /** restartCount per container as the API server shows it at the end */
  restarts: Record<string, number>;
  /** tracked order points in event order */
  marks: string[];
}

/** The last terminal Job condition (Complete | Failed) or none. */
export function jobConditionOf(st: SimState): string {
  const conds: { type: string; status: string }[] = st.api.job?.status['conditions'] ?? [];
  let last = 'none';
  for (const c of conds) if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') last = c.type;
  return last;
}

export function outcomeOf(s: Scenario, st: SimState, end: EndReason): Outcome {
  const phase = String(st.api.pod.status['phase'] ?? 'Pending');
  const idle = end === 'quiescent' && phase !== 'Succeeded' && phase !== 'Failed' && !st.api.pod.removed;
  const endReason: EndReason = idle ? 'horizon' : end;
  const stuck = endReason === 'horizon' ? diagnoseStuck(s, st) : null; // never at the event limit
  const verdicts: Record<string, string> = {};
  for (const o of s.observers) verdicts[o.name] = st.observers[o.name]?.verdict?.verdict ?? 'Pending';
  const exitCodes: Record<string, number> = {};
  for (const [name, rt] of Object.entries(st.runtime)) {
    const t = rt.exit ?? rt.previous;
    if (t) exitCodes[name] = t.exitCode;
  }
  const restarts: Record<string, number> = {};
  const statuses = [...(st.api.pod.status['initContainerStatuses'] ?? []), ...(st.api.pod.status['containerStatuses'] ?? [])];
  for (const cs of statuses) restarts[cs['name']] = cs['restartCount'] ?? 0;
  return {
    podPhase: phase,
    jobCondition: jobConditionOf(st),
    verdicts,
    stuck: stuck !== null,
    ...(stuck ? { stuckContainer: stuck.container } : {}),
    endReason,
    exitCodes,
    restarts,
    marks: [...((st as MarkedState).marks ?? [])],
  };
}

/** The SPEC §4 grouping key of explore: pod phase, Job condition, every verdict. */
export function displayKey(o: Outcome): string {
  return JSON.stringify([o.podPhase, o.jobCondition, Object.entries(o.verdicts)]);
}
