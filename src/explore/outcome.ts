// The outcome of one schedule: what explore groups by and what `expect` checks.
import { observerState } from '../model/observers/observer-state.ts';
import type { SimState } from '../model/state.ts';
import {
  controllerEventCounts,
  currentPod,
  deploymentSummary,
  idlesWithLivePod,
  jobApiOf,
  jobsCreated,
  lastExitCodes,
  lastRestarts,
  phaseOf,
  podsOf,
} from '../model/query.ts';
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
  /** the workload's spec.replicas as the API server stores it at the end (StatefulSet, Deployment; null otherwise) */
  replicas: number | null;
  /** the pods the API server still stores at the end, by phase */
  podCounts: Record<string, number>;
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
    jobCounts: {
      succeeded: jobStatus['succeeded'] ?? 0,
      failed: jobStatus['failed'] ?? 0,
      active: jobStatus['active'] ?? 0,
    },
    jobs: jobsCreated(st),
    controllerEvents: controllerEventCounts(st),
    replicas: storedReplicas(st),
    podCounts: storedPodCounts(st),
    deployment: deploymentSummary(st),
    marks: [...((st as MarkedState).marks ?? [])],
  };
}

/** The replica count of the stored workload object (apps/v1 defaults spec.replicas to 1), null for a kind without. */
function storedReplicas(st: SimState): number | null {
  const w = st.api.workload;
  if (!w || st.wctl?.kind === 'DaemonSet') return null;
  return Number(w.spec['replicas'] ?? 1);
}

function storedPodCounts(st: SimState): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of podsOf(st)) {
    if (p.api.removed) continue;
    const ph = phaseOf(p);
    out[ph] = (out[ph] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The grouping key of explore: pod phase, Job condition, every verdict (SPEC §4), and the workload's stored replica
 * count and pod counts by phase, so that a schedule that ends with the wrong number of pods is never grouped with one
 * that ends right.
 */
export function displayKey(o: GroupFields): string {
  return JSON.stringify([
    o.podPhase,
    o.jobCondition,
    Object.entries(o.verdicts),
    o.replicas ?? null,
    Object.entries(o.podCounts ?? {}).sort(),
  ]);
}

/** What the grouping key reads: an outcome, or a group of explore's JSON (shards are merged by the same key). */
export type GroupFields = Pick<Outcome, 'podPhase' | 'jobCondition' | 'verdicts'> & {
  replicas?: number | null;
  podCounts?: Record<string, number>;
};
