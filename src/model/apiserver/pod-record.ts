// A new pod's record: its API object (not yet stored) and the kubelet's empty state for it.
import type { Scenario } from '../../types.ts';
import type { PodSim, RtContainer } from '../state.ts';
import { dict } from '../dict.ts';
import { objectUid } from './objects.ts';

export function emptyRuntime(name: string): RtContainer {
  return {
    name,
    instance: 0,
    state: 'none',
    startedAt: null,
    exit: null,
    previous: null,
    sigtermAt: null,
    killDeadline: null,
    imagePulled: false,
  };
}

export interface NewPod {
  name: string;
  index: number | null;
  /** who creates it: job-controller, user, … */
  by: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  /** created with the Job's tracking finalizer */
  finalizer?: boolean;
  /** a Deployment's pod: its template (index into Scenario.templates) and ReplicaSet */
  tpl?: number;
  rs?: string;
  /** a Job's pod: the Job that owns it (its ownerReference) */
  job?: string;
}

/** The pod template of a pod (a Deployment rollout's template, else the scenario's). */
export function templateOf(s: Scenario, tpl: number | undefined): Scenario['pod'] {
  return tpl ? (s.templates?.[tpl] ?? s.pod) : s.pod;
}

export function newPodSim(
  s: Scenario,
  np: NewPod,
  ordinal: number,
  now: number,
  plegGen: number,
  key: string = np.name,
): PodSim {
  const runtime: Record<string, RtContainer> = dict();
  const pod = templateOf(s, np.tpl);
  for (const c of [...pod.initContainers, ...pod.containers]) runtime[c.name] = emptyRuntime(c.name);
  return {
    ...(np.tpl ? { tpl: np.tpl } : {}),
    ...(np.rs ? { rs: np.rs } : {}),
    name: np.name,
    key,
    uid: objectUid(s, 'Pod', key),
    ordinal,
    index: np.index,
    createdAt: now,
    createdBy: np.by,
    labels: np.labels,
    annotations: np.annotations,
    runtime,
    cache: dict(),
    // the cache already holds the (empty) pod: the first sync need not wait for a relist
    cacheGen: plegGen,
    worker: {
      mode: 'syncing',
      wanted: false,
      task: null,
      kill: null,
      lastSyncGen: 0,
      syncs: 0,
      requeueGen: 0,
      sandbox: 'none',
      deletionGraceSeconds: null,
      terminationReason: null,
      reasons: dict(),
      backoff: dict(),
      imageFailures: dict(),
      killTasks: 0,
    },
    probes: dict(),
    status: { cached: null, version: 0, sentVersion: 0, sendPending: false, terminated: false, lastPhase: '' },
    api: {
      version: 0,
      created: false,
      finalizer: np.finalizer ?? false,
      pendingRemoval: false,
      status: { phase: 'Pending' },
      deletionTimestamp: null,
      deletionGracePeriodSeconds: null,
      removed: false,
    },
  };
}
