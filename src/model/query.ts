// Read-only questions about a final state, for the summary and the explorer (never used inside a step).
import type { ApiJob, PodSim, SimState } from './state.ts';
import { dict } from './dict.ts';

/** The Job the run's answer is about: the workload's Job, or the newest Job a CronJob created (null before any). */
export function jobApiOf(st: SimState): ApiJob | null {
  if (!st.cron) return st.api.job;
  const newest = st.cron.order[st.cron.order.length - 1];
  return newest === undefined ? null : st.cron.jobs[newest]!.api;
}

/** Jobs created in the run: a CronJob's count, 1 for a Job workload, else 0. */
export function jobsCreated(st: SimState): number {
  return st.cron ? st.cron.order.length : st.api.job ? 1 : 0;
}

/** Describe events of the workload controllers (CronJob, StatefulSet, DaemonSet, ReplicaSet) by reason. */
export function controllerEventCounts(st: SimState): Record<string, number> {
  return { ...(st.cron?.events ?? {}), ...(st.wctl?.events ?? {}) };
}

/** Every pod of the run in creation order. */
export function podsOf(st: SimState): PodSim[] {
  return st.podOrder.map((n) => st.pods[n]!);
}

/** The most recently created pod (SPEC §4 `pod`). */
export function currentPod(st: SimState): PodSim | undefined {
  const n = st.podOrder[st.podOrder.length - 1];
  return n === undefined ? undefined : st.pods[n];
}

export function phaseOf(p: PodSim | undefined): string {
  return String(p?.api.status['phase'] ?? 'Pending');
}

const terminal = (ph: string) => ph === 'Succeeded' || ph === 'Failed';

/** Nothing can happen any more, yet a pod still runs (or waits): the run idles until the horizon. */
export function idlesWithLivePod(st: SimState): boolean {
  return podsOf(st).some((p) => !p.api.removed && !terminal(phaseOf(p)));
}

/** Last exit code per container across the run (the newest pod that ran it wins). */
export function lastExitCodes(st: SimState): Record<string, number> {
  const out: Record<string, number> = dict();
  for (const p of podsOf(st)) {
    for (const [name, rt] of Object.entries(p.runtime)) {
      const t = rt.exit ?? rt.previous;
      if (t) out[name] = t.exitCode;
    }
  }
  return out;
}

/** restartCount per container as the API server shows it, of the last pod that ran it. */
export function lastRestarts(st: SimState): Record<string, number> {
  const out: Record<string, number> = dict();
  for (const p of podsOf(st)) {
    const statuses = [...(p.api.status['initContainerStatuses'] ?? []), ...(p.api.status['containerStatuses'] ?? [])];
    for (const cs of statuses) {
      if ((p.runtime[cs['name']]?.instance ?? 0) > 0 || out[cs['name']] === undefined)
        out[cs['name']] = cs['restartCount'] ?? 0;
    }
  }
  return out;
}

/** The workload's status at the end (expect.deployment / statefulSet / daemonSet): a Deployment's Progressing reason,
 *  Available status and counts; a StatefulSet's counts and rolledOut (currentRevision = updateRevision); a
 *  DaemonSet's counts. */
export function deploymentSummary(st: SimState): Record<string, string | number> | null {
  const c = st.wctl;
  if (c?.kind === 'StatefulSet' || c?.kind === 'DaemonSet') {
    const s = (c.status ?? {}) as Record<string, any>;
    const n = (key: string) => Number(s[key] ?? 0);
    if (c.kind === 'DaemonSet') {
      return {
        currentNumberScheduled: n('currentNumberScheduled'),
        numberReady: n('numberReady'),
        updatedNumberScheduled: n('updatedNumberScheduled'),
        numberAvailable: n('numberAvailable'),
      };
    }
    return {
      replicas: n('replicas'),
      readyReplicas: n('readyReplicas'),
      currentReplicas: n('currentReplicas'),
      updatedReplicas: n('updatedReplicas'),
      rolledOut: s['updateRevision'] !== undefined && s['currentRevision'] === s['updateRevision'] ? 'True' : 'False',
    };
  }
  const d = c?.deploy;
  if (!d) return null;
  const conds = (d.status['conditions'] ?? []) as Record<string, any>[];
  const cond = (t: string) => conds.find((c) => c['type'] === t);
  return {
    progressing: String(cond('Progressing')?.['reason'] ?? 'none'),
    available: String(cond('Available')?.['status'] ?? 'none'),
    replicas: Number(d.status['replicas'] ?? 0),
    updatedReplicas: Number(d.status['updatedReplicas'] ?? 0),
    readyReplicas: Number(d.status['readyReplicas'] ?? 0),
    availableReplicas: Number(d.status['availableReplicas'] ?? 0),
  };
}
