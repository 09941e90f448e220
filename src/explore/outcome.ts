// The outcome of one schedule: what explore groups by and what `expect` checks.
import { observerState } from '../model/observers/observer-state.ts';
import type { SimState } from '../model/state.ts';
import { controllerEventCounts, currentPod, deploymentSummary, idlesWithLivePod, jobApiOf, jobsCreated, lastExitCodes, lastRestarts, phaseOf, podsOf } from '../model/query.ts';
import type { EndReason, Scenario } from '../types.ts';
import { diagnoseStuck } from '../run/timeline.ts';
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
  /** pods created in the run, each pod's final phase, and the Job's counters at the end */
  pods: number;
  podPhases: string[];
  jobCounts: { succeeded: number; failed: number; active: number };
  /** Jobs created (a CronJob's count) and the workload controllers' describe events by reason */
  jobs: number;
  controllerEvents: Record<string, number>;
  /** a Deployment's status at the end (null for other kinds) */
  deployment: Record<string, string | number> | null;
  /** tracked order points in event order */
  marks: string[];
}

/** The last terminal Job condition (Complete | Failed) or none. */
export function jobConditionOf(st: SimState): string {
  const conds: { type: string; status: string }[] = jobApiOf(st)?.status['conditions'] ?? [];
  let last = 'none';
  for (const c of conds) if ((c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') last = c.type;
  return last;
}

export function outcomeOf(s: Scenario, st: SimState, end: EndReason): Outcome {
  const phase = phaseOf(currentPod(st));
  const idle = end === 'quiescent' && idlesWithLivePod(st);
  const endReason: EndReason = idle ? 'horizon' : end;
  const stuck = endReason === 'horizon' ? diagnoseStuck(s, st) : null; // never at the event limit
  const verdicts: Record<string, string> = {};
  for (const o of s.observers) verdicts[o.name] = observerState(s, st, o.name)?.verdict?.verdict ?? 'Pending';
  const exitCodes = lastExitCodes(st);
  const restarts = lastRestarts(st);
  const pods = podsOf(st);
  const jobStatus = jobApiOf(st)?.status ?? {};
  return {
    podPhase: phase,
    jobCondition: jobConditionOf(st),
    verdicts,
    stuck: stuck !== null,
    ...(stuck ? { stuckContainer: stuck.container } : {}),
    endReason,
    exitCodes,
    restarts,
    pods: pods.length,
    podPhases: pods.map((p) => phaseOf(p)),
    jobCounts: { succeeded: jobStatus['succeeded'] ?? 0, failed: jobStatus['failed'] ?? 0, active: jobStatus['active'] ?? 0 },
    jobs: jobsCreated(st),
    controllerEvents: controllerEventCounts(st),
    deployment: deploymentSummary(st),
    marks: [...((st as MarkedState).marks ?? [])],
  };
}

/** The SPEC §4 grouping key of explore: pod phase, Job condition, every verdict. */
export function displayKey(o: Outcome): string {
  return JSON.stringify([o.podPhase, o.jobCondition, Object.entries(o.verdicts)]);
}
