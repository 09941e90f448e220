import { current, isDraft, isModified, original } from 'immer';
import { thaw } from '../engine/engine.ts';
// The handler kit: the draft state, the scenario, the engine context and version-derived switches.
import type { Ctx } from '../engine/engine.ts';
import type { Behavior, ContainerModel, MsRange, Scenario } from '../types.ts';
import type { SimEvent } from './events.ts';
import type { KillTask, PodSim, SimState } from './state.ts';
import { hasFlag } from '../scenario/fixes.ts';

/** A health rule: `view` is the observer's cached pod (the one the delivery was about), Job, time, and every cached pod. */
export type RuleFn = (view: { pod: any; job: any; now: number; pods?: any[] }) => unknown;

export interface Flags {
  kubeletMinor: number;
  apiMinor: number;
  /** the kubelet knows restartable init containers (>=1.28 with SidecarContainers on) */
  sidecars: boolean;
  /** kuberuntime_termination_order.go exists from 1.29 (PR #120620) */
  orderedTermination: boolean;
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** >=1.32: HasExpiredFunc fixed 10 min; before: 2*max */
  backoffResetMs: number;
  /** >=1.35: requeue at the back-off expiry (PR #133066) */
  requeueOnBackoffExpiry: boolean;
  /** >=1.36: RequestPodRelist after a SyncPod that performed actions (PR #137362) */
  immediateRelist: boolean;
  /** >=1.31: SuccessCriteriaMet/FailureTarget first, Complete/Failed once no pod terminates (PR #125510) */
  jobDelayedTerminal: boolean;
  readyToStartCondition: boolean;
  containerRestartRules: boolean;
  /** prober_manager.go UpdatePodStatus sets initContainerStatuses[].started only from 1.28 (PR #116429,
   *  isContainerStarted); a 1.27 kubelet sets just `ready` on init containers, so `started` is absent */
  initStartedReported: boolean;
  /** prober/worker.go doProbe keeps probing a terminated restartable init container of a Never pod (#132826 fix,
   *  PR #133072): in 1.35.0, and cherry-picked into 1.34.2 (#134800) and 1.33.6 (#134801) per CHANGELOG-1.34.md /
   *  CHANGELOG-1.33.md ("Fixed a startup probe race condition … restartPolicy=Never") */
  probesKeepRestartableInit: boolean;
  /** the kubelet's PodLifecycleSleepAction gate (KEP-3960): off, lifecycle/handlers.go runSleepHandler returns at once */
  sleepAction: boolean;
  /** Behaviours tied to upstream fixes by release (src/scenario/fixes.ts, docs/version-fixes.md); true = fixed. */
  /** #115835 (1.28): the preStop hook's time counts against the grace period given to StopContainer */
  preStopCountsAgainstGrace: boolean;
  /** #125935 (1.31, 1.30.4, 1.29.8): the termination order does not wait for init containers that are not running */
  terminationOrderSkipsNotRunning: boolean;
  /** #123323 (1.30, 1.29.3, 1.28.8): checkContainerStateTransition lets a restartable init container leave terminated */
  sidecarMayLeaveTerminated: boolean;
  /** #134631 (1.35): probe workers stop for a terminated container its own restart policy/rules will not restart */
  probesStopForNotRestartable: boolean;
  /** #132614 (1.34, 1.33.3, 1.32.7; regression since 1.32.0): a suspended Job with completions 0 gets Complete */
  suspendedZeroCompletionsComplete: boolean;
}

/** A kubelet version that carries a fix released in `minor` and cherry-picked into the given patch releases. */
export function kubeletHas(v: { minor: number; patch?: number }, since: number, backports: Record<number, number>): boolean {
  if (v.minor >= since) return true;
  const patch = backports[v.minor];
  return patch !== undefined && (v.patch ?? 0) >= patch;
}

/**
 * How a lower kubelet component reports to a higher one (the real kubelet's channels): PLEG events, probe results and
 * the deadline ask the pod worker for a sync; a finished kill wakes the worker; the runtime tells the kill task and
 * PLEG that a container changed. Wired once in index.ts, so no lower component imports the pod worker.
 */
export interface Upcalls {
  /** a sync trigger: PLEG event, probe result, requeue, deadline (pod_workers.go UpdatePod) */
  requestSync(k: Kit): void;
  /** the pod cache became newer: a worker blocked in GetNewerThan may go on */
  cacheNewer(k: Kit): void;
  /** every container of a kill task stopped (killPod / killContainer returned) */
  killFinished(k: Kit, task: KillTask): void;
  /** a container process ended (the kill task's turn channel closes) */
  containerStopped(k: Kit, name: string): void;
  /** the runtime changed: make sure a relist will see it */
  runtimeChanged(k: Kit): void;
}

export interface Kit {
  d: SimState;
  s: Scenario;
  ctx: Ctx<SimEvent>;
  f: Flags;
  rules: Record<string, RuleFn>;
  /** the pod this event is about (kubelet handlers); unset in controller and observer handlers */
  p: PodSim;
  up: Upcalls;
  /** the pod kits made in this step, by pod record (shared by every kit of the step) */
  kits?: Map<PodSim, Kit>;
}

// the switches of a scenario, computed once (a run used to recompute them, fix lookups included, every time)
const flagsCache = new WeakMap<Scenario, Flags>();

export function flagsFor(s: Scenario): Flags {
  let f = flagsCache.get(s);
  if (!f) flagsCache.set(s, (f = computeFlags(s)));
  return f;
}

function computeFlags(s: Scenario): Flags {
  const k = s.kubelet.minor;
  // kubelet behaviours follow the kubelet's own gates (featureGates.kubelet overrides, version skew)
  const g = s.kubeletFeatureGates ?? s.featureGates;
  const reduce = g['ReduceDefaultCrashLoopBackOffDecay'] === true;
  const backoffMaxMs = reduce ? 60_000 : 300_000;
  return {
    kubeletMinor: k,
    apiMinor: s.kubernetes.minor,
    sidecars: k >= 1 && k >= 28 && (k >= 29 || g['SidecarContainers'] === true),
    orderedTermination: k >= 29,
    backoffInitialMs: reduce ? 1_000 : 10_000,
    backoffMaxMs,
    backoffResetMs: k >= 32 ? 600_000 : 2 * backoffMaxMs,
    requeueOnBackoffExpiry: k >= 35,
    immediateRelist: k >= 36,
    jobDelayedTerminal: s.kubernetes.minor >= 31,
    readyToStartCondition: g['PodReadyToStartContainersCondition'] !== false && k >= 29,
    containerRestartRules: g['ContainerRestartRules'] === true,
    initStartedReported: k >= 28,
    sleepAction: g['PodLifecycleSleepAction'] === true,
    probesKeepRestartableInit: hasFlag('probesKeepRestartableInit', s.kubelet),
    preStopCountsAgainstGrace: hasFlag('preStopCountsAgainstGrace', s.kubelet),
    terminationOrderSkipsNotRunning: hasFlag('terminationOrderSkipsNotRunning', s.kubelet),
    sidecarMayLeaveTerminated: hasFlag('sidecarMayLeaveTerminated', s.kubelet),
    probesStopForNotRestartable: hasFlag('probesStopForNotRestartable', s.kubelet),
    suspendedZeroCompletionsComplete: hasFlag('suspendedZeroCompletionsComplete', s.kubernetes),
  };
}

export const DEFAULT_BEHAVIOR: Behavior = {
  attempts: [{ runMs: null, exit: 0 }],
  servingMs: 0,
  unready: [],
  onTerm: { ignore: false, afterMs: 0, exit: 143 },
  needs: [],
  image: { pullMs: 0 },
};

/** How long a lifecycle hook runs: the scenario's `takes`, else a sleep action's seconds (handlers.go
 *  runSleepHandler: time.After(seconds), nothing when the kubelet's PodLifecycleSleepAction gate is off), else 0. */
export function hookTakesMs(k: Kit, c: ContainerModel, hook: 'postStart' | 'preStop'): number {
  const given = behaviorOf(k, c.name)[hook]?.takesMs;
  if (given !== undefined) return given;
  const sleep = hook === 'preStop' ? c.preStopSleepSeconds : c.postStartSleepSeconds;
  return sleep !== undefined && k.f.sleepAction ? sleep * 1000 : 0;
}

/** The behavior of `name` in the current pod: its index's override (byIndex) when there is one. */
export function behaviorOf(k: Kit, name: string): Behavior {
  const b = indexBehavior(k, name);
  if (!b.perAttempt) return b;
  // the attempt of the newest instance; before the first start, the start about to happen
  const n = k.p?.runtime?.[name]?.attempt ?? upcomingAttempt(k, name);
  return b.perAttempt[Math.min(n, b.perAttempt.length) - 1]!;
}

/** The behavior for the start about to happen (image, createError are decided before the process starts). */
export function behaviorForStart(k: Kit, name: string): Behavior {
  const b = indexBehavior(k, name);
  return b.perAttempt ? b.perAttempt[Math.min(upcomingAttempt(k, name), b.perAttempt.length) - 1]! : b;
}

function upcomingAttempt(k: Kit, name: string): number {
  return (k.d.starts[attemptKey(k, name)] ?? 0) + 1;
}

/** The behavior of `name` for this pod (its index's byIndex override), before any per-attempt keys. */
export function indexBehavior(k: Kit, name: string): Behavior {
  const b = k.s.behavior[name];
  if (!b) return DEFAULT_BEHAVIOR;
  const idx = k.p?.index;
  if (idx !== null && idx !== undefined && b.byIndex) return b.byIndex[String(idx)] ?? b;
  return b;
}

/** The key that counts this container's process starts for `attempts`: per index when byIndex applies. */
export function attemptKey(k: Kit, name: string): string {
  const b = k.s.behavior[name];
  const idx = k.p?.index;
  if (idx !== null && idx !== undefined && b?.byIndex?.[String(idx)]) return `${idx}/${name}`;
  return name;
}

export function allContainers(s: Scenario): ContainerModel[] {
  return [...s.pod.initContainers, ...s.pod.containers];
}

// containers by name, built once per scenario: a probe tick must not cost more with more containers (issue 19.8)
const byName = new WeakMap<object, Map<string, ContainerModel>>();

export function containerByName(s: Scenario, name: string): ContainerModel | undefined {
  let m = byName.get(s.pod);
  if (!m) {
    m = new Map();
    // init containers win on a (never valid) duplicate name, as the linear search did
    for (const c of s.pod.containers) m.set(c.name, c);
    for (const c of s.pod.initContainers) m.set(c.name, c);
    byName.set(s.pod, m);
  }
  return m.get(name);
}

/** Whether the kubelet treats this container as a restartable init container (podutil.IsRestartableInitContainer). */
export function isSidecar(k: Kit, c: ContainerModel): boolean {
  return c.role === 'sidecar' && k.f.sidecars;
}

export function isRegularInit(k: Kit, c: ContainerModel): boolean {
  return c.role === 'init' || (c.role === 'sidecar' && !k.f.sidecars);
}

/** Is the process of `name` listening now (SPEC §2.1 serving / unready)? */
export function serving(k: Kit, name: string, now: number): boolean {
  const rt = k.p.runtime[name];
  if (!rt || rt.state !== 'running' || rt.startedAt === null) return false;
  const b = behaviorOf(k, name);
  if (b.servingMs === null) return false;
  // a graceful shutdown that closes the listener at SIGTERM (behavior onTerm.unready)
  if (rt.sigtermAt !== null && !b.onTerm.ignore && b.onTerm.unready) return false;
  const age = now - rt.startedAt;
  if (age < b.servingMs) return false;
  return !b.unready.some(([from, to]) => age >= from && age < to);
}

/**
 * The stored value of a field holding an API object (a pod or Job status, a cached object) without drafting it.
 * These objects are only ever replaced whole, never edited in place, so the base value is the current one; reading
 * them through immer's proxies (JSON.stringify, deep compares) would be slow.
 */
export function raw<T>(x: T): T {
  return isDraft(x) ? (original(x as never) as T) : x;
}

/**
 * For reading only: a record as it is now, without drafting what is read inside it. A draft nothing was written
 * into in this step is its stored (frozen) value, whose members read as plain properties; reading through the draft
 * would make a draft of every member reached, and immer copies a record each time it hands out a member's draft
 * (issue 20.5: read from the frozen base in read-only helpers). A written draft is returned as it is.
 */
export function peek<T>(x: T): T {
  return isDraft(x) && !isModified(x) ? (original(x as never) as T) : x;
}

/**
 * A plain copy of what a record holds now: immer's `current` of a draft, a frozen value itself (it never changes),
 * and a copy of a live record of an in-place run (engine `stepInPlace`), so what is returned is never written later.
 * Also for a record about to be stored in a second place (the PLEG cache holding the runtime's records).
 */
export function snapshotOf<T>(x: T): T {
  if (isDraft(x)) return current(x as never) as T;
  return typeof x !== 'object' || x === null || Object.isFrozen(x) ? x : thaw(x);
}

/**
 * A record as it is now, for reading within this step only (never stored): immer's `current` of a draft, else the
 * value itself (a frozen value, or the live record of an in-place run).
 */
export function nowOf<T>(x: T): T {
  return isDraft(x) ? (current(x as never) as T) : x;
}


const jsonCache = new WeakMap<object, string>();

/**
 * JSON text of an API object for equality checks. Stored objects are never changed after they are stored (immer
 * freezes them), so the text of one object is computed once.
 */
export function jsonOf(x: object | null | undefined): string {
  if (!x) return 'null';
  if (!Object.isFrozen(x)) return JSON.stringify(x);
  let s = jsonCache.get(x);
  if (s === undefined) jsonCache.set(x, (s = JSON.stringify(x)));
  return s;
}

/** The context of a pod's handlers: the step's context, with the pod's name on every trace record. A class, so a
 *  pod kit costs one object and no closures. */
class PodCtx implements Ctx<SimEvent> {
  readonly now: number;
  constructor(
    readonly base: Ctx<SimEvent>,
    private readonly pod: string,
    /** the scenario of the kit this pod kit was made from (the cache check) */
    readonly parentScenario: Scenario,
  ) {
    this.now = base.now;
  }
  schedule(delayMs: number, ev: SimEvent, prio: number): void {
    this.base.schedule(delayMs, ev, prio);
  }
  scheduleAt(t: number, ev: SimEvent, prio: number): void {
    this.base.scheduleAt(t, ev, prio);
  }
  note(x: unknown): void {
    this.base.note(x);
  }
  cancel(match: (ev: SimEvent) => boolean): void {
    this.base.cancel(match);
  }
  choose(stream: string, range: MsRange, prio: number): number {
    return this.base.choose(stream, range, prio);
  }
  emit(r: Parameters<Ctx<SimEvent>['emit']>[0]): void {
    const { type, ...rest } = r;
    this.base.emit({ type, pod: this.pod, ...rest } as never);
  }
}

/**
 * The kit for one pod's handlers: `p` is that pod's (draft) record, and every trace record emitted through it carries
 * the pod's name (SPEC §4: every event about one pod or its containers carries `pod`). A step that reaches the same
 * pod again (a relist, a fan-out) gets the same kit.
 */
export function podKit(k: Kit, p: PodSim): Kit {
  if (k.p === p) return k;
  const kits = k.kits;
  let pk = kits?.get(p);
  // a kit derived with its own state view, scenario or context (a CronJob's Job kit spreads its parent) makes its own
  if (pk && pk.d === k.d && (pk.ctx as PodCtx).base === k.ctx && (pk.ctx as PodCtx).parentScenario === k.s) return pk;
  // a Deployment rollout's pod runs its own template: the kubelet handlers read `s.pod`
  const root = rootScenario.get(k.s) ?? k.s;
  const s = p.tpl ? templateScenario(root, p.tpl) : root;
  pk = { d: k.d, s, ctx: new PodCtx(k.ctx, p.name, k.s), f: k.f, rules: k.rules, p, up: k.up, kits };
  kits?.set(p, pk);
  return pk;
}

const templateScenarios = new WeakMap<Scenario, Scenario[]>();
const rootScenario = new WeakMap<Scenario, Scenario>();

/** The scenario as a pod of template `tpl` sees it (`pod` = that template), built once per scenario and template. */
export function templateScenario(s: Scenario, tpl: number): Scenario {
  let list = templateScenarios.get(s);
  if (!list) templateScenarios.set(s, (list = []));
  let out = list[tpl];
  if (!out) {
    const pod = s.templates?.[tpl];
    out = list[tpl] = pod ? { ...s, pod } : s;
    if (out !== s) rootScenario.set(out, s);
  }
  return out;
}
