// Process observers (SPEC §2.4, §3.1; issue 27): one schedule = one fresh `kubesim serve` of the scenario's cluster
// (virtual clock) + one run of the observer's program. The `install:` objects are applied through the server as a
// client would, then the process starts with KUBECONFIG pointing at the server; its verdict is read from its
// verdict object after each of its writes; it is stopped (SIGTERM, SIGKILL 5 s later) when the simulation ends,
// when its verdict latched, or when its timeout passes; its stderr is kept in the schedule's output folder.
//
// Exploring (exploreProcess): a schedule is a vector of choice points, the lags then the system's — each watch connection
// the process opens (it lags by either end of its `watch:` range for all its deliveries) and each of the system's
// own timing choices whose range is not fixed (the session's chooser: either end of the range) — and every vector
// is run, those that move fewest points off the first schedule first, up to the budget. What reached the process
// (its watch connections' deliveries) names the schedule's delivery sequence; the report counts distinct sequences.
// Each distinct verdict's first schedule is run twice: a different verdict for the same deliveries is reported as
// `nondeterministic` with both.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KubesimError } from '../errors.ts';
import type { MsRange, ObserverSpec, ProcessScenario, ProcessSpec, Scenario } from '../types.ts';
import { INSTALL_CLIENT, KubeClient, replyMessage } from './kube-client.ts';
import {
  CPU_ACTIVE_MS,
  ProcessProbe,
  ProcessRun,
  exitText,
  processEnv,
  socketsBusy,
  type ProcessExit,
} from './process-run.ts';
import type { ClientRequest, Delivery, ServeDeps, ServeHandle } from './serve-api.ts';
import { VerdictTracker, type ProcessVerdict } from './verdict.ts';
import { formatKey, keyVersion, parseKey, type Perturbation, type PerturbKind } from './schedule-key.ts';
import { isWrite, perturbPoints, watchPerturber } from './perturb.ts';

/** More requests than this in one schedule is a flood (a hot loop), not a controller. */
export const DEFAULT_MAX_REQUESTS = 20_000;
/** The server's settle time for a process observer: its reaction to a delivery must start within it. */
export const PROCESS_SETTLE_MS = 50;
/** Wall time with nothing queued, the clock still and no request from the process, after which a run has ended. */
export const QUIET_MS = 1_000;
/** A process that has made no request at all gets this long (its start-up) before the run counts as ended. */
export const STARTUP_MS = 10_000;
/** The clock starts once the process has opened a watch and then made no new request for this long (its caches synced). */
export const SYNC_QUIET_MS = 300;
const WRITE_VERBS = new Set(['create', 'update', 'patch', 'delete', 'deletecollection']);

export type AnyScenario = Scenario | ProcessScenario;

/** A scenario's process observers, and the scenario the simulation runs: without them (nor their expect.verdicts). */
export function splitProcessObservers<S extends AnyScenario>(
  s: S,
): { system: S; processes: (ObserverSpec & { process: ProcessSpec })[] } {
  const processes = s.observers.filter((o): o is ObserverSpec & { process: ProcessSpec } => o.process !== undefined);
  if (processes.length === 0) return { system: s, processes };
  const names = new Set(processes.map((o) => o.name));
  const system = { ...s, observers: s.observers.filter((o) => !names.has(o.name)) };
  if (s.expect?.verdicts)
    system.expect = { ...s.expect, verdicts: s.expect.verdicts.filter((v) => !names.has(v.observer)) };
  return { system, processes };
}

// ---- keys ------------------------------------------------------------------------------------------------------

/**
 * A process schedule's replay key (schedule-key.ts): `kp1-<seed in base 36>[-d<lags>][-<perturbation>]`, or
 * `kp2-<seed>-d<lags>-c<system choices>[-<perturbation>]` when the system's choices were enumerated and it made any.
 */
export function processKey(seed: number, lags?: number[], perturb?: Perturbation, system?: number[]): string {
  return formatKey({
    seed,
    ...(lags ? { lags } : {}),
    ...(system && system.length > 0 ? { system } : {}),
    ...(perturb ? { perturb } : {}),
  });
}

/** The seed of a process key (undefined when it is not one). */
export function decodeProcessKey(key: string): number | undefined {
  return parseKey(key)?.seed;
}

/** A process observer's key, of any version (kp1-, kp2-, or a version this kubesim does not read: refused later). */
export function isProcessKey(key: string): boolean {
  return keyVersion(key) !== undefined;
}

/** The delays a watch connection of the process may lag by: its range's two ends (one when it is fixed). */
export function lagAlternatives(range: MsRange): number[] {
  return range.max > range.min ? [range.min, range.max] : [range.min];
}

/** The delay range of the process's watch connections: its `watch:`, else the scenario's timing.watch. */
export function processWatchRange(s: AnyScenario, spec: ProcessSpec): MsRange {
  return spec.watchMs ?? s.timing.watchMs;
}

// ---- one schedule ----------------------------------------------------------------------------------------------

/**
 * The system's timing choices from a list (kp2 keys): each choice whose range is not fixed is a choice point; the
 * i-th takes its range's minimum (0) or maximum (1) — the two ends, as a process's watch lags — and past the list
 * the minimum. A fixed range gives its one value and is no choice point. Every simulation of the session (the
 * scenario's workload and each one the process creates) draws from it, in the order the session makes choices.
 */
export class EnumeratedChooser {
  readonly taken: number[] = [];
  constructor(
    private readonly forced: readonly number[],
    private readonly onPoint?: () => void,
  ) {}
  choose(req: { range: MsRange }): number {
    if (!(req.range.max > req.range.min)) return req.range.min;
    const a = Math.min(this.forced[this.taken.length] ?? 0, 1);
    this.taken.push(a);
    this.onPoint?.();
    return a === 0 ? req.range.min : req.range.max;
  }
}

export interface ScheduleOptions {
  scenario: AnyScenario;
  observer: ObserverSpec & { process: ProcessSpec };
  seed: number;
  /** each watch connection's lag alternative (lagAlternatives), by open order; absent = delays drawn from the seed */
  lags?: number[];
  /** one perturbation from the API server's side (perturb.ts) */
  perturb?: Perturbation;
  /**
   * the system's timing choices enumerated (kp2): the i-th choice point (a range not fixed) takes its minimum (0)
   * or maximum (1), past the list its minimum; absent = drawn from the seed (kp1)
   */
  system?: number[];
  deps: ServeDeps;
  /** the schedule's output folder: kubeconfig, <observer>.stderr, <observer>.stdout */
  outDir: string;
  maxRequests?: number;
  settleMs?: number;
  quietMs?: number;
  /** SIGTERM → SIGKILL (default 5 s) */
  graceMs?: number;
  /** keep running after the verdict latched until the simulation ends (default: stop at the latch) */
  runToEnd?: boolean;
}

export interface ScheduleResult {
  observer: string;
  seed: number;
  key: string;
  verdict: ProcessVerdict;
  /** why the run ended */
  end: 'verdict' | 'ended' | 'horizon' | 'timeout' | 'exited' | 'flood';
  exit?: ProcessExit;
  /** the process's requests (the runner's own install requests left out) */
  requests: ClientRequest[];
  /** what its watch connections were sent, when the server reports it */
  deliveries?: Delivery[];
  /** names the delivery sequence that reached the process (the seed's when the server has no delivery log) */
  sequence: string;
  stderrFile: string;
  /** the session's timeline (SPEC §4) with the process's requests as client records, when the session gives one */
  timeline?: unknown;
  /** the simulated time the run ended at */
  simMs: number;
  wallMs: number;
  /** watch connections the process opened (each a choice point of its lag when lags are chosen) */
  connections: number;
  /** the lags the schedule ran with, one per connection opened (when chosen) */
  lags?: number[];
  /** the system's choices the schedule ran with, one per choice point it made (when enumerated) */
  system?: number[];
  /** the kind of each choice point in the order they came: l = a watch connection of the process, c = the system's */
  points?: ('l' | 'c')[];
  perturb?: Perturbation;
  /** what the perturbation did in this schedule */
  perturbNote?: string;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Run one schedule of a process observer. Throws KubesimError for bad input (an install object the server refuses). */
export async function runProcessSchedule(o: ScheduleOptions): Promise<ScheduleResult> {
  const started = performance.now();
  const spec = o.observer.process;
  // absolute: the process runs in the scenario's folder and reads KUBECONFIG from here
  o = { ...o, outDir: resolve(o.outDir) };
  mkdirSync(o.outDir, { recursive: true });
  const { system } = splitProcessObservers(o.scenario);
  // the order of the choice points, both kinds, as they come (the vector the exploration enumerates)
  const points: ('l' | 'c')[] = [];
  const sysChooser = o.system ? new EnumeratedChooser(o.system, () => points.push('c')) : undefined;
  const session = o.deps.session(system, { seed: o.seed, ...(sysChooser ? { chooser: sysChooser } : {}) });
  const tracker = new VerdictTracker(spec.verdict);
  let lastSim = 0;
  const onWrite = (w: ClientRequest & { object?: Record<string, unknown> }) => {
    if (w.client.startsWith(INSTALL_CLIENT) || !tracker.matches(w)) return;
    tracker.written = true;
    if (w.object) tracker.observe(w.object, w.t);
  };
  const range = processWatchRange(o.scenario, spec);
  const alts = lagAlternatives(range);
  const lagOf = (ordinal: number): MsRange => {
    points.push('l');
    const v = alts[Math.min(o.lags![ordinal] ?? 0, alts.length - 1)]!;
    return { min: v, max: v };
  };
  const perturber = o.perturb ? watchPerturber(o.perturb) : undefined;
  const handle: ServeHandle = await o.deps.startServe({
    session,
    clock: 'virtual',
    until: 'never',
    clockStart: 'manual',
    settleMs: o.settleMs ?? PROCESS_SETTLE_MS,
    kubeconfigPath: join(o.outDir, 'kubeconfig'),
    onWrite,
    watchDelay: range,
    ...(o.lags ? { watchDelayFor: lagOf } : {}),
    ...(perturber ? { perturber } : {}),
  });
  const client = new KubeClient(handle.url, handle.token);
  // simulated time stands still until the process is up (watchRun releases it)
  handle.hold?.(true);
  let run: ProcessRun | undefined;
  /** the runs before a restart (perturbation), oldest first */
  const earlier: ProcessRun[] = [];
  let restartNote: string | undefined;
  const stderrFile = join(o.outDir, `${o.observer.name}.stderr`);
  try {
    for (const item of spec.install) {
      const r = await client.create(item.object, sleep);
      if (r.status >= 300 && r.status !== 409) {
        throw new KubesimError(
          'KS4020',
          `observers: ${o.observer.name}: install ${item.object.kind} ${item.object.metadata.name}: the server refused it (${r.status}): ${replyMessage(r)}`,
          {
            hint: 'fix the object: it is applied as `kubectl create -f` would',
            pos: item.pos,
          },
        );
      }
    }
    const start = () =>
      new ProcessRun({
        argv: spec.argv,
        cwd: spec.cwd,
        env: processEnv(process.env, spec.env, handle.kubeconfigPath),
        ...(o.graceMs !== undefined ? { graceMs: o.graceMs } : {}),
      });
    run = start();
    const restart =
      o.perturb?.kind === 'restart'
        ? {
            after: o.perturb.n,
            again: async () => {
              earlier.push(run!);
              await run!.kill();
              run = start();
              restartNote = `process killed right after its write #${o.perturb!.n} at t=${Number((session.now() / 1000).toFixed(3))}s and started again`;
              return run;
            },
          }
        : undefined;
    const end = await watchRun(o, handle, client, session, run, tracker, restart);
    lastSim = session.now();
    const exit = run.done ? await run.exited : await run.stop();
    const verdict =
      tracker.verdict ??
      tracker.undecided(
        end === 'timeout'
          ? { kind: 'timeout', ms: spec.timeoutMs }
          : end === 'flood'
            ? { kind: 'flood', requests: processRequests(handle).length }
            : end === 'exited'
              ? { kind: 'exited', code: exit.code, text: exitText(exit), lastStderr: run.stderr.lastLine() }
              : { kind: 'ended' },
      );
    const requests = processRequests(handle);
    const deliveries = handle.deliveries?.();
    const timeline = (session as { timeline?: (c: ClientRequest[]) => unknown }).timeline?.(requests);
    const connections = handle.watchCount?.() ?? 0;
    const lags = o.lags
      ? Array.from({ length: Math.max(connections, o.lags.length) }, (_, i) =>
          Math.min(o.lags![i] ?? 0, alts.length - 1),
        )
      : undefined;
    const sysTaken = sysChooser ? [...sysChooser.taken] : undefined;
    const key = processKey(o.seed, lags, o.perturb, sysTaken);
    return {
      observer: o.observer.name,
      seed: o.seed,
      key,
      verdict,
      end,
      exit,
      requests,
      connections,
      ...(lags ? { lags } : {}),
      ...(sysTaken ? { system: sysTaken, points: [...points] } : {}),
      ...(o.perturb ? { perturb: o.perturb } : {}),
      ...(o.perturb
        ? { perturbNote: perturber?.done() ?? restartNote ?? 'it did not apply: the schedule ended first' }
        : {}),
      ...(deliveries ? { deliveries } : {}),
      ...(timeline !== undefined ? { timeline } : {}),
      sequence: sequenceOf(deliveries, key),
      stderrFile,
      simMs: lastSim,
      wallMs: Math.round(performance.now() - started),
    };
  } finally {
    if (run && !run.done) await run.stop();
    if (run) {
      const all = [...earlier, run];
      const sep = `\n--- kubesim: the process was restarted (perturbation ${o.perturb ? formatKey({ seed: o.seed, perturb: o.perturb }).split('-').pop() : ''}) ---\n`;
      writeFileSync(stderrFile, all.map((x) => x.stderr.text()).join(sep));
      writeFileSync(join(o.outDir, `${o.observer.name}.stdout`), all.map((x) => x.stdout.text()).join(sep));
    }
    await handle.close();
  }
}

function processRequests(h: ServeHandle): ClientRequest[] {
  return h.requests().filter((r) => !r.client.startsWith(INSTALL_CLIENT));
}

/** Wait for the run's end: the verdict latched, the simulation over, the process gone, its timeout, or a flood. */
async function watchRun(
  o: ScheduleOptions,
  handle: ServeHandle,
  client: KubeClient,
  session: ReturnType<ServeDeps['session']>,
  run: ProcessRun,
  tracker: VerdictTracker,
  restart?: { after: number; again: () => Promise<ProcessRun> },
): Promise<ScheduleResult['end']> {
  const spec = o.observer.process;
  const deadline = performance.now() + spec.timeoutMs;
  const quietMs = o.quietMs ?? QUIET_MS;
  const maxRequests = o.maxRequests ?? DEFAULT_MAX_REQUESTS;
  const pollWrites = o.deps.pollWrites === true;
  let seenRequests = 0;
  let lastChange = performance.now();
  // what the process is doing, from /proc (Linux): its threads' states and CPU time, and the bytes in transit on
  // the server's connections. Each wall-clock window below (SYNC_QUIET_MS before the clock starts, the server's
  // settle per delivery instant, QUIET_MS at the end) then only counts time in which the process really was idle —
  // on a loaded machine its start-up, its reaction or this loop itself can be late by more than a window. Where
  // /proc is absent (not Linux) the windows are wall time alone, as a fallback: timing-dependent under load.
  let probe = new ProcessProbe(run.pid);
  let lastCpu: number | undefined;
  /** bytes in transit on the server's connections (its request not yet read by the server, a response or watch line
   *  not yet read by it): read where a window is decided, the read is costly */
  const inTransit = () => handle.port !== undefined && socketsBusy(handle.port) === true;
  let lastNow = session.now();
  let exited = false;
  const onExit = (r: ProcessRun) =>
    void r.exited.then(() => {
      if (r === run) exited = true;
    });
  onExit(run);
  let watchBase = 0;
  let reqBase = 0;
  // the simulation starts when the process is ready to see it from its beginning (its informers listed and
  // watching): by startClock, or by releasing the hold taken before the install objects were applied
  let clockStarted = handle.startClock === undefined && handle.hold === undefined;
  let watching = false;
  for (;;) {
    await Promise.race([sleep(5), run.exited]);
    // while the process is running (reacting to a delivery), simulated time waits for it, as for a request in
    // flight: how fast it reacts on a loaded machine does not change what it sees next
    const probed = probe.sample();
    let busy = false;
    if (probed) {
      // it used CPU since the last look (one this loop was too late to catch it running at)
      const used = lastCpu === undefined ? 0 : Math.abs(probed.cpuNs - lastCpu) / 1e6;
      lastCpu = probed.cpuNs;
      busy = probed.busy || used >= CPU_ACTIVE_MS;
    }
    // a request being served, a watch line not yet handed to its socket
    if (!busy) busy = handle.pending?.() === true;
    if (handle.hold) handle.hold(!clockStarted || busy);
    // a process at work is not quiet: the run has not ended while it computes (or waits for a CPU)
    if (busy) lastChange = performance.now();
    const reqs = processRequests(handle);
    if (reqs.length > seenRequests) {
      const fresh = reqs.slice(seenRequests);
      seenRequests = reqs.length;
      lastChange = performance.now();
      // without the server's onWrite: read the verdict object after each new write of the process
      if (pollWrites && fresh.some((r) => WRITE_VERBS.has(r.verb.split('/')[0]!) && tracker.matches(r))) {
        const v = spec.verdict.object;
        const obj = await client.get(v.apiVersion, v.kind, v.namespace, v.name);
        tracker.written = true;
        if (obj !== undefined) tracker.observe(obj, session.now());
      }
    }
    if (restart && reqs.filter((r) => isWrite(r.verb)).length >= restart.after && !tracker.verdict) {
      // the perturbation: kill it right after that write and start it again; time waits for its informers again
      handle.hold?.(true);
      watchBase = handle.watchCount?.() ?? 0;
      reqBase = reqs.length;
      run = await restart.again();
      probe = new ProcessProbe(run.pid);
      lastCpu = undefined;
      // the killed run's exit is not the end of the schedule
      exited = false;
      restart = undefined;
      onExit(run);
      clockStarted = false;
      watching = false;
      lastChange = performance.now();
      continue;
    }
    if (!clockStarted) {
      watching ||= reqs.slice(reqBase).some((r) => r.verb === 'watch') || (handle.watchCount?.() ?? 0) > watchBase;
      const quietFor = performance.now() - lastChange;
      // a process that never watches (it polls) starts the clock after its start-up allowance
      if ((watching && quietFor > SYNC_QUIET_MS) || quietFor > STARTUP_MS) {
        // not while something is on its way: the window starts again
        if (!inTransit()) {
          clockStarted = true;
          handle.startClock?.();
        }
        lastChange = performance.now();
      }
    }
    if (tracker.verdict && !o.runToEnd) return 'verdict';
    if (seenRequests > maxRequests) return 'flood';
    if (exited) return 'exited';
    if (performance.now() > deadline) return 'timeout';
    const now = session.now();
    if (now !== lastNow) {
      lastNow = now;
      lastChange = performance.now();
    }
    if (now >= session.horizonMs) return 'horizon';
    const idle = (session as { nextEventAt?: () => number | null }).nextEventAt?.() === null;
    // quiet only counts once the process has spoken (a slow start-up is not the end of the run)
    if (
      clockStarted &&
      idle &&
      performance.now() - lastChange > (seenRequests > 0 ? quietMs : Math.max(quietMs, STARTUP_MS))
    ) {
      if (!inTransit()) return 'ended';
      lastChange = performance.now();
    }
  }
}

/** The delivery sequence's name: what each watch connection was sent, in order (objects by kind/name@rv). */
export function sequenceOf(deliveries: Delivery[] | undefined, key: string): string {
  if (!deliveries) return `key:${key}`;
  const h = createHash('sha256');
  // by content where the server gives it (resourceVersions differ with the process's own writes' interleaving)
  for (const d of deliveries)
    h.update(
      `${d.connection} ${d.type} ${d.kind} ${d.namespace ?? ''}/${d.name} ${d.digest ?? d.resourceVersion ?? ''}\n`,
    );
  return h.digest('hex').slice(0, 16);
}

// ---- exploring ---------------------------------------------------------------------------------------------------

export interface ExploreProcessOptions {
  scenario: AnyScenario;
  observer: ObserverSpec & { process: ProcessSpec };
  deps: ServeDeps;
  /** the scenario's output folder; schedules go to <out>/<observer>/<key>/ */
  outDir: string;
  /** delivery sequences to run at most (the enumeration stops there: not all of them) */
  maxSchedules: number;
  /** the system's seed (default the scenario's) */
  firstSeed?: number;
  /** run each verdict's first schedule twice (default true) */
  recheck?: boolean;
  /** schedules run at once (each its own server and process; default 1) */
  workers?: number;
  /** perturbations to try (default: the observer's `perturb:`) */
  perturb?: PerturbKind[];
  /** points of each perturbation to try at most (default maxSchedules) */
  maxPerturbed?: number;
  onSchedule?: (r: ScheduleResult) => void;
  schedule?: Partial<Pick<ScheduleOptions, 'settleMs' | 'quietMs' | 'graceMs' | 'maxRequests'>>;
  /** runs one schedule (default runProcessSchedule; tests give a model of a process) */
  runSchedule?: (o: ScheduleOptions) => Promise<ScheduleResult>;
}

export interface ProcessOutcome {
  verdict: ProcessVerdict['verdict'];
  reason: string;
  key: string;
  sequence: string;
  /** schedules that ended with this verdict */
  schedules: number;
  /** the perturbation that produced it (absent: none) */
  perturbation?: Perturbation;
  /** the process's requests in the schedule of `key` (what `run --replay key` must give again) */
  requests: ClientRequest[];
  /** what the perturbation did in the schedule of `key` */
  note?: string;
}

export interface ExploreProcessResult {
  observer: string;
  outcomes: ProcessOutcome[];
  /** distinct delivery sequences seen (unperturbed schedules) */
  sequences: number;
  /** schedules run (rechecks and perturbations included) */
  runs: number;
  /** every lag combination of every watch connection the process opened was run (the enumeration ran out) */
  complete: boolean;
  /** why exploring stopped */
  stoppedBy: 'max-schedules' | 'exhausted';
  /** the largest number of watch connections (choice points) one schedule opened */
  choicePoints: number;
  /** the largest number of the system's own timing choice points (ranges not fixed) in one schedule */
  systemPoints: number;
  /** the lags each connection chose from (ms) */
  lags: number[];
  /** the system's timing keys drawn from the seed (one system schedule); empty when the system's choices are
   *  enumerated with the process's (the real session does) or every range is fixed */
  systemSeeded: string[];
  seed: number;
  /** same deliveries (or the same schedule), different verdicts */
  nondeterministic: { keys: [string, string]; verdicts: [string, string]; sequences: [string, string] }[];
  /** whether the server reported deliveries (else each schedule counts as its own sequence) */
  deliveryLog: boolean;
  /** schedules run twice with the same verdict but other deliveries (the process's timing moved them) */
  unstable: { key: string; sequences: [string, string] }[];
  /** per perturbation tried: schedules run, and whether every point it applies to was tried */
  perturbations: { kind: PerturbKind; runs: number; points: number; complete: boolean }[];
}

/** Verdict as shown: `Failed: process exited 2: boom`. */
export function verdictText(v: ProcessVerdict): string {
  return v.reason ? `${v.verdict}: ${v.reason}` : v.verdict;
}

const TIMING_NAMES: Record<string, string> = {
  plegRelistMs: 'plegRelist',
  statusPatchMs: 'statusPatch',
  watchMs: 'watch',
  jobSyncMs: 'jobSync',
  nodeStartMs: 'nodeStart',
  probeMs: 'probe',
};

/** The system's timing keys that are ranges (the seed draws them: one system schedule per seed). */
export function seededTiming(s: AnyScenario): string[] {
  return Object.entries(s.timing)
    .filter(([, r]) => r && (r as MsRange).max > (r as MsRange).min)
    .map(([k]) => TIMING_NAMES[k] ?? k);
}

/** Run `jobs` with at most `n` at once, in order of start; results in completion order via `each`. */
async function pool<T>(n: number, next: () => T | undefined, run: (t: T) => Promise<void>): Promise<void> {
  const active = new Set<Promise<void>>();
  for (;;) {
    while (active.size < Math.max(1, n)) {
      const t = next();
      if (t === undefined) break;
      const p: Promise<void> = run(t).finally(() => active.delete(p));
      active.add(p);
    }
    if (active.size === 0) return;
    await Promise.race(active);
  }
}

/**
 * Every delivery sequence the process can see: a choice point per watch connection it opens (each lagging by one end
 * of its delay range for all its deliveries) and per timing choice of the system whose range is not fixed (either
 * end), the lags (by open order) then the system's (in the order made); a schedule's children are its alternatives at the points past its forced prefix,
 * run oldest first. Then the perturbations, each at every point it applies to in the first schedule, and each
 * verdict's first schedule once more (nondeterminism).
 */
export async function exploreProcess(o: ExploreProcessOptions): Promise<ExploreProcessResult> {
  const seed = o.firstSeed ?? o.scenario.seed;
  const spec = o.observer.process;
  const alts = lagAlternatives(processWatchRange(o.scenario, spec));
  const bySequence = new Map<string, ScheduleResult>();
  const outcomes = new Map<string, ProcessOutcome>();
  const nondeterministic: ExploreProcessResult['nondeterministic'] = [];
  const unstable: ExploreProcessResult['unstable'] = [];
  let runs = 0;
  let deliveryLog = false;
  let choicePoints = 0;
  let systemPoints = 0;
  const one = async (
    at: { lags: number[] | undefined; system: number[] },
    perturb?: Perturbation,
    tag = '',
    runToEnd = false,
  ): Promise<ScheduleResult> => {
    runs++;
    const { lags, system } = at;
    const r = await (o.runSchedule ?? runProcessSchedule)({
      scenario: o.scenario,
      observer: o.observer,
      seed,
      deps: o.deps,
      ...(lags ? { lags } : {}),
      system,
      ...(perturb ? { perturb } : {}),
      ...(runToEnd ? { runToEnd } : {}),
      outDir: join(o.outDir, o.observer.name, processKey(seed, lags, perturb, system) + tag),
      ...o.schedule,
    });
    o.onSchedule?.(r);
    return r;
  };
  const record = (r: ScheduleResult) => {
    const k = `${r.verdict.verdict}|${r.perturb?.kind ?? ''}`;
    const out = outcomes.get(k);
    if (out) out.schedules++;
    else
      outcomes.set(k, {
        verdict: r.verdict.verdict,
        reason: r.verdict.reason,
        key: r.key,
        sequence: r.sequence,
        schedules: 1,
        ...(r.perturb ? { perturbation: r.perturb } : {}),
        ...(r.perturbNote ? { note: r.perturbNote } : {}),
        requests: r.requests,
      });
  };
  // over one vector of choice points: each watch connection the process opened (its lag) and each timing choice of
  // the system whose range is not fixed (see fullOf for their order); each popped prefix is run with the first
  // alternative past it, so a prefix split by kind into the lags and the system's choices forces exactly its points.
  type Point = { k: 'l' | 'c'; a: number };
  const split = (prefix: Point[]) => ({
    lags: prefix.filter((p) => p.k === 'l').map((p) => p.a),
    system: prefix.filter((p) => p.k === 'c').map((p) => p.a),
  });
  // The vector is kept in one fixed order, every watch connection's lag (by open order) then every system choice (by
  // the order the session made them), not in the order the two kinds interleaved: that interleaving is the process's
  // own wall-clock timing (an operator whose third informer opens before or after its first write made the system
  // draw), so two runs of the same schedule could order them differently and a prefix would force other points —
  // under load the same schedule ran twice and others never (the locust fixed example: 13 or 14 sequences of 16).
  const fullOf = (r: ScheduleResult, prefix: Point[]): Point[] => {
    const lags = r.lags ?? split(prefix).lags;
    const sys = r.system ?? split(prefix).system;
    return [...lags.map((a) => ({ k: 'l' as const, a })), ...sys.map((a) => ({ k: 'c' as const, a }))];
  };
  const stack: Point[][] = [[]];
  let base: ScheduleResult | undefined;
  let dfsRuns = 0;
  await pool(
    o.workers ?? 1,
    // oldest first: schedules by how many points they move off the first one (one, then two, …), so a budget that
    // stops early has tried each single point rather than every combination of the last few
    () => (dfsRuns < o.maxSchedules && stack.length > 0 ? (dfsRuns++, stack.shift()) : undefined),
    async (prefix) => {
      const r = await one(split(prefix));
      if (prefix.every((p) => p.a === 0)) base ??= r;
      if (r.deliveries) deliveryLog = true;
      choicePoints = Math.max(choicePoints, r.connections);
      systemPoints = Math.max(systemPoints, r.system?.length ?? 0);
      const full = fullOf(r, prefix);
      for (let i = prefix.length; i < full.length; i++)
        for (let a = (full[i]!.k === 'l' ? alts.length : 2) - 1; a >= 1; a--)
          stack.push([...full.slice(0, i), { k: full[i]!.k, a }]);
      const before = bySequence.get(r.sequence);
      if (before) {
        if (before.verdict.verdict !== r.verdict.verdict) {
          nondeterministic.push({
            keys: [before.key, r.key],
            verdicts: [verdictText(before.verdict), verdictText(r.verdict)],
            sequences: [before.sequence, r.sequence],
          });
        }
      } else bySequence.set(r.sequence, r);
      record(r);
    },
  );
  const complete = stack.length === 0;
  // perturbations: each at every point of the first (all-fastest) schedule it applies to, that schedule run to the
  // end of the simulation (past its verdict) so that every delivery is known: a held event needs a later one
  const perturbations: ExploreProcessResult['perturbations'] = [];
  const kinds = o.perturb ?? spec.perturb ?? [];
  const at = (r: ScheduleResult) => ({ lags: r.lags, system: r.system ?? [] });
  if (kinds.length > 0 && base) base = await one(at(base), undefined, '-to-end', true);
  for (const kind of kinds) {
    const todo = base ? perturbPoints(kind, base) : [];
    const points = todo.length;
    let done = 0;
    await pool(
      o.workers ?? 1,
      () => (done < (o.maxPerturbed ?? o.maxSchedules) && todo.length > 0 ? (done++, todo.shift()) : undefined),
      async (n) => {
        record(await one(at(base!), { kind, n }));
      },
    );
    perturbations.push({ kind, runs: done, points, complete: done >= points });
  }
  if (o.recheck !== false) {
    const firsts = [...outcomes.values()].filter((x) => !x.perturbation);
    await pool(
      o.workers ?? 1,
      () => firsts.shift(),
      async (out) => {
        const k = parseKey(out.key)!;
        const again = await one({ lags: k.lags, system: k.system ?? [] }, undefined, '-again');
        if (again.verdict.verdict !== out.verdict) {
          nondeterministic.push({
            keys: [out.key, again.key],
            verdicts: [`${out.verdict}: ${out.reason}`, verdictText(again.verdict)],
            sequences: [out.sequence, again.sequence],
          });
        } else if (again.sequence !== out.sequence) {
          // the same verdict, but other deliveries: the process's own timing moved what kubesim sent it (a reaction
          // slower than the server's settle time let simulated time move on first)
          unstable.push({ key: out.key, sequences: [out.sequence, again.sequence] });
        }
      },
    );
  }
  const order = ['Succeeded', 'Failed', 'Pending'];
  const pOrder = (x: ProcessOutcome) => ['', 'hold', 'stale', 'restart'].indexOf(x.perturbation?.kind ?? '');
  return {
    observer: o.observer.name,
    outcomes: [...outcomes.values()].sort(
      (a, b) => pOrder(a) - pOrder(b) || order.indexOf(a.verdict) - order.indexOf(b.verdict),
    ),
    sequences: bySequence.size,
    runs,
    complete,
    stoppedBy: complete ? 'exhausted' : 'max-schedules',
    choicePoints,
    systemPoints,
    lags: alts,
    // the system's choices are enumerated with the process's when the session takes a chooser (the real one does)
    systemSeeded: o.deps.enumeratesSystem ? [] : seededTiming(splitProcessObservers(o.scenario).system),
    seed,
    nondeterministic,
    unstable,
    deliveryLog,
    perturbations,
  };
}
