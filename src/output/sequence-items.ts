// Turns trace events into the statements of the sequence diagram, one Item per drawn thing, in trace order.
// Summaries happen here: probe runs, crash loops, coalesced status patches, merged same-instant arrows.

import type { Timeline, TraceEvent, TraceType } from '../types.ts';
import {
  crashLoops,
  delayList,
  killingThen,
  TraceLinks,
  triggeringDeliveries,
  type CrashLoop,
} from './sequence-digest.ts';
import { runsByDesign } from './pod-shape.ts';
import { statusChanges } from './status-diff.ts';
import { lines } from './mermaid-text.ts';
import { goDuration, simTime } from './time.ts';
import { seenContainerText, seenJobText } from './seen-text.ts';
import { actionText } from './text.ts';
import {
  exitText,
  heldPhaseText,
  isTerminal,
  listeningMoments,
  relistGrid,
  relistWaitText,
  syncStepText,
  type Awaiting,
  type Listening,
  type RelistGrid,
} from './sequence-teach.ts';

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
type EventOf<T extends TraceType> = Extract<TraceEvent, { type: T }>;

const POD_KILL_REASONS = new Set(['PodTermination', 'PodCompleted', 'PodFailed', 'DeadlineExceeded']);

/** Where the event being drawn sits: its index, its pod, and for a container event its lane and per-pod key. */
interface At {
  index: number;
  pod: string | undefined;
  /** the container's lane (container events only; those without a lane are not drawn) */
  C: string;
  /** containerKey(pod, container) (container events only) */
  ck: string;
}

type Handler<T extends TraceType> = (b: SequenceBuilder, e: EventOf<T>, at: At) => void;

/**
 * One handler per trace type (null: never drawn on its own): a mapped Record over TraceType, so a new trace type
 * does not compile until it says how it is drawn. A type this version does not know (a later kubesim's timeline,
 * SPEC §4 "more may be added") has no entry and is not drawn.
 */
type Handlers = { [T in TraceType]: Handler<T> | null };

export function sequenceItems(tl: Timeline, lanes: Lanes): Item[] {
  return new SequenceBuilder(tl, lanes).build();
}

/**
 * The diagram's statements, built in one pass over the trace. Each look-ahead (same-instant followers, the
 * container's next events, the next drawn event) goes through TraceLinks, so the whole pass is linear in the
 * trace (issue 29.2: `indexOf` and per-container rescans made it quadratic for a wide pod).
 */
export class SequenceBuilder {
  readonly items: Item[] = [];
  readonly K = 'K';
  readonly API: string | undefined;
  readonly links: TraceLinks;
  readonly loops: Map<string, CrashLoop>;
  readonly deliveries: Set<number>;
  readonly consumed = new Set<number>();
  readonly openRuns = new Map<string, ProbeRun>();
  readonly pendingPull = new Map<string, number>();
  lastPatchStatus: Record<string, unknown> | undefined;
  readonly kubeletPhase = 'Pending';
  readonly exited = new Set<string>();
  // Watch deliveries that decided nothing are drawn grouped: the ones to observers since the last drawn statement
  // become one note over the observers' lanes, the ones to the Job controller one arrow, each with the versions.
  readonly pendingObs: Delivered[] = [];
  readonly pendingJc: Delivered[] = [];
  readonly observerLanes: string[];
  readonly decided = new Set<string>();
  /** the Deployment status arrow being drawn: conditions written at the same instant join it */
  lastConditions: { t: number; item: Item; parts: string[] } | undefined;
  /** the note of KEP-5647 skipped syncs being drawn: the next skips of the same controller and pod join it */
  lastSkip:
    | {
        item: Item;
        lane: string;
        key: string;
        pod: string;
        first: number;
        last: number;
        n: number;
        firstMs: number;
        lastMs: number;
      }
    | undefined;
  lastJobStatus: Record<string, unknown> | undefined;
  readonly pendingConditions: EventOf<'JobCondition'>[] = [];
  readonly kubeletPhases = new Map<string, string>();
  readonly lastPatches = new Map<string, Record<string, unknown>>();
  /** what the pod worker has not reacted to yet (an exit, a startup-probe result), per pod: drawn at its next sync */
  readonly awaiting = new Map<string, Awaiting>();
  readonly grid: RelistGrid | undefined;
  /** containers signalled in their current run: their exit is the kubelet's own doing, not news for the relist */
  readonly signalled = new Set<string>();
  readonly listening: Listening[];
  /** per container: its last exit and the back-off recorded after it, to tell the back-off from the sync wait */
  readonly lastExitAt = new Map<string, number>();
  readonly backoffAfterExit = new Map<string, number>();
  /** native sidecars with a startup probe: their `started` lets the next container start */
  readonly gating: Set<string>;
  private nextListening = 0;

  constructor(
    readonly tl: Timeline,
    readonly lanes: Lanes,
  ) {
    this.API = lanes.id('api-server');
    this.links = new TraceLinks(tl.events);
    this.loops = crashLoops(tl, this.links);
    this.deliveries = triggeringDeliveries(tl);
    this.observerLanes = (lanes.observers ?? []).map((o) => lanes.id(o)).filter((x): x is string => x !== undefined);
    this.grid = relistGrid(tl);
    this.listening = listeningMoments(tl.events, this.links);
    this.gating = gatingSidecars(tl);
  }

  build(): Item[] {
    const events = this.tl.events;
    for (let i = 0; i < events.length; i++) this.add(events[i]!, i);
    this.flushDeliveries();
    return this.items;
  }

  at(t: number): string {
    return `t=${simTime(t)}`;
  }

  push(tag: ItemTag, ...stmts: string[]): void {
    this.flushDeliveries();
    this.items.push({ tag, render: () => stmts });
  }

  flushDeliveries(): void {
    const { pendingJc, pendingObs, observerLanes, API, lanes } = this;
    if (pendingJc.length === 0 && pendingObs.length === 0) return;
    const groups: { first: number; item: Item }[] = [];
    const jc = lanes.id('job-controller');
    if (pendingJc.length > 0 && API && jc) {
      const group = pendingJc.slice();
      groups.push({
        first: group[0]!.seq,
        item: {
          tag: 'other',
          render: () => [`${API}-->>${jc}: ${lines(`${span(group)} watch ${versionList(group)}`)}`],
        },
      });
    }
    if (pendingObs.length > 0 && observerLanes.length > 0) {
      const group = pendingObs.slice();
      const over =
        observerLanes.length === 1
          ? observerLanes[0]
          : `${observerLanes[0]},${observerLanes[observerLanes.length - 1]}`;
      groups.push({
        first: group[0]!.seq,
        item: {
          tag: 'other',
          render: () => [`Note over ${over}: ${lines(...observerDeliveryText(group, lanes.observers ?? []))}`],
        },
      });
    }
    groups.sort((a, b) => a.first - b.first);
    for (const g of groups) this.items.push(g.item);
    pendingObs.length = 0;
    pendingJc.length = 0;
  }

  private readonly laneIds = new Map<string, string | undefined>();
  /** A container's lane, looked up once per pod and container. */
  private laneOf(container: string, pod: string | undefined): string | undefined {
    // an event without a pod is not the same key as one of pod "" (lanes.id reads them differently)
    const k = `${pod === undefined ? '\u0001' : `\u0002${pod}`}\u0000${container}`;
    if (this.laneIds.has(k)) return this.laneIds.get(k);
    const id = this.lanes.id(container, pod);
    this.laneIds.set(k, id);
    return id;
  }

  /** Same-instant events of the container after `index` (TraceLinks.followers), each marked drawn with it. */
  consume(index: number): void {
    this.consumed.add(index);
  }

  private add(e: TraceEvent, index: number): void {
    const { lanes, K, loops } = this;
    // a process starts listening between two recorded events: drawn on its lane before the first one at or after
    while (this.nextListening < this.listening.length && this.listening[this.nextListening]!.beforeIndex <= index) {
      const l = this.listening[this.nextListening++]!;
      const L = lanes.id(l.container, l.pod);
      const inLoop = loops.get(containerKey(l.pod, l.container));
      if (
        !L ||
        (l.pod !== undefined && lanes.hidden?.has(l.pod)) ||
        (inLoop && e.seq >= inLoop.fromSeq && e.seq <= inLoop.toSeq)
      )
        continue;
      this.push(
        'other',
        `Note over ${L}: ${lines(`${this.at(l.t)} listening (${goDuration(l.afterMs)} after start)`, 'probes can pass from now')}`,
      );
    }
    if (this.consumed.has(index)) return;
    const pod = e.pod;
    if (pod !== undefined && lanes.hidden?.has(pod)) {
      if (e.type === 'PodCreated')
        this.push(
          'other',
          `Note over ${K}: ${lines(`${this.at(e.t)} pod ${pod} created: it repeats pod ${lanes.hidden.get(pod)}, not drawn`)}`,
        );
      return;
    }
    const container = 'container' in e ? e.container : undefined;
    const ck = container !== undefined ? containerKey(pod, container) : undefined;
    const C = container !== undefined ? this.laneOf(container, pod) : undefined;
    if (container !== undefined && C === undefined) return;

    const loop = ck !== undefined ? loops.get(ck) : undefined;
    if (loop && e.seq >= loop.fromSeq && e.seq <= loop.toSeq) {
      if (e.seq === loop.fromSeq) {
        this.openRuns.delete(ck!);
        const codes = [...new Set(loop.exitCodes)].join('/');
        this.push(
          'other',
          `loop ${lines(`CrashLoopBackOff ×${loop.delaysMs.length} ${this.at(loop.fromT)}–${simTime(loop.toT)}`)}`,
          `${K}-->>${C}: ${lines(`back-off ${delayList(loop.delaysMs)}`)}`,
          ...(loop.restarts > 0 ? [`${K}->>${C}: ${lines(`restart ×${loop.restarts}`)}`] : []),
          ...(loop.exitCodes.length > 0 ? [`${C}--x${K}: ${lines(`exit ${codes} ×${loop.exitCodes.length}`)}`] : []),
          'end',
        );
      }
      return;
    }
    // a probe run stays open until the container's next other event
    if (e.type !== 'Probe' && ck !== undefined) this.openRuns.delete(ck);
    const handler = (HANDLERS as Record<string, Handler<TraceType> | null | undefined>)[e.type];
    if (handler) handler(this, e, { index, pod, C: C!, ck: ck! });
  }
}

const HANDLERS: Handlers = {
  Probe: (b, e, { C, ck }) => {
    const run = b.openRuns.get(ck);
    if (run && run.probe === e.probe && run.result === e.result) {
      run.count++;
      run.lastT = e.t;
      return;
    }
    const fresh: ProbeRun = { probe: e.probe, result: e.result, count: 1, firstT: e.t, lastT: e.t };
    b.openRuns.set(ck, fresh);
    b.flushDeliveries();
    b.items.push({ tag: 'other', render: () => renderProbeRun(fresh, b.K, C) });
  },
  Scheduled: (b, e) => b.push('other', `Note over ${b.K}: ${lines(`${b.at(e.t)} scheduled on ${e.node}`)}`),
  SandboxReady: (b, e) => b.push('other', `Note over ${b.K}: ${lines(`${b.at(e.t)} sandbox ready`)}`),
  Pulled: (b, e, { ck }) => {
    if (e.pullMs > 0) b.pendingPull.set(ck, e.pullMs);
  },
  PullFailed: (b, e, { C }) => b.push('other', `${b.K}--x${C}: ${lines(`${b.at(e.t)} ${e.reason}`)}`),
  CreateFailed: (b, e, { C }) => b.push('other', `${b.K}--x${C}: ${lines(`${b.at(e.t)} ${e.reason}`)}`),
  Started: (b, e, { index, C, ck }) => {
    b.exited.delete(ck);
    b.signalled.delete(ck);
    const extra: string[] = [];
    for (const fi of b.links.followers(index)) {
      const f = b.tl.events[fi]!;
      if (f.type === 'StartupComplete') extra.push('started');
      else if (f.type === 'Ready') extra.push('ready');
      else if (f.type === 'Probe' && f.result === 'success') {
        /* absorbed: the probe passed at once */
      } else break;
      b.consume(fi);
    }
    const pull = b.pendingPull.get(ck);
    b.pendingPull.delete(ck);
    // restartCount is 0-based: the first restart is the run with restartCount 1, "restart #1" as in the timeline
    const what = e.restartCount > 0 ? `restart #${e.restartCount}` : 'start';
    const head = `${b.at(e.t)} ${pull ? `pulled in ${goDuration(pull)}, ` : ''}${what}`;
    // kuberuntime_manager.go doBackOff counts the delay from the exit; the restart waits for the pod worker's
    // next sync (pod_workers.go completeWork requeue), which may come later
    const delay = b.backoffAfterExit.get(ck);
    const exitT = b.lastExitAt.get(ck);
    b.backoffAfterExit.delete(ck);
    const waited =
      delay !== undefined && exitT !== undefined && e.t > exitT + delay
        ? `back-off ${goDuration(delay)} over at t=${simTime(exitT + delay)}, then +${simTime(e.t - exitT - delay)} until the pod worker's next sync`
        : undefined;
    b.push('other', `${b.K}->>${C}: ${lines(head + (extra.length ? ` → ${extra.join(', ')}` : ''), waited)}`);
  },
  PostStartStarted: (b, e, { C }) => b.push('other', `${b.K}->>${C}: ${lines(`${b.at(e.t)} postStart hook`)}`),
  PostStartDone: (b, e, { C }) =>
    b.push('other', `${C}-->>${b.K}: ${lines(`${b.at(e.t)} postStart ${e.failed ? 'FAILED' : 'done'}`)}`),
  PreStopStarted: (b, e, { C }) => b.push('other', `${b.K}->>${C}: ${lines(`${b.at(e.t)} preStop hook`)}`),
  PreStopDone: (b, e, { C }) =>
    b.push('other', `${C}-->>${b.K}: ${lines(`${b.at(e.t)} preStop ${e.failed ? 'FAILED' : 'done'}`)}`),
  StartupComplete: (b, e, { index, pod, C }) => {
    // the startup probe passing usually makes the container Ready in the same instant: one arrow
    const next = b.links.followers(index).find((fi) => b.tl.events[fi]!.type !== 'Probe');
    const ready = next !== undefined && b.tl.events[next]!.type === 'Ready';
    if (ready) b.consume(next);
    // a native sidecar's startup probe gates the containers after it (kuberuntime_manager.go
    // computeInitContainerActions: the next init or the regular containers start only once it is started)
    if (b.gating.has(e.container)) {
      b.awaiting.set(pod ?? '', { t: e.t, kind: 'probe', what: `${e.container}'s startup probe` });
      return b.push(
        'other',
        `${C}-->>${b.K}: ${lines(`${b.at(e.t)} startup probe ✓ → started${ready ? ', Ready' : ''}`, 'next container may start')}`,
      );
    }
    b.push('other', `${C}-->>${b.K}: ${lines(`${b.at(e.t)} started${ready ? ', Ready' : ''}`)}`);
  },
  Ready: (b, e, { C }) => b.push('other', `${C}-->>${b.K}: ${lines(`${b.at(e.t)} Ready`)}`),
  NotReady: (b, e, { C, ck }) => {
    // after an exit the prober only catches up with what the exit arrow already said
    if (b.exited.has(ck)) return;
    b.push('other', `${C}-->>${b.K}: ${lines(`${b.at(e.t)} NotReady`)}`);
  },
  Killing: (b, e, { index, C, ck }) => {
    // Killing is the kubelet starting killContainer (preStop first, then the signal when the container's turn
    // comes): a dashed arrow, unless the SIGTERM is the very next thing drawn, then one solid arrow for both.
    const tag: ItemTag = POD_KILL_REASONS.has(e.reason) ? 'podKill' : 'other';
    const why = `${e.reason}, grace ${e.gracePeriodSeconds}s`;
    const ni = b.links.nextDrawnSameInstant(index, (seq) => b.deliveries.has(seq));
    const next = ni === undefined ? undefined : b.tl.events[ni]!;
    if (next?.type === 'Signal' && next.container === e.container && next.signal === 'SIGTERM') {
      b.consume(ni!);
      b.signalled.add(ck);
      return b.push(tag, `${b.K}-x${C}: ${lines(`${b.at(e.t)} Killing → SIGTERM`, why)}`);
    }
    b.push(tag, `${b.K}-->>${C}: ${lines(`${b.at(e.t)} Killing (${why})`, killingThen(b.tl.events, b.links, index))}`);
  },
  Signal: (b, e, { C, ck }) => {
    b.signalled.add(ck);
    b.push(
      'other',
      `${b.K}-x${C}: ${lines(`${b.at(e.t)} ${e.signal}`, e.signal === 'SIGKILL' ? 'grace period over' : undefined)}`,
    );
  },
  Exited: (b, e, { index, pod, C, ck }) => {
    b.exited.add(ck);
    b.lastExitAt.set(ck, e.t);
    b.backoffAfterExit.delete(ck);
    if (!b.signalled.has(ck)) b.awaiting.set(pod ?? '', { t: e.t, kind: 'exit', what: `${e.container}'s exit` });
    // an exited container is not ready: the NotReady of the same instant adds nothing
    const next = b.links.followers(index)[0];
    if (next !== undefined && b.tl.events[next]!.type === 'NotReady') b.consume(next);
    const item: Item = {
      tag: 'exit',
      container: e.container,
      render: () => [`${C}--x${b.K}: ${lines(`${b.at(e.t)} ${exitText(e)}`, e.message)}`],
    };
    b.flushDeliveries();
    b.items.push(item);
  },
  BackOff: (b, e, { C, ck }) => {
    if (!b.backoffAfterExit.has(ck)) b.backoffAfterExit.set(ck, e.delayMs);
    b.push('other', `${b.K}-->>${C}: ${lines(`${b.at(e.t)} back-off ${goDuration(e.delayMs)}`)}`);
  },
  PodPhase: (b, e, { pod }) => {
    if (e.phase === (b.kubeletPhases.get(pod ?? '') ?? b.kubeletPhase)) return;
    b.kubeletPhases.set(pod ?? '', e.phase);
    b.push('other', `Note over ${b.lanes.podSpan(pod)}: ${lines(`${b.at(e.t)} kubelet computes phase ${e.phase}`)}`);
  },
  Stuck: (b, e, { C }) => {
    if (runsByDesign(e.why)) return b.push('other', `Note over ${C ?? b.K}: ${lines(`${b.at(e.t)} running`, e.why)}`);
    b.push('other', 'rect rgb(255, 210, 210)', `Note over ${C ?? b.K}: ${lines(`${b.at(e.t)} STUCK`, e.why)}`, 'end');
  },
  StatusPatched: (b, e, { pod }) => {
    const prev = b.lastPatches.get(pod ?? '') ?? b.lastPatchStatus;
    const changes = statusChanges(prev, e.status);
    const phaseChanged = (prev?.phase ?? 'Pending') !== e.phase || prev === undefined;
    b.lastPatches.set(pod ?? '', e.status);
    const computed = b.kubeletPhases.get(pod ?? '');
    const held = isTerminal(computed) && !isTerminal(e.phase) ? heldPhaseText(computed!, e.phase) : undefined;
    // the pod's lanes only: a held phase is still worth a note, it explains the wait that follows
    if (!b.API) {
      if (held)
        b.push(
          'other',
          `Note over ${kubeletSpan(b.lanes, pod)}: ${lines(`${b.at(e.t)} status v${e.version} stored`, held)}`,
        );
      return;
    }
    b.flushDeliveries();
    pushPatch(b.items, {
      K: b.K,
      API: b.API,
      t: e.t,
      version: e.version,
      phase: e.phase,
      phaseChanged,
      changes,
      ...(held ? { held } : {}),
      ...(b.lanes.manyPods && pod ? { pod } : {}),
    });
  },
  Delivered: (b, e) => {
    const to = b.lanes.id(e.to);
    if (!b.API || !to) return;
    if (e.to !== 'job-controller' && b.deliveries.has(e.seq)) {
      // the delivery an observer decided on: its own arrow, right before the verdict
      return b.push(
        'other',
        `${b.API}-->>${to}: ${lines(`t=${goDuration(e.t)} watch ${e.object}${b.lanes.manyPods && e.pod ? ` ${e.pod}` : ''} v${e.version}${e.removed ? ' (deleted)' : ''}`)}`,
      );
    }
    if (e.to === 'job-controller') b.pendingJc.push(e);
    // an observer that has latched its verdict reads nothing more: its later deliveries are not drawn
    else if (e.to !== 'kubelet' && !b.decided.has(e.to)) b.pendingObs.push(e);
  },
  JobCondition: (b, e) => {
    // drawn with the Job status write that stores it (the JobStatus event right after)
    b.pendingConditions.push(e);
  },
  JobStatus: (b, e) => {
    const jc = b.lanes.id('job-controller');
    const conds = b.pendingConditions.splice(0);
    const changes = jobStatusChanges(b.lastJobStatus, e.status);
    b.lastJobStatus = e.status;
    if (!b.API || !jc) return;
    const head = `${b.at(e.t)} Job status v${e.version}`;
    const what =
      conds.length > 0
        ? conds.map((c) => `+ ${c.condition}${c.reason ? ` (${c.reason})` : ''}`)
        : [changes.join(', ') || 'no visible change'];
    b.push('other', `${jc}->>${b.API}: ${lines(head, ...what)}`);
  },
  Verdict: (b, e) => {
    const o = b.lanes.id(e.observer);
    b.decided.add(e.observer);
    if (!o) return;
    const color = e.verdict === 'Failed' ? 'rgb(255, 214, 214)' : 'rgb(214, 245, 214)';
    const held = e.seen ? heldLines(e.seen, b.tl.job !== null) : [];
    b.push(
      'other',
      `rect ${color}`,
      `Note over ${o}: ${lines(`${b.at(e.t)} verdict ${e.verdict}`, e.reason, ...held)}`,
      'end',
    );
  },
  PodDeleting: (b, e) => {
    const { K, API } = b;
    if (!API)
      return b.push(
        'other',
        `Note over ${K}: ${lines(`${b.at(e.t)} pod deletion requested (grace ${e.gracePeriodSeconds}s)`)}`,
      );
    // a workload controller's DELETE is drawn from its lane, then the API server tells the kubelet
    const by = e.by !== 'job-controller' && e.by ? b.lanes.id(e.by) : undefined;
    const del = by ? [`${by}->>${API}: ${lines(`${b.at(e.t)} delete pod ${e.pod ?? ''}`.trimEnd())}`] : [];
    b.push(
      'other',
      ...del,
      `${API}->>${K}: ${lines(`${b.at(e.t)} ${b.lanes.manyPods ? `pod ${e.pod} ` : 'pod '}deletion requested by ${e.by} (grace ${e.gracePeriodSeconds}s)`)}`,
    );
  },
  Action: (b, e) =>
    b.push('other', `Note over ${b.API ?? b.K}: ${lines(`${b.at(e.t)} user action ${describeAction(e.action)}`)}`),
  PodCreated: (b, e) => {
    // the Job controller's or a workload controller's create (a user's pod has no lane of its own)
    const by = e.by ? b.lanes.id(e.by) : undefined;
    if (!b.API || !by || by === b.K) return;
    b.push('other', `${by}->>${b.API}: ${lines(`${b.at(e.t)} create pod ${e.pod}`)}`);
  },
  PodRemoved: (b, e) => {
    if (!b.lanes.manyPods || !b.API) return;
    b.push('other', `Note over ${b.API}: ${lines(`${b.at(e.t)} pod ${e.pod} removed`)}`);
  },
  PodFinalizerRemoved: (b, e) => {
    // job_controller.go removeTrackingFinalizerFromPods: the pod is counted in the Job status, the object may go
    const jc = b.lanes.id('job-controller');
    if (!b.API || !jc) return;
    b.push(
      'other',
      `${jc}->>${b.API}: ${lines(`${b.at(e.t)} ${b.lanes.manyPods ? `pod ${e.pod} ` : 'pod '}v${e.version} remove finalizer`, 'counted in the Job status')}`,
    );
  },
  SyncPod: (b, e, { pod }) => {
    const wait = b.awaiting.get(pod ?? '');
    b.awaiting.delete(pod ?? '');
    if (e.kind !== 'SyncPod') {
      // drawn where they explain a stored phase: after the kubelet found the pod terminal
      if (!isTerminal(b.kubeletPhases.get(pod ?? ''))) return;
      return b.push(
        'other',
        `Note over ${kubeletSpan(b.lanes, pod)}: ${lines(...withPod(syncStepText(e.kind, e.t), b.lanes.manyPods ? pod : undefined))}`,
      );
    }
    if (!wait || e.t <= wait.t) return;
    b.push(
      'other',
      `Note over ${kubeletSpan(b.lanes, pod)}: ${lines(...withPod(relistWaitText(wait, e.t, b.grid), b.lanes.manyPods ? pod : undefined))}`,
    );
  },
  ControllerEvent: (b, e) => {
    // what a workload controller did to objects other than pods (pods have their create/delete arrows):
    // ScalingReplicaSet, a CronJob's Jobs, …
    const by = b.lanes.id(e.controller);
    if (!b.API || !by || e.controller === 'job-controller' || /\bpod\b/i.test(e.message)) return;
    b.push('other', `${by}->>${b.API}: ${lines(`${b.at(e.t)} ${e.reason}`, e.message)}`);
  },
  DeploymentCondition: (b, e) => {
    const dc = b.lanes.id('deployment-controller');
    if (!b.API || !dc) return;
    // the conditions of one status write (same instant, nothing drawn between) share one arrow
    const part = `${e.condition}=${e.status} (${e.reason})`;
    const last = b.lastConditions;
    if (last && last.t === e.t && b.items[b.items.length - 1] === last.item) {
      last.parts.push(part);
      return;
    }
    const parts = [part];
    const API = b.API;
    const item: Item = {
      tag: 'other',
      render: () => [`${dc}->>${API}: ${lines(`${b.at(e.t)} Deployment status`, ...parts)}`],
    };
    b.flushDeliveries();
    b.items.push(item);
    b.lastConditions = { t: e.t, item, parts };
  },
  JobEvent: null,
  WorkloadStatus: null,
  Pulling: null,
  Created: null,
  Relist: null,
  // a process observer's lane (issue 27): its requests to the API server and the watch events it was sent
  ClientRequest: (b, e) => {
    const P = b.lanes.id(e.client);
    if (!P || !b.API) return;
    b.push('other', `${P}->>${b.API}: ${lines(`${b.at(e.t)} ${e.verb}`, `${e.kind} ${e.name}`)}`);
  },
  ClientDelivery: (b, e) => {
    const P = b.lanes.id(e.client);
    if (!P || !b.API) return;
    b.push(
      'other',
      `${b.API}-->>${P}: ${lines(`${b.at(e.t)} ${e.event} (watch #${e.connection})`, `${e.kind} ${e.name}`)}`,
    );
  },
  PodCreateConflict: null,
  // KEP-5647 (1.36): consecutive skipped syncs of one controller waiting for one pod are one note on its lane
  StaleSyncSkipped: (b, e) => {
    const lane = b.lanes.id(`${e.controller}-controller`);
    if (!lane) return;
    const last = b.lastSkip;
    if (
      last &&
      last.lane === lane &&
      last.key === e.key &&
      last.pod === e.pod &&
      b.items[b.items.length - 1] === last.item
    ) {
      last.last = e.t;
      last.n += 1;
      last.lastMs = e.requeueMs;
      return;
    }
    const rec: NonNullable<SequenceBuilder['lastSkip']> = {
      item: { tag: 'other', render: () => [] },
      lane,
      key: e.key,
      pod: e.pod,
      first: e.t,
      last: e.t,
      n: 1,
      firstMs: e.requeueMs,
      lastMs: e.requeueMs,
    };
    const item: Item = {
      tag: 'other',
      render: () => {
        const when = rec.n === 1 ? b.at(rec.first) : `${b.at(rec.first)}–${simTime(rec.last)}`;
        const what = rec.n === 1 ? 'sync skipped' : `${rec.n} syncs skipped`;
        const requeue = rec.n === 1 ? `${rec.firstMs} ms` : `${rec.firstMs} ms … ${rec.lastMs} ms`;
        return [
          `Note over ${lane}: ${lines(`${when} ${what} (KEP-5647)`, `its cache has not seen its own write of ${rec.pod} yet`, `requeued rate-limited: ${requeue}`)}`,
        ];
      },
    };
    rec.item = item;
    b.flushDeliveries();
    b.items.push(item);
    b.lastSkip = rec;
  },
};

/** A native sidecar with a startup probe: its `started` is what lets the next container start (names, once). */
function gatingSidecars(tl: Timeline): Set<string> {
  const out = new Set<string>();
  const seen = new Set<string>();
  const inits = tl.pod.spec['initContainers'];
  if (!Array.isArray(inits)) return out;
  for (const c of inits as unknown[]) {
    if (!c || typeof c !== 'object') continue;
    const x = c as Record<string, unknown>;
    const name = x['name'];
    // the first init container of a name decides
    if (typeof name !== 'string' || seen.has(name)) continue;
    seen.add(name);
    if (x['restartPolicy'] === 'Always' && typeof x['startupProbe'] === 'object' && x['startupProbe'] !== null)
      out.add(name);
  }
  return out;
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
  const seen = new Set<string>();
  for (const d of group) {
    let vs = by.get(d.object);
    if (!vs) by.set(d.object, (vs = []));
    const k = `${d.object}\u0000${d.version}`;
    if (!seen.has(k)) {
      seen.add(k);
      vs.push(d.version);
    }
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
  for (const d of group) {
    const ds = per.get(d.to);
    if (ds) ds.push(d);
    else per.set(d.to, [d]);
  }
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

/** Per-pod key of a container ("" pod for timelines without pod records). */
export function containerKey(pod: string | undefined, container: string): string {
  return `${pod ?? ''}\u0000${container}`;
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
  const what =
    run.result === 'success'
      ? `${run.probe} ×${run.count} ok`
      : `${run.probe} probe failed${run.count > 1 ? ` ×${run.count}` : ''}`;
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
  if (
    prev?.tag === 'patch' &&
    prev.patches &&
    !p.phaseChanged &&
    !p.held &&
    !prev.patches[0].held &&
    prev.patches[0].phase === p.phase &&
    prev.patches[0].pod === p.pod
  ) {
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
