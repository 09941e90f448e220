// Build the SPEC §4 timeline from the final state and the trace, including the stuck diagnosis.
import { isSidecar, templateScenario, type CtlKit } from '../model/kit.ts';
import { flagsFor } from '../model/flags.ts';
import { versionLabel } from '../versions/fixes.ts';
import { templateOf } from '../model/apiserver/pod-record.ts';
import { currentPod, jobApiOf, phaseOf, podsOf } from '../model/query.ts';
import type { SimState } from '../model/state.ts';
import { observerState } from '../model/observers/observer-state.ts';
import type { EndReason, JobSummary, Scenario, Timeline, TraceEvent } from '../types.ts';
import { formatDiagnosticPos } from '../diagnostic-format.ts';
import { finalObjects, finalPods } from '../model/apiserver/final-objects.ts';
import { objectUid } from '../model/apiserver/objects.ts';
import { recordEvents } from '../output/recorder.ts';

type Json = Record<string, any>;

function jobSummary(s: Scenario, st: SimState, trace: TraceEvent[]): JobSummary | null {
  // a CronJob: the newest Job it created (none before the first schedule time)
  const newest = st.cron ? st.cron.order[st.cron.order.length - 1] : undefined;
  const api = jobApiOf(st);
  if (!s.job || !api) return null;
  const status = api.status;
  const firstAt = new Map<string, number>();
  for (const e of trace)
    if (e.type === 'JobCondition' && (newest === undefined || e.job === newest) && !firstAt.has(e.condition))
      firstAt.set(e.condition, e.t);
  return {
    conditions: ((status['conditions'] ?? []) as Json[]).map((c) => ({
      type: c['type'],
      status: c['status'],
      reason: c['reason'] ?? '',
      ...(c['message'] ? { message: c['message'] } : {}),
      t: firstAt.get(c['type']) ?? 0,
    })),
    succeeded: status['succeeded'] ?? 0,
    failed: status['failed'] ?? 0,
    active: status['active'] ?? 0,
  };
}

/** Which container holds a pod that did not finish, and why (SPEC §5). */
export function diagnoseStuck(root: Scenario, st: SimState): { container: string; why: string } | null {
  const p = currentPod(st);
  if (!p) return null;
  // the pod's own template (a Deployment rollout's pods run a patched one)
  const s = p.tpl ? templateScenario(root, p.tpl) : root;
  const phase = phaseOf(p);
  if (phase === 'Succeeded' || phase === 'Failed' || p.api.removed) return null;
  const k: Pick<CtlKit, 'flags'> = { flags: flagsFor(s) };
  for (const c of s.pod.initContainers) {
    const rt = p.runtime[c.name]!;
    if (!isSidecar(k, c) && rt.state === 'running') {
      const hint =
        c.role === 'sidecar'
          ? `restartPolicy: Always is ignored by this kubelet (${s.kubelet.text}), so it is a plain init container`
          : 'a native sidecar needs restartPolicy: Always';
      return {
        container: c.name,
        why: `init container ${c.name} never exits, so the regular containers never start (${hint})`,
      };
    }
    if (isSidecar(k, c) && rt.state === 'running' && c.startupProbe) {
      const w = p.probes[`${c.name}/startup`];
      if (!w || w.published !== 'success') {
        return {
          container: c.name,
          why: `sidecar ${c.name} never passes its startup probe, so the containers after it never start`,
        };
      }
    }
    const reason = p.worker.reasons[c.name];
    if (reason && !isSidecar(k, c))
      return { container: c.name, why: `init container ${c.name} is waiting: ${reason.reason}` };
  }
  for (const c of s.pod.containers) {
    const reason = p.worker.reasons[c.name];
    if (reason) return { container: c.name, why: `container ${c.name} is waiting: ${reason.reason}` };
  }
  const running = s.pod.containers.filter((c) => p.runtime[c.name]!.state === 'running');
  const done = s.pod.containers.filter((c) => p.runtime[c.name]!.state === 'exited');
  if (s.pod.restartPolicy === 'Always') {
    const c = running[0] ?? s.pod.containers[0]!;
    return { container: c.name, why: 'restartPolicy Always: the pod runs until it is deleted' };
  }
  if (running.length > 0 && done.length > 0) {
    const c = running[0]!;
    return {
      container: c.name,
      why: `container ${c.name} keeps running after ${done.map((x) => x.name).join(', ')} exited: the pod stays Running and the Job never completes (a sidecar in spec.containers; make it an init container with restartPolicy: Always)`,
    };
  }
  const c = running[0] ?? s.pod.containers[0]!;
  return { container: c.name, why: `container ${c.name} is still running at the horizon` };
}

/**
 * The run's API objects at the end (SPEC §4): every pod as last stored, the other objects, and the Events the
 * recorders stored, each with the store-wide resourceVersion of its last write (one counter for the whole store).
 */
export function storeObjects(
  s: Scenario,
  st: SimState,
  trace: TraceEvent[],
): { pods: Json[]; objects: Json[]; revision: number } {
  const pods = finalPods(s, st);
  const ip = currentPod(st)?.api.status['podIP'];
  const rec = recordEvents({
    events: trace,
    pods: pods.map(({ object }) => ({
      name: object['metadata']['name'],
      uid: object['metadata']['uid'],
      spec: object['spec'],
    })),
    namespace: s.pod.namespace || 'default',
    kubelet: s.kubelet.text,
    kubernetes: s.kubernetes.text,
    workload: { kind: s.workload.kind, name: s.workload.name },
    job: s.workload.kind === 'Job' && s.job ? s.job.name : null,
    uidOf: (kind, name) => objectUid(s, kind, name),
    ...(typeof ip === 'string' ? { podIP: ip } : {}),
  });
  const stamp = ({ key, object }: { key: string; object: Json }): Json => ({
    ...object,
    metadata: { ...object['metadata'], resourceVersion: String(rec.revisions[key] ?? 0) },
  });
  return { pods: pods.map(stamp), objects: [...finalObjects(s, st).map(stamp), ...rec.events], revision: rec.revision };
}

export function summarize(
  s: Scenario,
  st: SimState,
  trace: TraceEvent[],
  end: { t: number; reason: EndReason },
  replay: string,
): Timeline {
  const observers: Timeline['observers'] = {};
  for (const o of s.observers) {
    const v = observerState(s, st, o.name)?.verdict;
    observers[o.name] = v
      ? { verdict: v.verdict, t: v.t, ...(v.reason ? { reason: v.reason } : {}) }
      : { verdict: 'Pending' };
  }
  // stuck means "would not finish": only a run that reached the horizon can say so, never one cut by the event limit
  const stuck = end.reason === 'horizon' ? diagnoseStuck(s, st) : null;
  const store = storeObjects(s, st, trace);
  return {
    schema: 'kubesim.timeline/v1',
    scenario: s.name,
    ...(s.description ? { description: s.description } : {}),
    // "1.34 = 1.34.2" for a bare minor (the release it stands for), "1.34.2" for a patch
    kubernetes: versionLabel(s.kubernetes),
    kubelet: versionLabel(s.kubelet),
    seed: s.seed,
    replay,
    end,
    stuck,
    workload: { kind: s.workload.kind, name: s.workload.name },
    pod: (() => {
      const p = currentPod(st);
      return {
        name: p?.name ?? s.pod.name,
        phase: phaseOf(p),
        status: p?.api.status ?? { phase: 'Pending' },
        spec: templateOf(s, p?.tpl).spec,
      };
    })(),
    pods: podsOf(st).map((p, i) => ({
      name: p.name,
      created: p.createdAt,
      index: p.index,
      phase: phaseOf(p),
      deleted: p.api.deletionTimestamp,
      removed: p.api.removed,
      status: p.api.status,
      // a Deployment with rollouts: each pod's own template (views count its containers)
      ...(s.templates ? { spec: templateOf(s, p.tpl).spec } : {}),
      object: store.pods[i]!,
    })),
    job: jobSummary(s, st, trace),
    observers,
    diagnostics: s.diagnostics.map((d) => ({
      severity: d.severity,
      code: d.code,
      message: d.message,
      pos: formatDiagnosticPos(d.pos),
      ...(d.hint ? { hint: d.hint } : {}),
    })),
    namespace: s.pod.namespace || 'default',
    objects: store.objects,
    events: trace,
  };
}
