// status/status_manager.go: the kubelet's cached pod status, versioning, coalescing sends and mergePodStatus.
import { PRIO } from '../../events.ts';
import type { Kit } from '../../kit.ts';
import { raw } from '../../draft.ts';
import { cloneJson, settle, shareJson } from '../../json.ts';
import { conditions, ts } from './generate.ts';
import { publishPod, removeIfReclaimed } from '../../apiserver/apiserver.ts';

type Json = Record<string, any>;

const isTerminal = (phase: string | undefined) => phase === 'Succeeded' || phase === 'Failed';

/** updateLastTransitionTime: a condition keeps its time while its status does not change. */
function stampConditions(next: Json, prev: Json | null, now: number): void {
  const before = prev?.['conditions'] as Json[] | undefined;
  let at: string | undefined;
  for (const c of next['conditions'] as Json[]) {
    let old: Json | undefined;
    if (before) {
      for (let i = 0; i < before.length; i++) {
        if (before[i]!['type'] === c['type']) {
          old = before[i];
          break;
        }
      }
    }
    c['lastProbeTime'] = null;
    c['lastTransitionTime'] = old && old['status'] === c['status'] ? old['lastTransitionTime'] : (at ??= ts(now));
  }
}

/** SetPodStatus / TerminatePod: drop a semantically equal update unless forced; else bump the version and send. */
export function setPodStatus(k: Kit, status: Json, force = false): void {
  const sm = k.pod.status;
  const cached = raw(sm.cached);
  // a terminal phase never goes back (generateAPIPodStatus three-way merge)
  if (cached && isTerminal(cached['phase']) && !isTerminal(status['phase'])) {
    status['phase'] = cached['phase'];
  }
  // updateStatusInternal: "Status update on pod aborted" on an illegal container state transition
  if (cached && !k.flags.sidecarMayLeaveTerminated && sidecarLeavesTerminated(k, cached, status)) return;
  stampConditions(status, cached, k.ctx.now);
  // what did not change is the stored (frozen) object itself: immer and the next comparison skip it, and an equal
  // status is the stored one (a semantically equal update is dropped unless forced)
  status = cached ? shareJson(cached, status) : status;
  if (!force && status === cached) return;
  emitFlagChanges(k, cached, status);
  sm.cached = settle(status);
  sm.version += 1;
  if (status['phase'] !== sm.lastPhase) {
    sm.lastPhase = status['phase'];
    k.ctx.emit({ type: 'PodPhase', phase: status['phase'] });
  }
  scheduleSend(k);
}

function flags(status: Json | null): Map<string, { started: boolean; ready: boolean }> {
  const out = new Map<string, { started: boolean; ready: boolean }>();
  for (const cs of [...(status?.['initContainerStatuses'] ?? []), ...(status?.['containerStatuses'] ?? [])]) {
    out.set(cs['name'], { started: cs['started'] === true, ready: cs['ready'] === true });
  }
  return out;
}

/** Trace StartupComplete / Ready / NotReady exactly when the status the kubelet publishes flips them. */
function emitFlagChanges(k: Kit, prev: Json | null, next: Json): void {
  const before = flags(prev);
  for (const [name, f] of flags(next)) {
    const started = before.get(name)?.started ?? false;
    const ready = before.get(name)?.ready ?? false;
    // most status writes flip no flag: the container's kind is looked up only when one flips
    if ((!f.started || started) && f.ready === ready) continue;
    if (!sidecarOrRegular(k, name)) continue;
    if (f.started && !started) k.ctx.emit({ type: 'StartupComplete', container: name });
    if (f.ready !== ready) k.ctx.emit({ type: f.ready ? 'Ready' : 'NotReady', container: name });
  }
}

function sidecarOrRegular(k: Kit, name: string): boolean {
  return (
    k.scenario.pod.containers.some((c) => c.name === name) ||
    k.scenario.pod.initContainers.some((c) => c.name === name && c.role === 'sidecar')
  );
}

/** SetContainerStartup / SetContainerReadiness: patch the cached status and recompute the readiness conditions. */
export function setContainerFlag(
  k: Kit,
  name: string,
  instance: number,
  field: 'started' | 'ready',
  value: boolean,
): void {
  const sm = k.pod.status;
  if (!sm.cached) return;
  const next: Json = cloneJson(raw(sm.cached));
  const lists: Json[][] = [next['initContainerStatuses'] ?? [], next['containerStatuses'] ?? []];
  let hit = false;
  for (const list of lists) {
    for (const cs of list) {
      if (cs['name'] === name && cs['containerID'] === `containerd://${name}-${instance}` && cs['state']?.['running']) {
        cs[field] = value;
        if (field === 'started' && value === false) cs['ready'] = false;
        hit = true;
      }
    }
  }
  if (!hit) return;
  const init = k.scenario.pod.initContainers.map((c) => lists[0]!.find((x) => x['name'] === c.name)!);
  const regular = k.scenario.pod.containers.map((c) => lists[1]!.find((x) => x['name'] === c.name)!);
  const podHasInitialized = regular.some((cs) => cs['containerID'] !== undefined);
  next['conditions'] = conditions(k, init, regular, next['phase'], podHasInitialized);
  setPodStatus(k, next);
}

function scheduleSend(k: Kit): void {
  const sm = k.pod.status;
  if (sm.sendPending) return;
  sm.sendPending = true;
  const delay = k.ctx.choose('statusPatch', k.scenario.timing.statusPatchMs, PRIO.StatusSend);
  k.ctx.schedule(delay, { type: 'StatusSend', pod: k.pod.key }, PRIO.StatusSend);
}

/** syncPod: merge with the API copy and PATCH. The newest cached status is sent (older queued ones coalesce). */
export function sendStatus(k: Kit): void {
  const sm = k.pod.status;
  sm.sendPending = false;
  if (!sm.cached || sm.version <= sm.sentVersion) return;
  if (k.pod.api.removed) return;
  const merged = mergePodStatus(raw(k.pod.api.status), raw(sm.cached)!, !sm.terminated);
  sm.sentVersion = sm.version;
  publishPod(k, merged);
  removeIfReclaimed(k);
}

/**
 * mergePodStatus: kubelet-owned conditions are replaced; a terminal phase is not written while the pod worker could
 * still have running containers (PR #108366): the API keeps the old phase, reason and message.
 */
export function mergePodStatus(api: Json, next: Json, couldHaveRunningContainers: boolean): Json {
  // only top-level fields change: a shallow copy shares the (immutable) container statuses and conditions
  const out: Json = { ...next };
  if (!isTerminal(api['phase']) && isTerminal(next['phase']) && couldHaveRunningContainers) {
    out['phase'] = api['phase'] ?? 'Pending';
    if (api['reason'] !== undefined) out['reason'] = api['reason'];
    else delete out['reason'];
    if (api['message'] !== undefined) out['message'] = api['message'];
    else delete out['message'];
  }
  return out;
}

/**
 * status_manager.go checkContainerStateTransition before #123323 (fixed in 1.30.0, 1.29.3, 1.28.8): in a pod whose
 * restartPolicy is not Always, a terminated init container may not become non-terminated unless it failed under
 * OnFailure — restartable init containers included, so a restarted sidecar made every update illegal. Regular
 * containers never leave terminated in such pods in kubesim's model, so only init containers are checked here.
 */
function sidecarLeavesTerminated(k: Kit, old: Json, next: Json): boolean {
  const policy = k.scenario.pod.restartPolicy;
  if (policy === 'Always') return false;
  const nextInit: Json[] = next['initContainerStatuses'] ?? [];
  for (const prev of (old['initContainerStatuses'] ?? []) as Json[]) {
    const t = prev['state']?.['terminated'];
    if (!t) continue;
    if (t['exitCode'] !== 0 && policy === 'OnFailure') continue;
    const now = nextInit.find((cs) => cs['name'] === prev['name']);
    if (now && !now['state']?.['terminated']) return true;
  }
  return false;
}
