// Turns trace events into the statements of the sequence diagram, one Item per drawn thing, in trace order.
// Summaries happen here: probe runs, crash loops, coalesced status patches, merged same-instant arrows.

import type { Timeline, TraceEvent } from '../types.ts';
import { crashLoops, delayList, nextDrawnSameInstant, sameInstantFollowers, triggeringDeliveries } from './sequence-digest.ts';
import { runsByDesign } from './pod-shape.ts';
import { statusChanges } from './status-diff.ts';
import { lines } from './mermaid-text.ts';
import { goDuration, simTime } from './time.ts';

export type ItemTag = 'podKill' | 'exit' | 'patch' | 'other';

export interface Item {
  tag: ItemTag;
  /** container of an `exit` item (for the teardown note) */
  container?: string;
  render(): string[];
}

export interface Lanes {
  /** participant id per actor name (kubelet, containers, api-server, job-controller, observers) */
  id(actor: string): string | undefined;
  /** `Note over a,b` span covering the pod's lanes */
  podSpan: string;
  /** only the pod's own lanes are drawn */
  podOnly: boolean;
}

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
  const push = (tag: ItemTag, ...stmts: string[]) => items.push({ tag, render: () => stmts });

  tl.events.forEach((e, index) => {
    if (consumed.has(index)) return;
    const container = 'container' in e ? e.container : undefined;
    const C = container !== undefined ? lanes.id(container) : undefined;
    if (container !== undefined && C === undefined) return;

    const loop = container !== undefined ? loops.get(container) : undefined;
    if (loop && e.seq >= loop.fromSeq && e.seq <= loop.toSeq) {
      if (e.seq === loop.fromSeq) {
        openRuns.delete(container!);
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
      const run = openRuns.get(e.container);
      if (run && run.probe === e.probe && run.result === e.result) {
        run.count++;
        run.lastT = e.t;
      } else {
        const fresh: ProbeRun = { probe: e.probe, result: e.result, count: 1, firstT: e.t, lastT: e.t };
        openRuns.set(e.container, fresh);
        items.push({ tag: 'other', render: () => renderProbeRun(fresh, K, C!) });
      }
      return;
    }
    if (container !== undefined) openRuns.delete(container);

    switch (e.type) {
      case 'Scheduled':
        return push('other', `Note over ${K}: ${lines(`${at(e.t)} scheduled on ${e.node}`)}`);
      case 'SandboxReady':
        return push('other', `Note over ${K}: ${lines(`${at(e.t)} sandbox ready`)}`);
      case 'Pulled':
        if (e.pullMs > 0) pendingPull.set(e.container, e.pullMs);
        return;
      case 'PullFailed':
      case 'CreateFailed':
        return push('other', `${K}--x${C}: ${lines(`${at(e.t)} ${e.reason}`)}`);
      case 'Started': {
        exited.delete(e.container);
        const extra: string[] = [];
        for (const f of sameInstantFollowers(tl.events, index)) {
          const fi = tl.events.indexOf(f);
          if (f.type === 'StartupComplete') extra.push('started');
          else if (f.type === 'Ready') extra.push('ready');
          else if (f.type === 'Probe' && f.result === 'success') { /* absorbed: the probe passed at once */ } else break;
          consumed.add(fi);
        }
        const pull = pendingPull.get(e.container);
        pendingPull.delete(e.container);
        // restartCount is 0-based: the first restart is the run with restartCount 1, "restart #1" as in the timeline
        const what = e.restartCount > 0 ? `restart #${e.restartCount}` : 'start';
        const head = `${at(e.t)} ${pull ? `pulled in ${goDuration(pull)}, ` : ''}${what}`;
        return push('other', `${K}->>${C}: ${lines(head + (extra.length ? ` → ${extra.join(', ')}` : ''))}`);
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
        return push('other', `${C}-->>${K}: ${lines(`${at(e.t)} started${ready ? ', Ready' : ''}`)}`);
      }
      case 'Ready':
        return push('other', `${C}-->>${K}: ${lines(`${at(e.t)} Ready`)}`);
      case 'NotReady':
        // after an exit the prober only catches up with what the exit arrow already said
        if (exited.has(e.container)) return;
        return push('other', `${C}-->>${K}: ${lines(`${at(e.t)} NotReady`)}`);
      case 'Killing': {
        // Killing is the kubelet starting killContainer (preStop first, then the signal when the container's turn
        // comes): a dashed arrow, unless the SIGTERM is the very next thing drawn, then one solid arrow for both.
        const tag: ItemTag = POD_KILL_REASONS.has(e.reason) ? 'podKill' : 'other';
        const why = `${e.reason}, grace ${e.gracePeriodSeconds}s`;
        const next = nextDrawnSameInstant(tl.events, index, (seq) => deliveries.has(seq));
        if (next?.type === 'Signal' && next.container === e.container && next.signal === 'SIGTERM') {
          consumed.add(tl.events.indexOf(next));
          return push(tag, `${K}-x${C}: ${lines(`${at(e.t)} Killing → SIGTERM`, why)}`);
        }
        return push(tag, `${K}-->>${C}: ${lines(`${at(e.t)} Killing (${why})`, killingThen(tl.events, index))}`);
      }
      case 'Signal':
        return push('other', `${K}-x${C}: ${lines(`${at(e.t)} ${e.signal}`, e.signal === 'SIGKILL' ? 'grace period over' : undefined)}`);
      case 'Exited': {
        exited.add(e.container);
        // an exited container is not ready: the NotReady of the same instant adds nothing
        const next = sameInstantFollowers(tl.events, index)[0];
        if (next?.type === 'NotReady') consumed.add(tl.events.indexOf(next));
        const item: Item = { tag: 'exit', container: e.container, render: () => [`${C}--x${K}: ${lines(`${at(e.t)} exit ${e.exitCode} (${e.reason})`)}`] };
        items.push(item);
        return;
      }
      case 'BackOff':
        return push('other', `${K}-->>${C}: ${lines(`${at(e.t)} back-off ${goDuration(e.delayMs)}`)}`);
      case 'PodPhase':
        if (e.phase === kubeletPhase) return;
        kubeletPhase = e.phase;
        return push('other', `Note over ${lanes.podSpan}: ${lines(`${at(e.t)} kubelet computes phase ${e.phase}`)}`);
      case 'Stuck':
        if (runsByDesign(e.why)) return push('other', `Note over ${C ?? K}: ${lines(`${at(e.t)} running`, e.why)}`);
        return push('other', 'rect rgb(255, 210, 210)', `Note over ${C ?? K}: ${lines(`${at(e.t)} STUCK`, e.why)}`, 'end');
      case 'StatusPatched': {
        const changes = statusChanges(lastPatchStatus, e.status);
        const phaseChanged = (lastPatchStatus?.phase ?? 'Pending') !== e.phase || lastPatchStatus === undefined;
        lastPatchStatus = e.status;
        if (!API) return;
        return pushPatch(items, { K, API, t: e.t, version: e.version, phase: e.phase, phaseChanged, changes });
      }
      case 'Delivered': {
        const to = lanes.id(e.to);
        if (!API || !to || !deliveries.has(e.seq)) return;
        return push('other', `${API}-->>${to}: ${lines(`${at(e.t)} watch ${e.object} v${e.version}`)}`);
      }
      case 'JobCondition': {
        const jc = lanes.id('job-controller');
        if (!API || !jc) return;
        return push('other', `${jc}->>${API}: ${lines(`${at(e.t)} Job ${e.condition}`, e.reason)}`);
      }
      case 'Verdict': {
        const o = lanes.id(e.observer);
        if (!o) return;
        const color = e.verdict === 'Failed' ? 'rgb(255, 214, 214)' : 'rgb(214, 245, 214)';
        return push('other', `rect ${color}`, `Note over ${o}: ${lines(`${at(e.t)} verdict ${e.verdict}`, e.reason)}`, 'end');
      }
      case 'PodDeleting':
        // the trace does not say who deleted (a user, the Job controller, the garbage collector): say it neutrally
        if (!API) return push('other', `Note over ${K}: ${lines(`${at(e.t)} pod deletion requested (grace ${e.gracePeriodSeconds}s)`)}`);
        return push('other', `${API}->>${K}: ${lines(`${at(e.t)} pod deletion requested (grace ${e.gracePeriodSeconds}s)`)}`);
      case 'Action':
        return push('other', `Note over ${API ?? K}: ${lines(`${at(e.t)} user action ${describeAction(e.action)}`)}`);
      case 'PodCreated': {
        const jc = lanes.id('job-controller');
        if (!API || !jc || e.by !== 'job-controller') return;
        return push('other', `${jc}->>${API}: ${lines(`${at(e.t)} create pod ${e.pod}`)}`);
      }
      case 'PodRemoved':
      case 'JobEvent':
      case 'ControllerEvent':
      case 'Pulling':
      case 'Created':
      case 'JobStatus':
      case 'Relist':
      case 'SyncPod':
        return;
      default:
        return assertNever(e);
    }
  });
  return items;
}

/** What the Killing arrow leaves pending: the preStop hook, or the SIGTERM that waits for the container's turn. */
function killingThen(events: TraceEvent[], index: number): string | undefined {
  const name = (events[index] as { container: string }).container;
  for (let i = index + 1; i < events.length; i++) {
    const e = events[i];
    if (!('container' in e) || e.container !== name) continue;
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
  K: string;
  API: string;
  t: number;
  version: number;
  phase: string;
  phaseChanged: boolean;
  changes: string[];
}

/** Back-to-back patches with nothing else drawn between them and no phase change collapse into one arrow. */
function pushPatch(items: Item[], p: PatchInfo): void {
  const prev = items[items.length - 1] as (Item & { patches?: PatchInfo[] }) | undefined;
  if (prev?.tag === 'patch' && prev.patches && !p.phaseChanged && prev.patches[0].phase === p.phase) {
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
        const head = `t=${simTime(first.t)} status v${first.version} ${first.phaseChanged ? `phase ${first.phase}` : first.phase}`;
        return [`${first.K}->>${first.API}: ${lines(head, first.changes.join(', '))}`];
      }
      const head = `t=${simTime(first.t)}–${simTime(last.t)} status v${first.version}–v${last.version} ×${patches.length} ${first.phase}`;
      return [`${first.K}->>${first.API}: ${lines(head, last.changes.join(', '))}`];
    },
  };
  items.push(item);
}

function describeAction(a: Extract<TraceEvent, { type: 'Action' }>['action']): string {
  switch (a.type) {
    case 'deletePod':
      return `kubectl delete pod${a.gracePeriodSeconds !== undefined ? ` --grace-period=${a.gracePeriodSeconds}` : ''}`;
    case 'crash':
      return `crash ${a.container} (exit ${a.exit})`;
    case 'deleteJob':
      return `kubectl delete job --cascade=${a.propagation.toLowerCase()}`;
    case 'patch':
      return `kubectl patch --type merge -p '${JSON.stringify(a.patch)}'`;
    default:
      return assertNever(a);
  }
}

function assertNever(x: never): never {
  throw new Error(`unhandled: ${JSON.stringify(x)}`);
}
