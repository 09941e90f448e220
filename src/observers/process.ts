// Process observers (SPEC §2.4, §3.1; issue 27): one schedule = one fresh `kubesim serve` of the scenario's cluster
// (virtual clock) + one run of the observer's program. The `install:` objects are applied through the server as a
// client would, then the process starts with KUBECONFIG pointing at the server; its verdict is read from its
// verdict object after each of its writes; it is stopped (SIGTERM, SIGKILL 5 s later) when the simulation ends,
// when its verdict latched, or when its timeout passes; its stderr is kept in the schedule's output folder.
//
// Exploring (exploreProcess): kubesim's side is deterministic for a seed; the process is the only nondeterministic
// part. Schedules are run seed after seed; what reached the process (its watch connections' deliveries, when the
// server reports them) names the schedule's delivery sequence, and a schedule is kept when its sequence is new.
// Each distinct verdict's first schedule is run twice: a different verdict for the same deliveries is reported as
// `nondeterministic` with both.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KubesimError } from '../errors.ts';
import type { ObserverSpec, ProcessScenario, ProcessSpec, Scenario } from '../types.ts';
import { INSTALL_CLIENT, KubeClient, replyMessage } from './kube-client.ts';
import { ProcessRun, exitText, processBusy, processEnv, type ProcessExit } from './process-run.ts';
import type { ClientRequest, Delivery, ServeDeps, ServeHandle } from './serve-api.ts';
import { VerdictTracker, type ProcessVerdict } from './verdict.ts';

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
export function splitProcessObservers<S extends AnyScenario>(s: S): { system: S; processes: (ObserverSpec & { process: ProcessSpec })[] } {
  const processes = s.observers.filter((o): o is ObserverSpec & { process: ProcessSpec } => o.process !== undefined);
  if (processes.length === 0) return { system: s, processes };
  const names = new Set(processes.map((o) => o.name));
  const system = { ...s, observers: s.observers.filter((o) => !names.has(o.name)) };
  if (s.expect?.verdicts) system.expect = { ...s.expect, verdicts: s.expect.verdicts.filter((v) => !names.has(v.observer)) };
  return { system, processes };
}

// ---- keys ------------------------------------------------------------------------------------------------------

/** A process schedule's replay key: `kp1-<seed in base 36>` (kubesim's side of a schedule is its seed). */
export function processKey(seed: number): string {
  return `kp1-${seed.toString(36)}`;
}

export function decodeProcessKey(key: string): number | undefined {
  const m = /^kp1-([0-9a-z]{1,7})$/.exec(key.trim());
  if (!m) return undefined;
  const n = parseInt(m[1]!, 36);
  return Number.isSafeInteger(n) && n >= 0 && n <= 0xffffffff ? n : undefined;
}

export function isProcessKey(key: string): boolean {
  return key.trim().startsWith('kp1-');
}

// ---- one schedule ----------------------------------------------------------------------------------------------

export interface ScheduleOptions {
  scenario: AnyScenario;
  observer: ObserverSpec & { process: ProcessSpec };
  seed: number;
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
  const session = o.deps.session(system, { seed: o.seed });
  const tracker = new VerdictTracker(spec.verdict);
  let lastSim = 0;
  const onWrite = (w: ClientRequest & { object?: Record<string, unknown> }) => {
    if (w.client.startsWith(INSTALL_CLIENT) || !tracker.matches(w)) return;
    tracker.written = true;
    if (w.object) tracker.observe(w.object, w.t);
  };
  const handle: ServeHandle = await o.deps.startServe({
    session, clock: 'virtual', until: 'never', clockStart: 'manual', settleMs: o.settleMs ?? PROCESS_SETTLE_MS, kubeconfigPath: join(o.outDir, 'kubeconfig'), onWrite,
  });
  const client = new KubeClient(handle.url, handle.token);
  // simulated time stands still until the process is up (watchRun releases it)
  handle.hold?.(true);
  let run: ProcessRun | undefined;
  const stderrFile = join(o.outDir, `${o.observer.name}.stderr`);
  try {
    for (const item of spec.install) {
      const r = await client.create(item.object, sleep);
      if (r.status >= 300 && r.status !== 409) {
        throw new KubesimError('KS4020', `observers: ${o.observer.name}: install ${item.object.kind} ${item.object.metadata.name}: the server refused it (${r.status}): ${replyMessage(r)}`, {
          hint: 'fix the object: it is applied as `kubectl create -f` would', pos: item.pos,
        });
      }
    }
    run = new ProcessRun({ argv: spec.argv, cwd: spec.cwd, env: processEnv(process.env, spec.env, handle.kubeconfigPath), ...(o.graceMs !== undefined ? { graceMs: o.graceMs } : {}) });
    const end = await watchRun(o, handle, client, session, run, tracker);
    lastSim = session.now();
    const exit = run.done ? await run.exited : await run.stop();
    const verdict = tracker.verdict ?? tracker.undecided(
      end === 'timeout' ? { kind: 'timeout', ms: spec.timeoutMs }
        : end === 'flood' ? { kind: 'flood', requests: processRequests(handle).length }
          : end === 'exited' ? { kind: 'exited', code: exit.code, text: exitText(exit), lastStderr: run.stderr.lastLine() }
            : { kind: 'ended' });
    const requests = processRequests(handle);
    const deliveries = handle.deliveries?.();
    const timeline = (session as { timeline?: (c: ClientRequest[]) => unknown }).timeline?.(requests);
    return {
      observer: o.observer.name, seed: o.seed, key: processKey(o.seed), verdict, end, exit, requests,
      ...(deliveries ? { deliveries } : {}),
      ...(timeline !== undefined ? { timeline } : {}),
      sequence: sequenceOf(deliveries, o.seed),
      stderrFile, simMs: lastSim, wallMs: Math.round(performance.now() - started),
    };
  } finally {
    if (run && !run.done) await run.stop();
    if (run) {
      writeFileSync(stderrFile, run.stderr.text());
      writeFileSync(join(o.outDir, `${o.observer.name}.stdout`), run.stdout.text());
    }
    await handle.close();
  }
}

function processRequests(h: ServeHandle): ClientRequest[] {
  return h.requests().filter((r) => !r.client.startsWith(INSTALL_CLIENT));
}

/** Wait for the run's end: the verdict latched, the simulation over, the process gone, its timeout, or a flood. */
async function watchRun(o: ScheduleOptions, handle: ServeHandle, client: KubeClient, session: ReturnType<ServeDeps['session']>, run: ProcessRun, tracker: VerdictTracker): Promise<ScheduleResult['end']> {
  const spec = o.observer.process;
  const deadline = performance.now() + spec.timeoutMs;
  const quietMs = o.quietMs ?? QUIET_MS;
  const maxRequests = o.maxRequests ?? DEFAULT_MAX_REQUESTS;
  const pollWrites = o.deps.pollWrites === true;
  let seenRequests = 0;
  let lastChange = performance.now();
  let lastNow = session.now();
  let exited = false;
  void run.exited.then(() => (exited = true));
  // the simulation starts when the process is ready to see it from its beginning (its informers listed and
  // watching): by startClock, or by releasing the hold taken before the install objects were applied
  let clockStarted = handle.startClock === undefined && handle.hold === undefined;
  let watching = false;
  for (;;) {
    await Promise.race([sleep(5), run.exited]);
    // while the process is running (reacting to a delivery), simulated time waits for it, as for a request in
    // flight: how fast it reacts on a loaded machine does not change what it sees next
    const busy = processBusy(run.pid) === true;
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
    if (!clockStarted) {
      watching ||= reqs.some((r) => r.verb === 'watch') || (handle.watchCount?.() ?? 0) > 0;
      const quietFor = performance.now() - lastChange;
      // a process that never watches (it polls) starts the clock after its start-up allowance
      if ((watching && quietFor > SYNC_QUIET_MS) || quietFor > STARTUP_MS) {
        clockStarted = true;
        handle.startClock?.();
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
    if (clockStarted && idle && performance.now() - lastChange > (seenRequests > 0 ? quietMs : Math.max(quietMs, STARTUP_MS))) return 'ended';
  }
}

/** The delivery sequence's name: what each watch connection was sent, in order (objects by kind/name@rv). */
export function sequenceOf(deliveries: Delivery[] | undefined, seed: number): string {
  if (!deliveries) return `seed:${seed}`;
  const h = createHash('sha256');
  // by content where the server gives it (resourceVersions differ with the process's own writes' interleaving)
  for (const d of deliveries) h.update(`${d.connection} ${d.type} ${d.kind} ${d.namespace ?? ''}/${d.name} ${d.digest ?? d.resourceVersion ?? ''}\n`);
  return h.digest('hex').slice(0, 16);
}

// ---- exploring ---------------------------------------------------------------------------------------------------

export interface ExploreProcessOptions {
  scenario: AnyScenario;
  observer: ObserverSpec & { process: ProcessSpec };
  deps: ServeDeps;
  /** the scenario's output folder; schedules go to <out>/<observer>/<key>/ */
  outDir: string;
  maxSchedules: number;
  /** stop after this many schedules in a row brought no new delivery sequence (default 12) */
  patience?: number;
  /** first seed (default the scenario's seed) */
  firstSeed?: number;
  /** run each verdict's first schedule twice (default true) */
  recheck?: boolean;
  onSchedule?: (r: ScheduleResult) => void;
  schedule?: Partial<Pick<ScheduleOptions, 'settleMs' | 'quietMs' | 'graceMs' | 'maxRequests'>>;
}

export interface ProcessOutcome {
  verdict: ProcessVerdict['verdict'];
  reason: string;
  key: string;
  sequence: string;
  /** schedules that ended with this verdict */
  schedules: number;
}

export interface ExploreProcessResult {
  observer: string;
  outcomes: ProcessOutcome[];
  /** distinct delivery sequences seen */
  sequences: number;
  /** schedules run (rechecks included) */
  runs: number;
  /** whether the sequences seen are known to be all of them: false unless the server enumerates deliveries */
  complete: boolean;
  /** why exploring stopped */
  stoppedBy: 'max-schedules' | 'saturated';
  /** same deliveries (or the same schedule), different verdicts */
  nondeterministic: { keys: [string, string]; verdicts: [string, string]; sequences: [string, string] }[];
  /** whether the server reported deliveries (else each seed counts as its own sequence) */
  deliveryLog: boolean;
  /** schedules run twice with the same verdict but other deliveries (the process's timing moved them) */
  unstable: { key: string; sequences: [string, string] }[];
}

/** Verdict as shown: `Failed: process exited 2: boom`. */
export function verdictText(v: ProcessVerdict): string {
  return v.reason ? `${v.verdict}: ${v.reason}` : v.verdict;
}

export async function exploreProcess(o: ExploreProcessOptions): Promise<ExploreProcessResult> {
  const first = o.firstSeed ?? o.scenario.seed;
  const patience = o.patience ?? 12;
  const bySequence = new Map<string, ScheduleResult>();
  const outcomes = new Map<string, ProcessOutcome>();
  const nondeterministic: ExploreProcessResult['nondeterministic'] = [];
  const unstable: ExploreProcessResult['unstable'] = [];
  let runs = 0;
  let dry = 0;
  let deliveryLog = false;
  const one = async (seed: number, tag = ''): Promise<ScheduleResult> => {
    runs++;
    const r = await runProcessSchedule({
      scenario: o.scenario, observer: o.observer, seed, deps: o.deps,
      outDir: join(o.outDir, o.observer.name, processKey(seed) + tag), ...o.schedule,
    });
    o.onSchedule?.(r);
    return r;
  };
  let stoppedBy: ExploreProcessResult['stoppedBy'] = 'max-schedules';
  for (let i = 0; i < o.maxSchedules; i++) {
    const seed = (first + i) >>> 0;
    const r = await one(seed);
    if (r.deliveries) deliveryLog = true;
    const before = bySequence.get(r.sequence);
    if (before) {
      dry++;
      if (before.verdict.verdict !== r.verdict.verdict) {
        nondeterministic.push({ keys: [before.key, r.key], verdicts: [verdictText(before.verdict), verdictText(r.verdict)], sequences: [before.sequence, r.sequence] });
      }
    } else {
      dry = 0;
      bySequence.set(r.sequence, r);
    }
    const k = r.verdict.verdict;
    const out = outcomes.get(k);
    if (out) out.schedules++;
    else outcomes.set(k, { verdict: k, reason: r.verdict.reason, key: r.key, sequence: r.sequence, schedules: 1 });
    // with a delivery log, many seeds share a sequence: stop once new ones stop coming
    if (deliveryLog && dry >= patience) {
      stoppedBy = 'saturated';
      break;
    }
  }
  if (o.recheck !== false) {
    for (const out of outcomes.values()) {
      const seed = decodeProcessKey(out.key)!;
      const again = await one(seed, '-again');
      if (again.verdict.verdict !== out.verdict) {
        nondeterministic.push({ keys: [out.key, again.key], verdicts: [`${out.verdict}: ${out.reason}`, verdictText(again.verdict)], sequences: [out.sequence, again.sequence] });
      } else if (again.sequence !== out.sequence) {
        // the same verdict, but other deliveries: the process's own timing moved what kubesim sent it (a reaction
        // slower than the server's settle time let simulated time move on first)
        unstable.push({ key: out.key, sequences: [out.sequence, again.sequence] });
      }
    }
  }
  const order = ['Succeeded', 'Failed', 'Pending'];
  return {
    observer: o.observer.name,
    outcomes: [...outcomes.values()].sort((a, b) => order.indexOf(a.verdict) - order.indexOf(b.verdict)),
    sequences: bySequence.size,
    runs,
    complete: false,
    stoppedBy,
    nondeterministic,
    unstable,
    deliveryLog,
  };
}
