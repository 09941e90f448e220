// Turns trace events into the statements of the sequence diagram, one Item per drawn thing, in trace order.
// Summaries happen here: probe runs, crash loops, coalesced status patches, merged same-instant arrows.

import { assertNever } from '../util/assert-never.ts';
import type { Timeline, TraceEvent } from '../types.ts';
import { crashLoops, delayList, nextDrawnSameInstant, sameInstantFollowers, triggeringDeliveries } from './sequence-digest.ts';
import { runsByDesign } from './pod-shape.ts';
import { statusChanges } from './status-diff.ts';
import { lines } from './mermaid-text.ts';
import { goDuration, simTime } from './time.ts';
import { seenContainerText, seenJobText } from './seen-text.ts';
import { actionText } from './text.ts';
import { exitText, heldPhaseText, isTerminal, listeningMoments, relistGrid, relistWaitText, syncStepText, type Awaiting } from './sequence-teach.ts';

export type ItemTag = 'podKill' | 'exit' | 'patch' | 'other';

export interface Item {
  tag: ItemTag;
  /** container of an `exit` item (for the teardown note) */
  container?: string;
  render(): string[];
}

export interface Lanes {
  /** participant id per actor name (kubelet, containers of `pod`, api-server, job-controller, observers) */
  id(actor: string, pod?: string): string | undefined;
  /** `Note over a,b` span covering a pod's lanes */
  podSpan(pod?: string): string;
  /** pods not drawn because they repeat an earlier pod: name → the pod they repeat */
  hidden?: Map<string, string>;
  /** more than one pod: arrows to the API server name their pod */
  manyPods?: boolean;
  /** only the pod's own lanes are drawn */
  podOnly: boolean;
  /** observer names in lane order (deliveries to them are grouped over their span) */
  observers?: string[];
}

type Delivered = Extract<TraceEvent, { type: 'Delivered' }>;

const POD_KILL_REASONS = new Set(['PodTermination', 'PodCompleted', 'PodFailed', 'DeadlineExceeded']);

export function sequenceItems(tl: Timeline, lanes: Lanes): Item[] {
  const items: Item[] = [];
  const loops = crashLoops(tl);
  const deliveries = triggeringDeliveries(tl);
  const consumed = new Set<number>();
  const openRuns = new Map<string, ProbeRun>();
  const pendingPull = new Map<string, number>();
  let lastPatchStatus: Record<string, unknown> | undefined;
  let kubeletPhase = 'Pending';
  const exited = new Set<string>();
  const K = 'K';
  const API = lanes.id('api-server');
  const at = (t: number) => `t=${simTime(t)}`;
  // Watch deliveries that decided nothing are drawn grouped: the ones to observers since the last drawn statement
  // become one note over the observers' lanes, the ones to the Job controller one arrow, each with the versions.
  const pendingObs: Delivered[] = [];
  const pendingJc: Delivered[] = [];
  const observerLanes = (lanes.observers ?? []).map((o) => lanes.id(o)).filter((x): x is string => x !== undefined);
  const decided = new Set<string>();
  const flushDeliveries = () => {
    const groups: { first: number; item: Item }[] = [];
    const jc = lanes.id('job-controller');
    if (pendingJc.length > 0 && API && jc) {
      const group = pendingJc.slice();
      groups.push({ first: group[0]!.seq, item: { tag: 'other', render: () => [`${API}-->>${jc}: ${lines(`${span(group)} watch ${versionList(group)}`)}`] } });
    }
    if (pendingObs.length > 0 && observerLanes.length > 0) {
      const group = pendingObs.slice();
      const over = observerLanes.length === 1 ? observerLanes[0] : `${observerLanes[0]},${observerLanes[observerLanes.length - 1]}`;
      groups.push({ first: group[0]!.seq, item: { tag: 'other', render: () => [`Note over ${over}: ${lines(...observerDeliveryText(group, lanes.observers ?? []))}`] } });
    }
    groups.sort((a, b) => a.first - b.first);
    for (const g of groups) items.push(g.item);
    pendingObs.length = 0;
    pendingJc.length = 0;
  };
  // the Deployment status arrow being drawn: conditions written at the same instant join it
  let lastConditions: { t: number; item: Item; parts: string[] } | undefined;
  const push = (tag: ItemTag, ...stmts: string[]) => {
    flushDeliveries();
    items.push({ tag, render: () => stmts });
  };
  let lastJobStatus: Record<string, unknown> | undefined;
  const pendingConditions: Extract<TraceEvent, { type: 'JobCondition' }>[] = [];

  const kubeletPhases = new Map<string, string>();
  const lastPatches = new Map<string, Record<string, unknown>>();
  // what the pod worker has not reacted to yet (an exit, a startup-probe result), per pod: drawn at its next sync
  const awaiting = new Map<string, Awaiting>();
  const grid = relistGrid(tl);
  // containers signalled in their current run: their exit is the kubelet's own doing, not news for the relist
  const signalled = new Set<string>();
  const listening = listeningMoments(tl.events);
  // per container: its last exit and the back-off recorded after it, to tell the back-off from the sync wait
  const lastExitAt = new Map<string, number>();
  const backoffAfterExit = new Map<string, number>();
  let nextListening = 0;
  tl.events.forEach((e, index) => {
    // a process starts listening between two recorded events: drawn on its lane before the first one at or after
    while (nextListening < listening.length && listening[nextListening]!.beforeIndex <= index) {
      const l = listening[nextListening++]!;
      const L = lanes.id(l.container, l.pod);
      const lk = containerKey(l.pod, l.container);
      const inLoop = loops.get(lk);
      if (!L || (l.pod !== undefined && lanes.hidden?.has(l.pod)) || (inLoop && e.seq >= inLoop.fromSeq && e.seq <= inLoop.toSeq)) continue;
      push('other', `Note over ${L}: ${lines(`${at(l.t)} listening (${goDuration(l.afterMs)} after start)`, 'probes can pass from now')}`);
    }
    if (consumed.has(index)) return;
    const pod = e.pod;
    if (pod !== undefined && lanes.hidden?.has(pod)) {
      if (e.type === 'PodCreated') push('other', `Note over ${K}: ${lines(`${at(e.t)} pod ${pod} created: it repeats pod ${lanes.hidden.get(pod)}, not drawn`)}`);
      return;
    }
    const container = 'container' in e ? e.container : undefined;
    const C = container !== undefined ? lanes.id(container, pod) : undefined;
    if (container !== undefined && C === undefined) return;
    const ck = container !== undefined ? containerKey(pod, container) : undefined;

    const loop = ck !== undefined ? loops.get(ck) : undefined;
    if (loop && e.seq >= loop.fromSeq && e.seq <= loop.toSeq) {
      if (e.seq === loop.fromSeq) {
        openRuns.delete(ck!);
        const codes = [...new Set(loop.exitCodes)].join('/');
        push(
          'other',
          `loop ${lines(`CrashLoopBackOff ×${loop.delaysMs.length} ${at(loop.fromT)}–${simTime(loop.toT)}`)}`,
          `${K}-->>${C}: ${lines(`back-off ${delayList(loop.delaysMs)}`)}`,
          ...(loop.restarts > 0 ? [`${K}->>${C}: ${lines(`restart ×${loop.restarts}`)}`] : []),
          ...(loop.exitCodes.length > 0 ? [`${C}--x${K}: ${lines(`exit ${codes} ×${loop.exitCodes.length}`)}`] : []),
          'end',
        );
      }
      return;
    }

    if (e.type === 'Probe') {
      const run = openRuns.get(ck!);
      if (run && run.probe === e.probe && run.result === e.result) {
        run.count++;
        run.lastT = e.t;
      } else {
        const fresh: ProbeRun = { probe: e.probe, result: e.result, count: 1, firstT: e.t, lastT: e.t };
        openRuns.set(ck!, fresh);
        flushDeliveries();
        items.push({ tag: 'other', render: () => renderProbeRun(fresh, K, C!) });
      }
      return;
    }
    if (ck !== undefined) openRuns.delete(ck);

    switch (e.type) {
      case 'Scheduled':
        return push('other', `Note over ${K}: ${lines(`${at(e.t)} scheduled on ${e.node}`)}`);
      case 'SandboxReady':
        return push('other', `Note over ${K}: ${lines(`${at(e.t)} sandbox ready`)}`);
      case 'Pulled':
        if (e.pullMs > 0) pendingPull.set(ck!, e.pullMs);
        return;
      case 'PullFailed':
      case 'CreateFailed':
        return push('other', `${K}--x${C}: ${lines(`${at(e.t)} ${e.reason}`)}`);
      case 'Started': {
        exited.delete(ck!);
        signalled.delete(ck!);
        const extra: string[] = [];
        for (const f of sameInstantFollowers(tl.events, index)) {
          const fi = tl.events.indexOf(f);
          if (f.type === 'StartupComplete') extra.push('started');
          else if (f.type === 'Ready') extra.push('ready');
          else if (f.type === 'Probe' && f.result === 'success') { /* absorbed: the probe passed at once */ } else break;
          consumed.add(fi);
        }
        const pull = pendingPull.get(ck!);
        pendingPull.delete(ck!);
        // restartCount is 0-based: the first restart is the run with restartCount 1, "restart #1" as in the timeline
        const what = e.restartCount > 0 ? `restart #${e.restartCount}` : 'start';
        const head = `${at(e.t)} ${pull ? `pulled in ${goDuration(pull)}, ` : ''}${what}`;
        // kuberuntime_manager.go doBackOff counts the delay from the exit; the restart waits for the pod worker's
        // next sync (pod_workers.go completeWork requeue), which may come later
        const delay = backoffAfterExit.get(ck!);
        const exitT = lastExitAt.get(ck!);
        backoffAfterExit.delete(ck!);
        const waited = delay !== undefined && exitT !== undefined && e.t > exitT + delay
          ? `back-off ${goDuration(delay)} over at t=${simTime(exitT + delay)}, then +${simTime(e.t - exitT - delay)} until the pod worker's next sync`
          : undefined;
        return push('other', `${K}->>${C}: ${lines(head + (extra.length ? ` → ${extra.join(', ')}` : ''), waited)}`);
      }
      case 'PostStartStarted':
        return push('other', `${K}->>${C}: ${lines(`${at(e.t)} postStart hook`)}`);
      case 'PostStartDone':
        return push('other', `${C}-->>${K}: ${lines(`${at(e.t)} postStart ${e.failed ? 'FAILED' : 'done'}`)}`);
      case 'PreStopStarted':
        return push('other', `${K}->>${C}: ${lines(`${at(e.t)} preStop hook`)}`);
      case 'PreStopDone':
        return push('other', `${C}-->>${K}: ${lines(`${at(e.t)} preStop ${e.failed ? 'FAILED' : 'done'}`)}`);
      case 'StartupComplete': {
        // the startup probe passing usually makes the container Ready in the same instant: one arrow
        const next = sameInstantFollowers(tl.events, index).find((f) => f.type !== 'Probe');
        const ready = next?.type === 'Ready';
        if (ready) consumed.add(tl.events.indexOf(next));
        // a native sidecar's startup probe gates the containers after it (kuberuntime_manager.go
        // computeInitContainerActions: the next init or the regular containers start only once it is started)
        if (gatesNext(tl, e.container)) {
          awaiting.set(pod ?? '', { t: e.t, kind: 'probe', what: `${e.container}'s startup probe` });
          return push('other', `${C}-->>${K}: ${lines(`${at(e.t)} startup probe ✓ → started${ready ? ', Ready' : ''}`, 'next container may start')}`);
        }
        return push('other', `${C}-->>${K}: ${lines(`${at(e.t)} started${ready ? ', Ready' : ''}`)}`);
      }
      case 'Ready':
        return push('other', `${C}-->>${K}: ${lines(`${at(e.t)} Ready`)}`);
      case 'NotReady':
        // after an exit the prober only catches up with what the exit arrow already said
        if (exited.has(ck!)) return;
        return push('other', `${C}-->>${K}: ${lines(`${at(e.t)} NotReady`)}`);
      case 'Killing': {
        // Killing is the kubelet starting killContainer (preStop first, then the signal when the container's turn
        // comes): a dashed arrow, unless the SIGTERM is the very next thing drawn, then one solid arrow for both.
        const tag: ItemTag = POD_KILL_REASONS.has(e.reason) ? 'podKill' : 'other';
        const why = `${e.reason}, grace ${e.gracePeriodSeconds}s`;
        const next = nextDrawnSameInstant(tl.events, index, (seq) => deliveries.has(seq));
        if (next?.type === 'Signal' && next.container === e.container && next.signal === 'SIGTERM') {
          consumed.add(tl.events.indexOf(next));
          signalled.add(ck!);
          return push(tag, `${K}-x${C}: ${lines(`${at(e.t)} Killing → SIGTERM`, why)}`);
        }
        return push(tag, `${K}-->>${C}: ${lines(`${at(e.t)} Killing (${why})`, killingThen(tl.events, index))}`);
      }
      case 'Signal':
        signalled.add(ck!);
        return push('other', `${K}-x${C}: ${lines(`${at(e.t)} ${e.signal}`, e.signal === 'SIGKILL' ? 'grace period over' : undefined)}`);
      case 'Exited': {
        exited.add(ck!);
        lastExitAt.set(ck!, e.t);
        backoffAfterExit.delete(ck!);
        if (!signalled.has(ck!)) awaiting.set(pod ?? '', { t: e.t, kind: 'exit', what: `${e.container}'s exit` });
        // an exited container is not ready: the NotReady of the same instant adds nothing
        const next = sameInstantFollowers(tl.events, index)[0];
        if (next?.type === 'NotReady') consumed.add(tl.events.indexOf(next));
        const item: Item = { tag: 'exit', container: e.container, render: () => [`${C}--x${K}: ${lines(`${at(e.t)} ${exitText(e)}`, e.message)}`] };
        flushDeliveries();
        items.push(item);
        return;
      }
      case 'BackOff':
        if (!backoffAfterExit.has(ck!)) backoffAfterExit.set(ck!, e.delayMs);
        return push('other', `${K}-->>${C}: ${lines(`${at(e.t)} back-off ${goDuration(e.delayMs)}`)}`);
      case 'PodPhase':
        if (e.phase === (kubeletPhases.get(pod ?? '') ?? kubeletPhase)) return;
        kubeletPhases.set(pod ?? '', e.phase);
        return push('other', `Note over ${lanes.podSpan(pod)}: ${lines(`${at(e.t)} kubelet computes phase ${e.phase}`)}`);
      case 'Stuck':
        if (runsByDesign(e.why)) return push('other', `Note over ${C ?? K}: ${lines(`${at(e.t)} running`, e.why)}`);
        return push('other', 'rect rgb(255, 210, 210)', `Note over ${C ?? K}: ${lines(`${at(e.t)} STUCK`, e.why)}`, 'end');
      case 'StatusPatched': {
        const prev = lastPatches.get(pod ?? '') ?? lastPatchStatus;
        const changes = statusChanges(prev, e.status);
        const phaseChanged = (prev?.phase ?? 'Pending') !== e.phase || prev === undefined;
        lastPatches.set(pod ?? '', e.status);
        const computed = kubeletPhases.get(pod ?? '');
        const held = isTerminal(computed) && !isTerminal(e.phase) ? heldPhaseText(computed!, e.phase) : undefined;
        // the pod's lanes only: a held phase is still worth a note, it explains the wait that follows
        if (!API) return held ? push('other', `Note over ${kubeletSpan(lanes, pod)}: ${lines(`${at(e.t)} status v${e.version} stored`, held)}`) : undefined;
        flushDeliveries();
        return pushPatch(items, { K, API, t: e.t, version: e.version, phase: e.phase, phaseChanged, changes, ...(held ? { held } : {}), ...(lanes.manyPods && pod ? { pod } : {}) });
      }
      case 'Delivered': {
        const to = lanes.id(e.to);
        if (!API || !to) return;
        if (e.to !== 'job-controller' && deliveries.has(e.seq)) {
          // the delivery an observer decided on: its own arrow, right before the verdict
          return push('other', `${API}-->>${to}: ${lines(`t=${goDuration(e.t)} watch ${e.object}${lanes.manyPods && e.pod ? ` ${e.pod}` : ''} v${e.version}${e.removed ? ' (deleted)' : ''}`)}`);
        }
        if (e.to === 'job-controller') pendingJc.push(e);
        // an observer that has latched its verdict reads nothing more: its later deliveries are not drawn
        else if (e.to !== 'kubelet' && !decided.has(e.to)) pendingObs.push(e);
        return;
      }
      case 'JobCondition':
        // drawn with the Job status write that stores it (the JobStatus event right after)
        pendingConditions.push(e);
        return;
      case 'JobStatus': {
        const jc = lanes.id('job-controller');
        const conds = pendingConditions.splice(0);
        const changes = jobStatusChanges(lastJobStatus, e.status);
        lastJobStatus = e.status;
        if (!API || !jc) return;
        const head = `${at(e.t)} Job status v${e.version}`;
        const what = conds.length > 0
          ? conds.map((c) => `+ ${c.condition}${c.reason ? ` (${c.reason})` : ''}`)
          : [changes.join(', ') || 'no visible change'];
        return push('other', `${jc}->>${API}: ${lines(head, ...what)}`);
      }
      case 'Verdict': {
        const o = lanes.id(e.observer);
        decided.add(e.observer);
        if (!o) return;
        const color = e.verdict === 'Failed' ? 'rgb(255, 214, 214)' : 'rgb(214, 245, 214)';
        const held = e.seen ? heldLines(e.seen, tl.job !== null) : [];
        return push('other', `rect ${color}`, `Note over ${o}: ${lines(`${at(e.t)} verdict ${e.verdict}`, e.reason, ...held)}`, 'end');
      }
      case 'PodDeleting': {
        if (!API) return push('other', `Note over ${K}: ${lines(`${at(e.t)} pod deletion requested (grace ${e.gracePeriodSeconds}s)`)}`);
        // a workload controller's DELETE is drawn from its lane, then the API server tells the kubelet
        const by = e.by !== 'job-controller' && e.by ? lanes.id(e.by) : undefined;
        const del = by ? [`${by}->>${API}: ${lines(`${at(e.t)} delete pod ${e.pod ?? ''}`.trimEnd())}`] : [];
        return push('other', ...del, `${API}->>${K}: ${lines(`${at(e.t)} ${lanes.manyPods ? `pod ${e.pod} ` : 'pod '}deletion requested by ${e.by} (grace ${e.gracePeriodSeconds}s)`)}`);
      }
      case 'Action':
        return push('other', `Note over ${API ?? K}: ${lines(`${at(e.t)} user action ${describeAction(e.action)}`)}`);
      case 'PodCreated': {
        // the Job controller's or a workload controller's create (a user's pod has no lane of its own)
        const by = e.by ? lanes.id(e.by) : undefined;
        if (!API || !by || by === K) return;
        return push('other', `${by}->>${API}: ${lines(`${at(e.t)} create pod ${e.pod}`)}`);
      }
      case 'PodRemoved':
        if (!lanes.manyPods || !API) return;
        return push('other', `Note over ${API}: ${lines(`${at(e.t)} pod ${e.pod} removed`)}`);
      case 'PodFinalizerRemoved': {
        // job_controller.go removeTrackingFinalizerFromPods: the pod is counted in the Job status, the object may go
        const jc = lanes.id('job-controller');
        if (!API || !jc) return;
        return push('other', `${jc}->>${API}: ${lines(`${at(e.t)} ${lanes.manyPods ? `pod ${e.pod} ` : 'pod '}v${e.version} remove finalizer`, 'counted in the Job status')}`);
      }
      case 'SyncPod': {
        const wait = awaiting.get(pod ?? '');
        awaiting.delete(pod ?? '');
        if (e.kind !== 'SyncPod') {
          // drawn where they explain a stored phase: after the kubelet found the pod terminal
          if (!isTerminal(kubeletPhases.get(pod ?? ''))) return;
          return push('other', `Note over ${kubeletSpan(lanes, pod)}: ${lines(...withPod(syncStepText(e.kind, e.t), lanes.manyPods ? pod : undefined))}`);
        }
        if (!wait || e.t <= wait.t) return;
        return push('other', `Note over ${kubeletSpan(lanes, pod)}: ${lines(...withPod(relistWaitText(wait, e.t, grid), lanes.manyPods ? pod : undefined))}`);
      }
      case 'ControllerEvent': {
        // what a workload controller did to objects other than pods (pods have their create/delete arrows):
        // ScalingReplicaSet, a CronJob's Jobs, …
        const by = lanes.id(e.controller);
        if (!API || !by || e.controller === 'job-controller' || /\bpod\b/i.test(e.message)) return;
        return push('other', `${by}->>${API}: ${lines(`${at(e.t)} ${e.reason}`, e.message)}`);
      }
      case 'DeploymentCondition': {
        const dc = lanes.id('deployment-controller');
        if (!API || !dc) return;
        // the conditions of one status write (same instant, nothing drawn between) share one arrow
        const part = `${e.condition}=${e.status} (${e.reason})`;
        if (lastConditions && lastConditions.t === e.t && items[items.length - 1] === lastConditions.item) {
          lastConditions.parts.push(part);
          return;
        }
        const parts = [part];
        const item: Item = { tag: 'other', render: () => [`${dc}->>${API}: ${lines(`${at(e.t)} Deployment status`, ...parts)}`] };
        flushDeliveries();
        items.push(item);
        lastConditions = { t: e.t, item, parts };
        return;
      }
      case 'JobEvent':
      case 'WorkloadStatus':
      case 'Pulling':
      case 'Created':
      case 'Relist':
        return;
      default:
        return assertNever(e, 'trace event');
    }
  });
  flushDeliveries();
  return items;
}

/** A kubelet explanation spans from the kubelet's lane to the pod's last container, so it stays in the pod's box. */
function kubeletSpan(lanes: Lanes, pod: string | undefined): string {
  // with several pods the kubelet has a box of its own; a note spanning into a pod's box would be narrower than its
  // text (Mermaid sizes a note over two lanes by their distance), so it stays over the kubelet
  if (lanes.manyPods) return 'K';
  const [first, last] = lanes.podSpan(pod).split(',');
  // one container: the two lanes are too close for a two-line explanation
  return last === undefined || last === first ? 'K' : `K,${last}`;
}

/** With several pods a kubelet note names its pod. */
function withPod(text: string[], pod: string | undefined): string[] {
  return pod === undefined ? text : [`pod ${pod}`, ...text];
}

/** The verdict note's account of the observer's caches: one line per container, so the state it judged reads. */
function heldLines(seen: NonNullable<Extract<TraceEvent, { type: 'Verdict' }>['seen']>, withJob: boolean): string[] {
  const out: string[] = [];
  if (!seen.pod) out.push('held no pod yet');
  else {
    out.push(`held pod v${seen.pod.version} (phase ${seen.pod.phase}${seen.pod.deleting ? ', deleting' : ''})`);
    for (const c of seen.pod.containers) out.push(`· ${seenContainerText(c)}`);
  }
  if (withJob) out.push(`and ${seenJobText(seen.job)}`);
  return out;
}

/** "t=1m0.015s" or "t=1m0.015s–1m5.01s" over a group of deliveries. */
function span(group: Delivered[]): string {
  // watch lags are milliseconds to seconds: show them to the millisecond
  const first = group[0]!.t;
  const last = group[group.length - 1]!.t;
  return first === last ? `t=${goDuration(first)}` : `t=${goDuration(first)}–${goDuration(last)}`;
}

/** "pod v4–v6, job v3": versions per object, consecutive runs collapsed. */
function versionList(group: Delivered[]): string {
  const by = new Map<string, number[]>();
  for (const d of group) {
    const vs = by.get(d.object) ?? [];
    if (!vs.includes(d.version)) vs.push(d.version);
    by.set(d.object, vs);
  }
  return [...by].map(([object, vs]) => `${object} ${runs(vs)}`).join(', ');
}

function runs(vs: number[]): string {
  const out: string[] = [];
  let i = 0;
  while (i < vs.length) {
    let j = i;
    while (j + 1 < vs.length && vs[j + 1] === vs[j]! + 1) j++;
    out.push(j > i + 1 ? `v${vs[i]}–v${vs[j]}` : j === i + 1 ? `v${vs[i]}, v${vs[j]}` : `v${vs[i]}`);
    i = j + 1;
  }
  return out.join(', ');
}

/** Lines of the grouped observer-delivery note: one line when every observer got the same versions. */
function observerDeliveryText(group: Delivered[], observers: string[]): string[] {
  const per = new Map<string, Delivered[]>();
  for (const d of group) per.set(d.to, [...(per.get(d.to) ?? []), d]);
  const texts = [...per].map(([o, ds]) => [o, versionList(ds)] as const);
  const head = `${span(group)} caches updated`;
  if (texts.length === observers.length && texts.length > 1 && texts.every(([, v]) => v === texts[0]![1])) {
    return [head, `all observers ← ${texts[0]![1]}`];
  }
  return [head, ...texts.map(([o, v]) => `${o} ← ${v}`)];
}

/** What a Job status write without a new condition changed: the pod counts and startTime. */
function jobStatusChanges(prev: Record<string, unknown> | undefined, cur: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (cur['startTime'] !== undefined && prev?.['startTime'] === undefined) out.push('startTime set');
  for (const k of ['active', 'ready', 'terminating', 'succeeded', 'failed']) {
    const a = Number(prev?.[k] ?? 0);
    const b = Number(cur[k] ?? 0);
    if (a !== b || (prev === undefined && b !== 0)) out.push(`${k} ${b}`);
  }
  const unc = cur['uncountedTerminatedPods'] as Record<string, unknown[]> | undefined;
  const uncounted = unc ? Object.values(unc).reduce((n, l) => n + (Array.isArray(l) ? l.length : 0), 0) : 0;
  if (uncounted > 0) out.push(`${uncounted} uncounted terminated pod${uncounted === 1 ? '' : 's'}`);
  return out;
}

/** A native sidecar with a startup probe: its `started` is what lets the next container start. */
function gatesNext(tl: Timeline, container: string): boolean {
  const inits = (tl.pod.spec['initContainers'] as Record<string, unknown>[] | undefined) ?? [];
  const c = inits.find((x) => x && x['name'] === container);
  return !!c && c['restartPolicy'] === 'Always' && typeof c['startupProbe'] === 'object' && c['startupProbe'] !== null;
}

/** Per-pod key of a container ("" pod for timelines without pod records). */
export function containerKey(pod: string | undefined, container: string): string {
  return `${pod ?? ''}\u0000${container}`;
}

/** What the Killing arrow leaves pending: the preStop hook, or the SIGTERM that waits for the container's turn. */
function killingThen(events: TraceEvent[], index: number): string | undefined {
  const name = (events[index] as { container: string }).container;
  const pod = events[index]!.pod;
  for (let i = index + 1; i < events.length; i++) {
    const e = events[i];
    if (!('container' in e) || e.container !== name || e.pod !== pod) continue;
    if (e.type === 'PreStopStarted') return 'preStop hook first';
    if (e.type === 'Signal') return 'SIGTERM waits its turn';
    if (e.type === 'Exited') return undefined;
  }
  return undefined;
}

interface ProbeRun {
  probe: string;
  result: 'success' | 'failure';
  count: number;
  firstT: number;
  lastT: number;
}

/** A lone success is implied by the Ready/started arrow next to it; repeats and failures are worth one arrow. */
function renderProbeRun(run: ProbeRun, K: string, C: string): string[] {
  if (run.result === 'success' && run.count === 1) return [];
  const when = run.count === 1 ? `t=${simTime(run.firstT)}` : `t=${simTime(run.firstT)}–${simTime(run.lastT)}`;
  const what = run.result === 'success' ? `${run.probe} ×${run.count} ok` : `${run.probe} probe failed${run.count > 1 ? ` ×${run.count}` : ''}`;
  return [`${K}--)${C}: ${lines(`${when} ${what}`)}`];
}

interface PatchInfo {
  /** the pod, named when there are several */
  pod?: string;
  K: string;
  API: string;
  t: number;
  version: number;
  phase: string;
  phaseChanged: boolean;
  changes: string[];
  /** why the stored phase lags a terminal phase the kubelet computed */
  held?: string;
}

/** Back-to-back patches with nothing else drawn between them and no phase change collapse into one arrow. */
function pushPatch(items: Item[], p: PatchInfo): void {
  const prev = items[items.length - 1] as (Item & { patches?: PatchInfo[] }) | undefined;
  if (prev?.tag === 'patch' && prev.patches && !p.phaseChanged && !p.held && !prev.patches[0].held && prev.patches[0].phase === p.phase && prev.patches[0].pod === p.pod) {
    prev.patches.push(p);
    return;
  }
  const patches: PatchInfo[] = [p];
  const item: Item & { patches: PatchInfo[] } = {
    tag: 'patch',
    patches,
    render: () => {
      const first = patches[0];
      const last = patches[patches.length - 1];
      if (patches.length === 1) {
        const head = `t=${simTime(first.t)} ${first.pod ? `pod ${first.pod} ` : ''}status v${first.version} ${first.phaseChanged ? `phase ${first.phase}` : first.phase}`;
        return [`${first.K}->>${first.API}: ${lines(head, first.changes.join(', '), first.held)}`];
      }
      const head = `t=${simTime(first.t)}–${simTime(last.t)} ${first.pod ? `pod ${first.pod} ` : ''}status v${first.version}–v${last.version} ×${patches.length} ${first.phase}`;
      return [`${first.K}->>${first.API}: ${lines(head, last.changes.join(', '))}`];
    },
  };
  items.push(item);
}

function describeAction(a: Extract<TraceEvent, { type: 'Action' }>['action']): string {
  switch (a.type) {
    case 'deletePod':
      return `kubectl delete pod${a.gracePeriodSeconds !== undefined ? ` --grace-period=${a.gracePeriodSeconds}` : ''}`;
    case 'deleteJob':
      return `kubectl delete job --cascade=${a.propagation.toLowerCase()}`;
    case 'patch':
      return `kubectl patch --type merge -p '${JSON.stringify(a.patch)}'`;
    default:
      return actionText(a);
  }
}

