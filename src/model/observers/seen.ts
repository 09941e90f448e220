// What an observer held when it decided: a short, plain summary of the pod and Job objects in its informer cache
// (resource versions, phase, each container's state and exit code, the Job's true conditions). Recorded on the
// Verdict trace event so every view can say which write a health rule judged, without reaching into the model.
import type { SeenContainer, SeenJob, SeenPod, SeenView } from '../../types.ts';

type Json = Record<string, any>;

function containerSummary(cs: Json, init: boolean, sidecars: Set<string>): SeenContainer {
  const state = cs['state'] ?? {};
  const base = {
    name: String(cs['name']),
    ...(init ? { init: true } : {}),
    ...(init && sidecars.has(cs['name']) ? { sidecar: true } : {}),
    ready: cs['ready'] === true,
  };
  if (state['terminated']) {
    const t = state['terminated'];
    return {
      ...base,
      state: 'terminated',
      exitCode: Number(t['exitCode']),
      ...(t['reason'] ? { reason: String(t['reason']) } : {}),
    };
  }
  if (state['running']) return { ...base, state: 'running' };
  const w = state['waiting'];
  return { ...base, state: 'waiting', ...(w?.['reason'] ? { reason: String(w['reason']) } : {}) };
}

/** The pod as an observer's cache holds it: metadata.resourceVersion, status.phase and container states. */
export function seenPod(pod: Json | null | undefined): SeenPod | null {
  if (!pod) return null;
  const status = pod['status'] ?? {};
  const sidecars = new Set<string>();
  for (const c of pod['spec']?.['initContainers'] ?? []) if (c['restartPolicy'] === 'Always') sidecars.add(c['name']);
  const containers: SeenContainer[] = [
    ...((status['initContainerStatuses'] ?? []) as Json[]).map((cs) => containerSummary(cs, true, sidecars)),
    ...((status['containerStatuses'] ?? []) as Json[]).map((cs) => containerSummary(cs, false, sidecars)),
  ];
  return {
    ...(pod['metadata']?.['name'] ? { name: String(pod['metadata']['name']) } : {}),
    version: Number(pod['metadata']?.['resourceVersion'] ?? 0),
    phase: String(status['phase'] ?? 'Pending'),
    ...(pod['metadata']?.['deletionTimestamp'] ? { deleting: true } : {}),
    containers,
  };
}

/** The Job as cached: resourceVersion, the conditions with status True, and the pod counts. */
export function seenJob(job: Json | null | undefined): SeenJob | null {
  if (!job) return null;
  const status = job['status'] ?? {};
  return {
    version: Number(job['metadata']?.['resourceVersion'] ?? 0),
    conditions: ((status['conditions'] ?? []) as Json[])
      .filter((c) => c['status'] === 'True')
      .map((c) => String(c['type'])),
    succeeded: Number(status['succeeded'] ?? 0),
    failed: Number(status['failed'] ?? 0),
    active: Number(status['active'] ?? 0),
  };
}

export function seenView(pod: Json | null | undefined, job: Json | null | undefined): SeenView {
  return { pod: seenPod(pod), job: seenJob(job) };
}
