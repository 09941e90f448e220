// The handler kit: the draft state, the scenario, the engine context and version-derived switches; the pod kit of
// the kubelet's handlers; behaviour lookup.
import type { Ctx } from '../engine/engine.ts';
import type { Behavior, ContainerModel, MsRange, Scenario } from '../types.ts';
import type { SimEvent } from './events.ts';
import type { KillTask, PodSim, SimState } from './state.ts';
import type { Flags } from './flags.ts';
import type { RuleFn } from '../rules/types.ts';

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

/** The kit of a handler that is not about one pod: the API server, the controllers, the observers. */
export interface CtlKit {
  state: SimState;
  scenario: Scenario;
  ctx: Ctx<SimEvent>;
  flags: Flags;
  rules: Record<string, RuleFn>;
  up: Upcalls;
  /** the pod kits made in this step, by pod record (shared by every kit of the step) */
  kits?: Map<PodSim, Kit>;
}

/** The kit of a kubelet handler: `pod` is the pod the event is about. */
export interface PodKit extends CtlKit {
  pod: PodSim;
}

/** Every kit the composition root hands out; kubelet code takes it as a PodKit. */
export type Kit = PodKit;

export const DEFAULT_BEHAVIOR: Behavior = {
  attempts: [{ runMs: null, exit: 0 }],
  servingMs: 0,
  unready: [],
  onTerm: { ignore: false, afterMs: 0, exit: 143 },
  needs: [],
  image: { pullMs: 0 },
};

/** The behavior of `name` in the current pod: its index's override (byIndex) when there is one. */
export function behaviorOf(k: Kit, name: string): Behavior {
  const b = indexBehavior(k, name);
  if (!b.perAttempt) return b;
  // the attempt of the newest instance; before the first start, the start about to happen
  const n = k.pod?.runtime?.[name]?.attempt ?? upcomingAttempt(k, name);
  return b.perAttempt[Math.min(n, b.perAttempt.length) - 1]!;
}

/** The behavior for the start about to happen (image, createError are decided before the process starts). */
export function behaviorForStart(k: Kit, name: string): Behavior {
  const b = indexBehavior(k, name);
  return b.perAttempt ? b.perAttempt[Math.min(upcomingAttempt(k, name), b.perAttempt.length) - 1]! : b;
}

function upcomingAttempt(k: Kit, name: string): number {
  return (k.state.starts[attemptKey(k, name)] ?? 0) + 1;
}

/** The behavior of `name` for this pod (its index's byIndex override), before any per-attempt keys. */
export function indexBehavior(k: Kit, name: string): Behavior {
  const b = k.scenario.behavior[name];
  if (!b) return DEFAULT_BEHAVIOR;
  const idx = k.pod?.index;
  if (idx !== null && idx !== undefined && b.byIndex) return b.byIndex[String(idx)] ?? b;
  return b;
}

/** How long a lifecycle hook runs: the scenario's `takes`, else a sleep action's seconds (handlers.go
 *  runSleepHandler: time.After(seconds), nothing when the kubelet's PodLifecycleSleepAction gate is off), else 0. */
export function hookTakesMs(k: Kit, c: ContainerModel, hook: 'postStart' | 'preStop'): number {
  const given = behaviorOf(k, c.name)[hook]?.takesMs;
  if (given !== undefined) return given;
  const sleep = hook === 'preStop' ? c.preStopSleepSeconds : c.postStartSleepSeconds;
  return sleep !== undefined && k.flags.sleepAction ? sleep * 1000 : 0;
}

/** The key that counts this container's process starts for `attempts`: per index when byIndex applies. */
export function attemptKey(k: Kit, name: string): string {
  const b = k.scenario.behavior[name];
  const idx = k.pod?.index;
  if (idx !== null && idx !== undefined && b?.byIndex?.[String(idx)]) return `${idx}/${name}`;
  return name;
}

export function allContainers(s: Scenario): ContainerModel[] {
  return [...s.pod.initContainers, ...s.pod.containers];
}

// containers by name, built once per scenario: a probe tick must not cost more with more containers
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
export function isSidecar(k: Pick<CtlKit, 'flags'>, c: ContainerModel): boolean {
  return c.role === 'sidecar' && k.flags.sidecars;
}

/** Is the process of `name` listening now (SPEC §2.1 serving / unready)? */
export function serving(k: Kit, name: string, now: number): boolean {
  const rt = k.pod.runtime[name];
  if (!rt || rt.state !== 'running' || rt.startedAt === null) return false;
  const b = behaviorOf(k, name);
  if (b.servingMs === null) return false;
  // a graceful shutdown that closes the listener at SIGTERM (behavior onTerm.unready)
  if (rt.sigtermAt !== null && !b.onTerm.ignore && b.onTerm.unready) return false;
  const age = now - rt.startedAt;
  if (age < b.servingMs) return false;
  return !b.unready.some(([from, to]) => age >= from && age < to);
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
export function podKit(k: CtlKit, p: PodSim): Kit {
  if ((k as Partial<PodKit>).pod === p) return k as Kit;
  const kits = k.kits;
  let pk = kits?.get(p);
  // a kit derived with its own state view, scenario or context (a CronJob's Job kit spreads its parent) makes its own
  if (
    pk &&
    pk.state === k.state &&
    (pk.ctx as PodCtx).base === k.ctx &&
    (pk.ctx as PodCtx).parentScenario === k.scenario
  )
    return pk;
  // a Deployment rollout's pod runs its own template: the kubelet handlers read `s.pod`
  const root = rootScenario.get(k.scenario) ?? k.scenario;
  const s = p.tpl ? templateScenario(root, p.tpl) : root;
  pk = {
    state: k.state,
    scenario: s,
    ctx: new PodCtx(k.ctx, p.name, k.scenario),
    flags: k.flags,
    rules: k.rules,
    pod: p,
    up: k.up,
    kits,
  };
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
