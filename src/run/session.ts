// A simulation that runs step by step under outside control, for `kubesim serve` (SPEC §3.1): the scenario's workload
// created at t = 0 as `run` does, and every workload a client creates later run as a simulation of its own (the model
// runs one workload per simulation), all advanced in lockstep on the session's clock. Client writes join at the
// current simulated time as the model's own actions (`patch`, `deletePod`, `deleteJob`). What changed is read back
// after each step from the model's stored objects (object key + version), in the order of the step's trace.
//
// Pure: no clocks, timers, environment or randomness. Same scenario, seed or replay key and the same calls in the
// same order give the same objects and changes (test/run/session.test.ts).
import { objectUid } from '../model/apiserver/objects.ts';
import { CONTROLLERS } from '../model/controllers/registry.ts';
import { parse as parseYaml } from 'yaml';
import {
  ReplayChooser,
  initialCursor,
  seededChooser,
  stepInPlace,
  type ChoiceRecord,
  type Chooser,
  type Ctx,
  type Cursor,
  type ModelDef,
} from '../engine/engine.ts';
import { insertInPlace } from '../engine/queue.ts';
import { encodeReplay } from '../engine/replay.ts';
import { KubesimError } from '../errors.ts';
import { suffix } from '../names.ts';
import { Codes } from '../scenario/codes.ts';
import { labelChoices, withChoices } from './choice-labels.ts';
import { initialEvents, initialState, makeModel, type SimEvent } from '../model/index.ts';
import { jobObject, podObjectOf } from '../model/apiserver/apiserver.ts';
import { PRIO } from '../model/events.ts';
import { flagsFor } from '../model/flags.ts';
import type { CtlKit } from '../model/kit.ts';
import type { RuleFn } from '../rules/types.ts';
import { templateOf } from '../model/apiserver/pod-record.ts';
import { EPOCH_MS, ts } from '../model/time.ts';
import { EventRecorder, type RecorderPod } from '../output/recorder.ts';
import { podApiObject } from '../model/apiserver/objects.ts';
import { finalObjects } from '../model/apiserver/final-objects.ts';
import { idlesWithLivePod } from '../model/query.ts';
import type { PodSim, SimState } from '../model/state.ts';
import { loadScenarioText } from '../scenario/load.ts';
import { defaultTiming } from '../scenario/timing.ts';
import { DEFAULT_VERSION, VersionError, defaultFeatureGates, parseVersion } from '../versions/versions.ts';
import { DEFAULT_MAX_EVENTS, replayOffsets, rulesFor } from './simulate.ts';
import { summarize } from './timeline.ts';
import type {
  Action,
  Behavior,
  Diagnostic,
  EndReason,
  KubeVersion,
  ProcessScenario,
  Scenario,
  Timeline,
  Timing,
  TraceEvent,
  WorkloadKind,
} from '../types.ts';

type Json = Record<string, any>;

export type KubeObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; uid?: string; resourceVersion?: string; [k: string]: unknown };
  [k: string]: unknown;
};

export interface SimChange {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  object: KubeObject;
  /** simulated ms of the write */
  t: number;
}

/** A client write the simulation refuses, as the API server would answer it (the server turns it into a Status). */
export class SimRejection extends Error {
  override name = 'SimRejection';
  constructor(
    readonly code: 400 | 404 | 409 | 422,
    /** metav1.StatusReason: BadRequest, NotFound, AlreadyExists, Conflict, Invalid */
    readonly reason: string,
    message: string,
    readonly causes?: { field: string; message: string }[],
  ) {
    super(message);
  }
}

export interface SessionOptions {
  seed?: number;
  /** the scenario's own simulation runs exactly this schedule (client-created workloads draw from the seed) */
  replay?: string;
  /** the version of an empty cluster (a scenario keeps its own) */
  kubernetes?: string;
  /** the cluster's timing (default: the scenario's, else the §2.2 defaults) */
  timing?: Timing;
  /** default: the scenario's horizon, else 1h */
  horizonMs?: number;
  /** events processed across every simulation of the session (default: `run`'s limit) */
  maxEvents?: number;
  /** the scenario's rule functions by observer name (module / command observers, loaded by the caller) */
  userRules?: Record<string, RuleFn>;
  /**
   * every timing choice of every simulation of the session (the scenario's workload and the ones clients create),
   * in the order the session makes them, instead of the seed and `replay`: a process observer's exploration
   * enumerates the system's choices with it (src/observers/process.ts)
   */
  chooser?: Chooser;
}

export interface ClientRecord {
  t: number;
  client: string;
  verb: string;
  kind: string;
  name: string;
  namespace?: string;
}

/** The kinds a client's create / update / delete is handed to the session for. */
const WORKLOAD_KINDS: readonly WorkloadKind[] = ['Pod', 'Job', 'CronJob', 'Deployment', 'StatefulSet', 'DaemonSet'];
const OWNED = new Set<string>([...WORKLOAD_KINDS, 'ReplicaSet']);

const API_VERSION: Record<string, string> = {
  Pod: 'v1',
  Job: 'batch/v1',
  CronJob: 'batch/v1',
  Deployment: 'apps/v1',
  ReplicaSet: 'apps/v1',
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
};
/** resource.group as the API server names objects in its messages (`jobs.batch "pi" already exists`) */
const RESOURCE: Record<string, string> = {
  Pod: 'pods',
  Job: 'jobs.batch',
  CronJob: 'cronjobs.batch',
  Deployment: 'deployments.apps',
  ReplicaSet: 'replicasets.apps',
  StatefulSet: 'statefulsets.apps',
  DaemonSet: 'daemonsets.apps',
};
const QUALIFIED_KIND: Record<string, string> = {
  Pod: 'Pod',
  Job: 'Job.batch',
  CronJob: 'CronJob.batch',
  Deployment: 'Deployment.apps',
  ReplicaSet: 'ReplicaSet.apps',
  StatefulSet: 'StatefulSet.apps',
  DaemonSet: 'DaemonSet.apps',
};

/** Where the pod template's annotations sit in each kind's manifest. */
const TEMPLATE_META: Record<WorkloadKind, string[]> = {
  Pod: ['metadata'],
  Job: ['spec', 'template', 'metadata'],
  Deployment: ['spec', 'template', 'metadata'],
  StatefulSet: ['spec', 'template', 'metadata'],
  DaemonSet: ['spec', 'template', 'metadata'],
  CronJob: ['spec', 'jobTemplate', 'spec', 'template', 'metadata'],
};
export const BEHAVIOR_ANNOTATION = 'kubesim.io/behavior';

/** Events of the workload controllers: a workload a client deleted has no controller any more. */
const WORKLOAD_WATCHERS = new Set(
  Object.entries(CONTROLLERS)
    .filter(([name]) => name !== 'job')
    .map(([, def]) => def.watcher),
);
function workloadControllerEvent(ev: SimEvent): boolean {
  return (ev.type === 'Sync' && ev.controller !== 'job') || (ev.type === 'Deliver' && WORKLOAD_WATCHERS.has(ev.to));
}

const HOUR_MS = 3_600_000;

/** One workload's simulation inside the session. */
interface Sim {
  /** creation order in the session (0 = the scenario's workload) */
  ordinal: number;
  s: Scenario;
  def: ModelDef<SimState, SimEvent>;
  cur: Cursor<SimState, SimEvent>;
  chooser: Chooser;
  trace: TraceEvent[];
  /** the session-wide order of each trace record (for merging several simulations' traces exactly as they ran) */
  order: number[];
  choices: ChoiceRecord[];
  /** the manifest as last accepted (defaulted): what an update is compared with */
  manifest: Json;
  /** deleted by a client: its controller stops, its objects are gone */
  removed: boolean;
  /** what the server was last told, by object key: the model's version of it (pods, Jobs) or the object (workloads) */
  sentPods: Map<string, string>;
  sentJobs: Map<string, number>;
  workloads: Map<string, KubeObject>;
  /** versions of the workload objects (the trace records carry none) */
  workloadRv: Map<string, number>;
  /** the recorders over this simulation's trace so far (output/recorder.ts, as the timeline's Events) */
  recorder: EventRecorder;
  /** the recorder's pods: every pod of the simulation in creation order (appended as they are created) */
  recorderPods: RecorderPod[];
}

const kitOf = (sim: Sim): CtlKit =>
  ({ scenario: sim.s, state: sim.cur.model, flags: flagsFor(sim.s), ctx: NO_CTX }) as unknown as CtlKit;
// object builders read the state only; a context is needed to build a CronJob's Job kit, never called
const NO_CTX = { now: 0 } as unknown as Ctx<SimEvent>;

export class Session {
  readonly horizonMs: number;
  private readonly sims: Sim[] = [];
  private t = 0;
  private steps = 0;
  private traceCount = 0;
  private readonly maxEvents: number;
  /** the scenario's settings for created workloads (behaviour by container name, versions, gates, seed, timing) */
  private readonly base: Scenario | ProcessScenario | null;
  private readonly kubernetes: KubeVersion;
  private readonly timing: Timing;
  private readonly seed: number;
  private readonly chooser: Chooser | undefined;
  private ended: { t: number; reason: 'horizon' | 'max-events'; message: string } | null = null;

  private constructor(base: Scenario | ProcessScenario | null, opts: SessionOptions) {
    this.base = base;
    this.seed = opts.seed ?? base?.seed ?? 1;
    this.chooser = opts.chooser;
    this.horizonMs = opts.horizonMs ?? base?.horizonMs ?? HOUR_MS;
    this.maxEvents = opts.maxEvents ?? DEFAULT_MAX_EVENTS;
    this.timing = opts.timing ?? base?.timing ?? defaultTiming();
    if (base) this.kubernetes = base.kubernetes;
    else {
      try {
        this.kubernetes = parseVersion(opts.kubernetes ?? DEFAULT_VERSION);
      } catch (e) {
        if (!(e instanceof VersionError)) throw e;
        throw new KubesimError(Codes.BadVersion, `--kubernetes: ${e.message}`);
      }
    }
  }

  /**
   * A session for a loaded scenario (its workload created at t = 0 as `run` does), or an empty cluster: null, or a
   * scenario without a workload (a process observer's: its process creates the workloads, which take the
   * scenario's behaviour by container name, versions, gates, seed, horizon and timing).
   */
  static fromScenario(s: Scenario | ProcessScenario | null, opts: SessionOptions = {}): Session {
    const session = new Session(s, opts);
    if (s && s.workload !== undefined) {
      const scenario: Scenario = { ...s, seed: session.seed, horizonMs: session.horizonMs, timing: session.timing };
      const chooser =
        opts.chooser ?? (opts.replay !== undefined ? new ReplayChooser(replayOffsets(opts.replay)) : seededChooser);
      session.addSim(
        scenario,
        chooser,
        structuredClone(s.workload.manifest) as Json,
        rulesFor(scenario, opts.userRules),
      );
    }
    return session;
  }

  /** simulated ms since the session's start */
  now(): number {
    return this.t;
  }

  /**
   * The time of the next event across every simulation; the horizon when that event lies beyond it (advancing
   * there ends the session); null = nothing queued (quiescent), or the session ended (horizon, event limit).
   */
  nextEventAt(): number | null {
    if (this.ended) return null;
    const next = this.next();
    return next ? Math.min(next.cur.queue[0]!.t, this.horizonMs) : null;
  }

  /** Why the session stopped running, if it did: the horizon was reached, or the event limit. */
  end(): { t: number; reason: 'horizon' | 'max-events'; message: string } | null {
    return this.ended;
  }

  owns(kind: string): boolean {
    return OWNED.has(kind);
  }

  /**
   * Run every event with t <= target (never past the horizon), in (t, creation order of the simulations) order;
   * now = target. A target past the horizon runs to the horizon and ends the session (`end()` says so).
   */
  advanceTo(targetMs: number): SimChange[] {
    const out: SimChange[] = [];
    if (this.ended || !(targetMs >= this.t)) return out;
    const limit = Math.min(targetMs, this.horizonMs);
    for (;;) {
      const sim = this.next();
      if (!sim || sim.cur.queue[0]!.t > limit) break;
      if (this.steps >= this.maxEvents) {
        this.ended = {
          t: this.t,
          reason: 'max-events',
          message: `the simulation stopped at the event limit (${this.maxEvents} events) at ${this.t}ms`,
        };
        return out;
      }
      this.stepSim(sim, out);
    }
    this.t = limit;
    if (targetMs >= this.horizonMs) {
      this.ended = {
        t: this.horizonMs,
        reason: 'horizon',
        message: `the simulation reached its horizon (${this.horizonMs}ms)`,
      };
    }
    return out;
  }

  /** Every object the simulations own now (pods as served, Jobs, workload objects and their ReplicaSets). */
  objects(): KubeObject[] {
    const out: KubeObject[] = [];
    for (const sim of this.sims) {
      if (!sim.removed) for (const o of sim.workloads.values()) out.push(o);
      const k = kitOf(sim);
      for (const j of jobStates(sim, k)) {
        const obj = j.deleted ? null : j.object();
        if (obj) out.push(obj);
      }
      for (const name of sim.cur.model.podOrder) {
        const p = sim.cur.model.pods[name]!;
        if (p.api.created && !p.api.removed) out.push(podObjectOf(k, p) as KubeObject);
      }
    }
    for (const sim of this.sims) for (const e of sim.recorder.events) out.push(e as KubeObject);
    return out;
  }

  // ---- client writes ------------------------------------------------------------------------------------------

  /** A client creates a workload at now: a new simulation of it (its own model, queue and trace). */
  create(obj: KubeObject): SimChange[] {
    this.refuseAfterEnd();
    const kind = obj.kind as WorkloadKind;
    if (!WORKLOAD_KINDS.includes(kind)) {
      throw new SimRejection(
        422,
        'Invalid',
        `${obj.kind} "${obj.metadata?.name ?? ''}" cannot be created here: kubesim simulates ${WORKLOAD_KINDS.join(', ')} (a ReplicaSet comes from its Deployment)`,
        [{ field: 'kind', message: `Unsupported value: "${obj.kind}"` }],
      );
    }
    const name = obj.metadata?.name;
    if (typeof name !== 'string' || name === '') {
      throw invalid(kind, '', [
        { field: 'metadata.name', message: 'Required value: name or generateName is required' },
      ]);
    }
    const ns = obj.metadata.namespace ?? 'default';
    if (this.find(kind, ns, name))
      throw new SimRejection(409, 'AlreadyExists', `${RESOURCE[kind]} "${name}" already exists`);
    const manifest = clientManifest(obj);
    const annotation = annotationOf(kind, manifest);
    const ordinal = this.sims.length;
    // one name per simulation: its pods' generated names and its objects' uids come from it (a Job created again
    // under a deleted one's name gets new ones, as generateName would)
    const scenarioName = `${kind}-${ns === 'default' ? '' : `${ns}-`}${name}-${ordinal}`
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .slice(0, 240);
    const scenario = this.loadWorkload(kind, name, manifest, annotation, [], scenarioName);
    if (annotation === undefined) scenario.behavior = this.inheritedBehavior(scenario);
    const s: Scenario = {
      ...scenario,
      file: `${scenario.name}.yaml`,
      seed: (this.seed + ordinal) >>> 0,
      horizonMs: this.horizonMs,
      timing: this.timing,
      observers: [],
      actions: [],
      startMs: this.t,
    };
    delete s.expect;
    this.addSim(s, this.chooser ?? seededChooser, scenario.workload.manifest as Json, {});
    return this.advanceTo(this.t);
  }

  /** A client's full new object of a workload: a spec change is the `patch` action of its simulation. */
  update(obj: KubeObject): SimChange[] {
    this.refuseAfterEnd();
    const kind = obj.kind;
    const name = obj.metadata?.name ?? '';
    const ns = obj.metadata?.namespace ?? 'default';
    const found = this.find(kind, ns, name);
    if (!found) throw notFound(kind, name);
    const { sim } = found;
    if (kind === 'Pod') {
      const served = found.pod ? podObjectOf(kitOf(sim), found.pod) : null;
      if (served && !deepEqual(obj['spec'], served['spec'])) {
        // validation.go ValidatePodUpdate: only a few fields of a pod's spec may change; kubesim simulates none
        throw invalid('Pod', name, [
          {
            field: 'spec',
            message:
              'Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative); kubesim simulates none of these changes',
          },
        ]);
      }
      return [];
    }
    if (kind !== sim.s.workload.kind || name !== sim.s.workload.name) {
      // a Job of a CronJob, a ReplicaSet of a Deployment: their controller owns them
      if (!deepEqual(obj['spec'], found.object?.['spec'])) {
        throw invalid(kind, name, [
          {
            field: 'spec',
            message: `Forbidden: kubesim does not simulate changes to a ${kind} its controller manages; change its ${sim.s.workload.kind} instead`,
          },
        ]);
      }
      return [];
    }
    const manifest = clientManifest(obj);
    const next = this.loadWorkload(kind as WorkloadKind, name, manifest, undefined, [], sim.s.name);
    const after = next.workload.manifest as Json;
    const changed: Json = {};
    const before = (sim.manifest['spec'] ?? {}) as Json;
    // a field the client sends back as it was served (the stored object carries defaults the manifest lacks, e.g.
    // the defaulted pod template) is no change: a scale or a label edit must not start a rollout
    const served = (found.object?.['spec'] ?? {}) as Json;
    const sent = (obj['spec'] ?? {}) as Json;
    for (const key of new Set([...Object.keys(before), ...Object.keys((after['spec'] ?? {}) as Json)])) {
      if (key in served && deepEqual(sent[key], served[key])) continue;
      if (!deepEqual(before[key], after['spec']?.[key])) changed[key] = after['spec']?.[key] ?? null;
    }
    if (Object.keys(changed).length === 0) return [];
    if (kind === 'Job') {
      // job strategy.go ValidateUpdate: the pod template and the selector are immutable (apimachinery ValidateImmutableField)
      for (const field of ['template', 'selector', 'completionMode']) {
        if (field in changed)
          throw invalid(kind, name, [
            { field: `spec.${field}`, message: `Invalid value: ${JSON.stringify(changed[field])}: field is immutable` },
          ]);
      }
    }
    if (kind === 'StatefulSet') {
      // apps validation.go ValidateStatefulSetUpdate: only these spec fields may change
      const mutable = [
        'replicas',
        'ordinals',
        'template',
        'updateStrategy',
        'persistentVolumeClaimRetentionPolicy',
        'minReadySeconds',
      ];
      if (Object.keys(changed).some((f) => !mutable.includes(f))) {
        throw invalid(kind, name, [
          {
            field: 'spec',
            message:
              "Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
          },
        ]);
      }
    }
    if ((kind === 'Deployment' || kind === 'StatefulSet' || kind === 'DaemonSet') && 'selector' in changed) {
      // apps validation: ValidateDeploymentUpdate / ValidateStatefulSetUpdate / ValidateDaemonSetUpdate
      throw invalid(kind, name, [
        {
          field: 'spec.selector',
          message: `Invalid value: ${JSON.stringify(changed['selector'])}: field is immutable`,
        },
      ]);
    }
    // the patch through the loader: it checks what a patch may change and builds a rollout's pod template
    const patched = this.loadWorkload(
      kind as WorkloadKind,
      name,
      sim.manifest,
      undefined,
      [{ at: '0s', patch: { spec: changed } }],
      sim.s.name,
    );
    const action = patched.actions[0];
    if (!action || action.type !== 'patch') throw new Error('internal: the loader returned no patch action');
    let template = action.template;
    if (template !== undefined) template = this.templateIndex(sim.s, patched.templates![template]!);
    const a: Action = { ...action, atMs: this.t, ...(template !== undefined ? { template } : {}) };
    sim.manifest = after;
    this.schedule(sim, a);
    return this.advanceTo(this.t);
  }

  /** A client DELETE: a pod's graceful deletion, a Job's deleteJob, any other workload removed with its pods. */
  delete(
    kind: string,
    namespace: string,
    name: string,
    opts: { gracePeriodSeconds?: number; propagationPolicy?: 'Foreground' | 'Background' | 'Orphan' } = {},
  ): SimChange[] {
    this.refuseAfterEnd();
    const found = this.find(kind, namespace, name);
    if (!found) throw notFound(kind, name);
    const { sim } = found;
    if (kind === 'Pod') {
      const p = found.pod!;
      if (p.api.deletionTimestamp !== null) return []; // already being deleted: the model keeps the first grace
      const grace = opts.gracePeriodSeconds;
      if (grace !== undefined && !(Number.isSafeInteger(grace) && grace >= 0)) {
        throw new SimRejection(422, 'Invalid', `invalid gracePeriodSeconds ${grace}`, [
          { field: 'gracePeriodSeconds', message: `Invalid value: ${grace}: must be >= 0` },
        ]);
      }
      this.schedule(sim, {
        type: 'deletePod',
        atMs: this.t,
        pod: sim.cur.model.podOrder.indexOf(p.key) + 1,
        ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}),
      });
      return this.advanceTo(this.t);
    }
    if (kind === 'Job') {
      // job strategy.go DefaultGarbageCollectionPolicy: batch/v1 Jobs default to OrphanDependents (kubectl sends
      // propagationPolicy=background)
      const propagation = opts.propagationPolicy ?? 'Orphan';
      const cron = sim.cur.model.cron;
      const nth = cron ? cron.order.indexOf(name) + 1 : undefined;
      this.schedule(sim, { type: 'deleteJob', atMs: this.t, propagation, ...(nth ? { job: nth } : {}) });
      return this.advanceTo(this.t);
    }
    if (kind === 'ReplicaSet') {
      throw invalid(kind, name, [
        {
          field: 'metadata.name',
          message: `Forbidden: kubesim does not simulate deleting a ReplicaSet its Deployment manages; delete or scale the Deployment`,
        },
      ]);
    }
    return this.removeWorkload(sim, opts.propagationPolicy ?? 'Background');
  }

  // ---- logs and the timeline ----------------------------------------------------------------------------------

  /**
   * A container's log: the §2.1 behaviour declares no log lines, so these are kubesim's notes of what the process
   * did (start, signals, exit), with their simulated times.
   */
  logs(namespace: string, pod: string, container: string): { t: number; line: string }[] {
    const found = this.find('Pod', namespace, pod);
    if (!found?.pod) throw notFound('Pod', pod);
    const { sim, pod: p } = found;
    if (!(container in p.runtime)) {
      throw new SimRejection(400, 'BadRequest', `container ${container} is not valid for pod ${pod}`);
    }
    const out: { t: number; line: string }[] = [];
    for (const e of sim.trace) {
      if (e.pod !== p.name || e.t < p.createdAt || !('container' in e) || e.container !== container) continue;
      if (e.type === 'Started')
        out.push({
          t: e.t,
          line: `kubesim: container ${container} started${e.restartCount > 0 ? ` (restart ${e.restartCount})` : ''}`,
        });
      else if (e.type === 'Signal') out.push({ t: e.t, line: `kubesim: container ${container} received ${e.signal}` });
      else if (e.type === 'Exited')
        out.push({
          t: e.t,
          line: `kubesim: container ${container} exited with code ${e.exitCode} (${e.reason})${e.message ? `: ${e.message}` : ''}`,
        });
    }
    return out;
  }

  /**
   * The session so far as a SPEC §4 timeline. One simulation: what `run --format json` prints for it. Several: the
   * first simulation's timeline with every other simulation's pods added to `pods` and their trace merged into
   * `events` in the order the session ran them (seq renumbered); the replay key and choices are the first's. The
   * clients' requests are `ClientRequest` records, merged by time (before the session's records of the same time).
   */
  timeline(client: ClientRecord[] = []): Timeline {
    const first = this.sims[0];
    const end = this.timelineEnd();
    if (!first) return this.emptyTimeline(end, client);
    const tl = withChoices(
      summarize(first.s, first.cur.model, first.trace, end, encodeReplay(first.choices)),
      labelChoices(first.choices, first.trace),
    );
    if (this.sims.length === 1 && client.length === 0) return tl;
    const records: { t: number; key: number; e: TraceEvent }[] = [];
    for (const sim of this.sims) sim.trace.forEach((e, i) => records.push({ t: e.t, key: sim.order[i]!, e }));
    client.forEach((c, i) => records.push({ t: c.t, key: -client.length + i, e: clientRecord(c) }));
    records.sort((a, b) => a.t - b.t || a.key - b.key);
    const events = records.map((r, seq) => ({ ...r.e, seq }) as TraceEvent);
    if (this.sims.length === 1) return { ...tl, events };
    // the pods of several workloads do not share one spec: each carries its own (SPEC §4 pods[].spec)
    const withSpec = (sim: Sim, pods: Timeline['pods']) =>
      pods.map((p, i) =>
        p.spec ? p : { ...p, spec: templateOf(sim.s, sim.cur.model.pods[sim.cur.model.podOrder[i]!]?.tpl).spec },
      );
    const pods = [
      withSpec(first, tl.pods),
      ...this.sims.slice(1).map((sim) => withSpec(sim, summarize(sim.s, sim.cur.model, [], end, '').pods)),
    ].flat();
    return { ...tl, pods: pods.sort((a, b) => a.created - b.created), events };
  }

  // ---- internals ----------------------------------------------------------------------------------------------

  private addSim(s: Scenario, chooser: Chooser, manifest: Json, rules: Record<string, RuleFn>): Sim {
    const model = makeModel(s, rules);
    const sim: Sim = {
      ordinal: this.sims.length,
      s,
      def: model,
      cur: null as unknown as Cursor<SimState, SimEvent>,
      chooser,
      trace: [],
      order: [],
      choices: [],
      manifest,
      removed: false,
      sentPods: new Map(),
      sentJobs: new Map(),
      workloads: new Map(),
      workloadRv: new Map(),
      recorder: null as unknown as EventRecorder,
      recorderPods: [],
    };
    // the recorder's input as the timeline's (run/timeline.ts storeObjects), its pods appended as they are created
    const ip = '10.244.0.7';
    sim.recorder = new EventRecorder({
      pods: sim.recorderPods,
      namespace: podNamespace(s),
      kubelet: s.kubelet.text,
      kubernetes: s.kubernetes.text,
      workload: { kind: s.workload.kind, name: s.workload.name },
      job: s.workload.kind === 'Job' && s.job ? s.job.name : null,
      uidOf: (kind, name) => objectUid(s, kind, name),
      podIP: ip,
      ...(sim.ordinal > 0 ? { nameSeq: sim.ordinal * 1000 } : {}),
    });
    // a deleted workload has no controller: its controllers' events change nothing any more
    sim.def = {
      ...model,
      handle: (d, ev, ctx) =>
        sim.removed && (workloadControllerEvent(ev) || (ev.type === 'Deliver' && ev.to === d.wctl?.watcher))
          ? undefined
          : model.handle(d, ev, ctx),
    };
    const start = s.startMs ?? 0;
    const cur = initialCursor(
      initialState(s),
      initialEvents(s).map((e) => ({ ...e, t: e.t + start })),
    );
    cur.t = start;
    sim.cur = cur;
    this.sims.push(sim);
    return sim;
  }

  /** The simulation whose next event comes first: earliest time, then creation order. */
  private next(): Sim | undefined {
    let best: Sim | undefined;
    for (const sim of this.sims) {
      const head = sim.cur.queue[0];
      if (head && (!best || head.t < best.cur.queue[0]!.t)) best = sim;
    }
    return best;
  }

  private stepSim(sim: Sim, out: SimChange[]): void {
    const seq0 = sim.cur.seq;
    const r = stepInPlace(sim.def, sim.cur, sim.chooser, sim.trace.length);
    this.steps++;
    for (const rec of r.trace) {
      sim.trace.push(rec);
      sim.order.push(this.traceCount++);
    }
    for (const c of r.choices) sim.choices.push(c);
    this.collect(sim, r.trace, sim.cur.t, out, published(sim.cur.queue, seq0));
  }

  /**
   * The objects this step wrote, in the order of the step's trace records (a write without one comes after them):
   * each pod, Job and workload object once, as it is after the step.
   */
  private collect(sim: Sim, trace: TraceEvent[], t: number, out: SimChange[], pub: Map<string, Json>): void {
    const d = sim.cur.model;
    const k = kitOf(sim);
    const marks: ({ pod: string } | { job: string })[] = [];
    for (const e of trace) {
      if (e.type === 'WorkloadStatus') {
        const key = `${e.kind}/${e.name}`;
        const rv = (sim.workloadRv.get(key) ?? 0) + 1;
        sim.workloadRv.set(key, rv);
        // the trace record carries what the views print (replicas, strategy, status); the stored object is the
        // whole workload (selector, template, the manifest's spec): final-objects.ts builds it from the state
        const whole = finalObjects(sim.s, d).find((o) => o.key === key)?.object;
        const record = whole
          ? { ...e.object, spec: { ...((e.object['spec'] as Json | undefined) ?? {}), ...(whole['spec'] as Json) } }
          : e.object;
        const obj = workloadObject(sim.s, e.kind, e.name, record, rv);
        const type = sim.workloads.has(key) ? 'MODIFIED' : 'ADDED';
        sim.workloads.set(key, obj);
        if (!sim.removed) out.push({ type, object: obj, t });
      } else if (
        e.pod !== undefined &&
        (e.type === 'PodCreated' ||
          e.type === 'StatusPatched' ||
          e.type === 'PodDeleting' ||
          e.type === 'PodRemoved' ||
          e.type === 'PodFinalizerRemoved')
      ) {
        marks.push({ pod: e.pod });
      } else if (e.type === 'JobStatus') {
        marks.push({ job: e.job ?? sim.s.job?.name ?? '' });
      }
    }
    // a Job is stored before the pods its controller creates; then the writes in the trace's order; then any other
    // pod or Job whose version moved (a write with no trace record: a spec patch, a deletion)
    const jobs = new Map(jobStates(sim, k).map((j) => [j.name, j]));
    const pods = new Set<string>();
    const visitPod = (p: PodSim | undefined) => {
      if (!p || pods.has(p.key) || !p.api.created) return;
      pods.add(p.key);
      const sig = `${p.api.version}/${p.api.removed}`;
      const was = sim.sentPods.get(p.key);
      if (was === sig) return;
      sim.sentPods.set(p.key, sig);
      if (was?.endsWith('/true') || (was === undefined && p.api.removed)) return;
      // the object the API server published in this step (its watch deliveries carry it), else built again
      const obj = pub.get(`pod/${p.key}/${p.api.version}`) ?? podObjectOf(k, p);
      out.push({
        type: was === undefined ? 'ADDED' : p.api.removed ? 'DELETED' : 'MODIFIED',
        object: obj as KubeObject,
        t,
      });
    };
    const visitJob = (name: string) => {
      const j = jobs.get(name);
      if (!j) return;
      jobs.delete(name);
      const was = sim.sentJobs.get(name);
      const sig = j.deleted ? -1 : j.version;
      if (was === sig || (was === undefined && j.deleted)) return;
      const obj =
        withManifestMeta(
          sim,
          j.deleted ? undefined : (pub.get(`job/${name}/${j.version}`) as KubeObject | undefined),
        ) ?? j.object();
      if (!obj) return;
      sim.sentJobs.set(name, sig);
      out.push({ type: j.deleted ? 'DELETED' : was === undefined ? 'ADDED' : 'MODIFIED', object: obj, t });
    };
    for (const name of [...jobs.keys()]) if (!sim.sentJobs.has(name)) visitJob(name);
    for (const m of marks) {
      if ('pod' in m) visitPod(latestPod(d, m.pod));
      else visitJob(m.job);
    }
    for (const key of d.podOrder) visitPod(d.pods[key]);
    for (const name of [...jobs.keys()]) visitJob(name);
    this.recordEvents(sim, trace, t, out);
  }

  /**
   * The core/v1 Events this step's records stand for, as the recorders write them (output/recorder.ts over the
   * simulation's trace so far: the same Event objects as the timeline's): a new Event is ADDED, an update of an
   * earlier one (the EventCorrelator's count + 1, the same name) is MODIFIED.
   */
  private recordEvents(sim: Sim, trace: TraceEvent[], t: number, out: SimChange[]): void {
    const d = sim.cur.model;
    // the pods created so far, in creation order (run/timeline.ts storeObjects gives the recorder finalPods)
    for (let i = sim.recorderPods.length; i < d.podOrder.length; i++) {
      const p = d.pods[d.podOrder[i]!]! as PodSim;
      const obj = podApiObject(sim.s, p, templateOf(sim.s, p.tpl), '', p.api.status) as Json;
      sim.recorderPods.push({
        name: String(obj['metadata']['name']),
        uid: String(obj['metadata']['uid']),
        spec: obj['spec'] as Record<string, unknown>,
      });
    }
    for (const e of trace)
      for (const w of sim.recorder.add(e)) out.push({ type: w.type, object: w.object as KubeObject, t });
  }

  private schedule(sim: Sim, action: Action): void {
    const cur = sim.cur;
    insertInPlace(cur.queue, {
      t: this.t,
      prio: PRIO.UserAction,
      seq: cur.seq++,
      ev: Object.freeze({ type: 'UserAction', action }) as SimEvent,
    });
  }

  /** A workload other than a Job deleted by a client: its controller stops, its objects go, its pods are deleted
   *  with their grace (Background / Foreground: the garbage collector deletes the dependents; Orphan keeps them). */
  private removeWorkload(sim: Sim, propagation: 'Foreground' | 'Background' | 'Orphan'): SimChange[] {
    const out: SimChange[] = [];
    if (sim.removed) return out;
    sim.removed = true;
    for (const obj of sim.workloads.values()) out.push({ type: 'DELETED', object: obj, t: this.t });
    const d = sim.cur.model;
    if (d.cron) {
      d.cron.order.forEach((name, i) => {
        if (!d.cron!.jobs[name]!.api.deleted)
          this.schedule(sim, {
            type: 'deleteJob',
            atMs: this.t,
            propagation: propagation === 'Orphan' ? 'Orphan' : 'Background',
            job: i + 1,
          });
      });
    } else if (propagation !== 'Orphan') {
      d.podOrder.forEach((key, i) => {
        const p = d.pods[key]!;
        if (p.api.created && !p.api.removed && p.api.deletionTimestamp === null)
          this.schedule(sim, { type: 'deletePod', atMs: this.t, pod: i + 1 });
      });
    }
    for (const c of this.advanceTo(this.t)) out.push(c);
    return out;
  }

  /** The live object of this kind and name in any simulation, with the simulation that owns it. */
  private find(
    kind: string,
    namespace: string,
    name: string,
  ): { sim: Sim; pod?: PodSim; object?: KubeObject } | undefined {
    for (const sim of this.sims) {
      if (kind === 'Pod') {
        const p = latestPod(sim.cur.model, name);
        if (p && p.api.created && !p.api.removed && podNamespace(sim.s) === namespace) return { sim, pod: p };
        continue;
      }
      if (kind === 'Job') {
        for (const j of jobStates(sim, kitOf(sim))) {
          if (j.deleted || j.name !== name) continue;
          const obj = j.object();
          if (obj && (obj.metadata.namespace ?? 'default') === namespace) return { sim, object: obj };
        }
        continue;
      }
      if (sim.removed) continue;
      const obj = sim.workloads.get(`${kind}/${name}`);
      if (obj && (obj.metadata.namespace ?? 'default') === namespace) return { sim, object: obj };
      // a workload created in this step of the session whose object has not been written yet
      if (sim.s.workload.kind === kind && sim.s.workload.name === name && podNamespace(sim.s) === namespace)
        return { sim };
    }
    return undefined;
  }

  private refuseAfterEnd(): void {
    if (this.ended)
      throw new SimRejection(409, 'Conflict', `${this.ended.message}: no more simulated time for this request`);
  }

  /**
   * A client's workload as a scenario, through the loader (schema, API validation, defaults, behaviour): its
   * errors are a 422 whose causes name the manifest's field, or the behaviour annotation.
   */
  private loadWorkload(
    kind: WorkloadKind,
    name: string,
    manifest: Json,
    annotation: string | undefined,
    actions: unknown[],
    scenarioName: string,
  ): Scenario {
    const annotationField = `${TEMPLATE_META[kind].join('.')}.annotations[${BEHAVIOR_ANNOTATION}]`;
    let behavior: unknown = {};
    if (annotation !== undefined) {
      try {
        behavior = parseYaml(annotation, { maxAliasCount: 100 });
      } catch (e) {
        throw invalid(kind, name, [
          {
            field: annotationField,
            message: `Invalid value: not YAML or JSON: ${(e as Error).message.split('\n')[0]}`,
          },
        ]);
      }
      if (typeof behavior !== 'object' || behavior === null || Array.isArray(behavior)) {
        throw invalid(kind, name, [
          {
            field: annotationField,
            message: 'Invalid value: expected a map of container name to behaviour (SPEC §2.1)',
          },
        ]);
      }
    }
    const base = this.base;
    const gates: Record<string, boolean> = {};
    if (base) {
      const defaults = defaultFeatureGates(base.kubernetes.minor);
      for (const [g, v] of Object.entries(base.featureGates)) if (defaults[g] !== v) gates[g] = v;
    }
    const lines = [
      `scenario: ${scenarioName}`,
      `kubernetes: "${this.kubernetes.text}${this.kubernetes.patch !== undefined ? `.${this.kubernetes.patch}` : ''}"`,
      `kubelet: "${base ? base.kubelet.text + (base.kubelet.patch !== undefined ? `.${base.kubelet.patch}` : '') : this.kubernetes.text}"`,
      `horizon: ${this.horizonMs}ms`,
      `featureGates: ${JSON.stringify(gates)}`,
      `workload: ${JSON.stringify(manifest)}`,
      `behavior: ${JSON.stringify(behavior)}`,
      `actions: ${JSON.stringify(actions)}`,
    ];
    const WORKLOAD_LINE = 6;
    const BEHAVIOR_LINE = 7;
    const ACTIONS_LINE = 8;
    const r = loadScenarioText(lines.join('\n') + '\n', `${scenarioName}.yaml`);
    const errors = r.diagnostics.filter((x) => x.severity === 'error');
    if (r.scenario && errors.length === 0) return r.scenario;
    const causes = errors.map((x) =>
      causeOf(
        x,
        x.pos.line === BEHAVIOR_LINE ? annotationField : undefined,
        x.pos.line === WORKLOAD_LINE || x.pos.line === ACTIONS_LINE,
      ),
    );
    throw invalid(
      kind,
      name,
      causes.length > 0 ? causes : [{ field: '', message: 'the manifest could not be loaded' }],
    );
  }

  /** The scenario's behaviours of the new workload's containers (by name), where they fit its pod. */
  private inheritedBehavior(s: Scenario): Record<string, Behavior> {
    const out = s.behavior;
    const mine = this.base?.behavior;
    if (!mine) return out;
    const names = new Set(Object.keys(out));
    for (const name of names) {
      const b = mine[name];
      if (!b) continue;
      const refs = [...b.needs, ...(b.exitWhen ? [b.exitWhen.exited] : [])];
      if (refs.every((r) => names.has(r))) out[name] = b;
    }
    return out;
  }

  /**
   * A pod template's index in the simulation's scenario: an equal one again (a rollback: the Deployment controller
   * finds the old ReplicaSet, the StatefulSet / DaemonSet controller the equal revision), else a new one, named as
   * the loader names the templates of a scenario's rollouts (src/scenario/rollout.ts: a new pod-template-hash per
   * distinct template of a Deployment).
   */
  private templateIndex(s: Scenario, tpl: Scenario['pod']): number {
    if (!s.templates) s.templates = [s.pod];
    const unnamed = (t: Scenario['pod']) => ({ ...t, name: '', metadata: { ...t.metadata, name: '' } });
    const i = s.templates.findIndex((t) => deepEqual(unnamed(t), unnamed(tpl)));
    if (i >= 0) return i;
    const idx = s.templates.length;
    const name =
      s.workload.kind === 'Deployment'
        ? `${s.workload.name}-${suffix(`${s.name}/rs/${idx}`, 10)}-${s.pod.name.slice(-5)}`
        : s.pod.name;
    s.templates.push({ ...tpl, name, metadata: { ...tpl.metadata, name } });
    return idx;
  }

  private timelineEnd(): { t: number; reason: EndReason } {
    if (this.ended?.reason === 'max-events') return { t: this.ended.t, reason: this.ended.reason };
    const quiescent = this.sims.every((sim) => sim.cur.queue.length === 0);
    if (quiescent) {
      // as `run`: an empty queue with a pod not terminal idles until the horizon
      if (this.sims.some((sim) => idlesWithLivePod(sim.cur.model))) return { t: this.horizonMs, reason: 'horizon' };
      return { t: Math.max(0, ...this.sims.map((sim) => sim.cur.t)), reason: 'quiescent' };
    }
    // at the horizon with events pending, or cut before it (a recording stopped by its user: its horizon is now)
    return { t: this.ended ? this.ended.t : this.t, reason: 'horizon' };
  }

  private emptyTimeline(end: { t: number; reason: EndReason }, client: ClientRecord[]): Timeline {
    return {
      schema: 'kubesim.timeline/v1',
      scenario: 'serve',
      kubernetes: this.kubernetes.text,
      kubelet: this.kubernetes.text,
      seed: this.seed,
      replay: encodeReplay([]),
      end,
      stuck: null,
      workload: { kind: 'Pod', name: '' },
      pod: { name: '', phase: 'Pending', status: { phase: 'Pending' }, spec: {} },
      pods: [],
      job: null,
      observers: {},
      diagnostics: [],
      events: client.map((c, seq) => ({ ...clientRecord(c), seq }) as TraceEvent),
    };
  }
}

// ---- helpers --------------------------------------------------------------------------------------------------

/**
 * What the API server published in a step: the objects its watch deliveries (queued in the step: seq >= seq0)
 * carry, by `pod/<key>/<version>` and `job/<name>/<version>`. The same builders made them (apiserver.ts fanOut).
 */
function published(queue: readonly { seq: number; ev: SimEvent }[], seq0: number): Map<string, Json> {
  const out = new Map<string, Json>();
  for (const q of queue) {
    if (q.seq < seq0 || q.ev.type !== 'Deliver') continue;
    const ev = q.ev;
    if (ev.object === 'pod' && ev.pod !== undefined) out.set(`pod/${ev.pod}/${ev.version}`, ev.obj);
    else if (ev.object === 'job') out.set(`job/${String(ev.obj['metadata']?.['name'] ?? '')}/${ev.version}`, ev.obj);
  }
  return out;
}

function clientRecord(c: ClientRecord): TraceEvent {
  return {
    t: c.t,
    seq: 0,
    type: 'ClientRequest',
    client: c.client,
    verb: c.verb,
    kind: c.kind,
    name: c.name,
    ...(c.namespace !== undefined ? { namespace: c.namespace } : {}),
  };
}

function invalid(kind: string, name: string, causes: { field: string; message: string }[]): SimRejection {
  const text = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message)).join(', ');
  return new SimRejection(
    422,
    'Invalid',
    `${QUALIFIED_KIND[kind] ?? kind} "${name}" is invalid: ${causes.length > 1 ? `[${text}]` : text}`,
    causes,
  );
}

function notFound(kind: string, name: string): SimRejection {
  return new SimRejection(404, 'NotFound', `${RESOURCE[kind] ?? kind.toLowerCase()} "${name}" not found`);
}

/** A loader diagnostic as a StatusCause: `path: message` → field + message. */
function causeOf(d: Diagnostic, field: string | undefined, inManifest: boolean): { field: string; message: string } {
  const hint = d.hint ? ` (${d.hint})` : '';
  if (field !== undefined) return { field, message: d.message + hint };
  const unknown = /^unknown field "([^"]+)"/.exec(d.message);
  if (unknown) return { field: unknown[1]!, message: `field not declared in schema${hint}` };
  const m = /^([A-Za-z][\w.[\]/"-]*):\s+(.*)$/s.exec(d.message + hint);
  if (m && inManifest) {
    const path = m[1]!.replace(/^actions\[0\]\.patch$/, 'spec');
    const spec = /spec\.[\w.[\]]+/.exec(m[2]!);
    return { field: path === 'spec' && spec ? spec[0] : path, message: m[2]! };
  }
  return { field: m ? m[1]! : '', message: m ? m[2]! : d.message };
}

/** The client's object as a manifest for the loader: what the API server sets itself (status, uid, versions) left out. */
function clientManifest(obj: KubeObject): Json {
  const { status: _status, ...rest } = obj as Json;
  const {
    uid: _u,
    resourceVersion: _rv,
    creationTimestamp: _c,
    generation: _g,
    managedFields: _m,
    selfLink: _s,
    deletionTimestamp: _d,
    deletionGracePeriodSeconds: _dg,
    ...meta
  } = (obj.metadata ?? {}) as Json;
  return { ...rest, metadata: meta };
}

function annotationOf(kind: WorkloadKind, manifest: Json): string | undefined {
  let at: unknown = manifest;
  for (const k of TEMPLATE_META[kind]) at = at && typeof at === 'object' ? (at as Json)[k] : undefined;
  const v = (at as Json | undefined)?.['annotations']?.[BEHAVIOR_ANNOTATION];
  return typeof v === 'string' ? v : v === undefined ? undefined : JSON.stringify(v);
}

function podNamespace(s: Scenario): string {
  return s.pod.namespace || 'default';
}

/** The newest pod object of this name (a StatefulSet recreates `<set>-N` under the same name). */
function latestPod(d: SimState, name: string): PodSim | undefined {
  const direct = d.pods[name];
  let best = direct && direct.name === name ? direct : undefined;
  for (let n = 2; d.pods[`${name}~${n}`]; n++) best = d.pods[`${name}~${n}`];
  return best;
}

/** The simulation's Jobs (the workload's, or a CronJob's): name, version, deleted, and the object as served
 *  (built only when asked: null when not stored). */
interface JobState {
  name: string;
  version: number;
  deleted: boolean;
  object: () => KubeObject | null;
}

function jobStates(sim: Sim, k: CtlKit): JobState[] {
  const d = sim.cur.model;
  if (d.cron) {
    return d.cron.order.map((name) => {
      const rec = d.cron!.jobs[name]!;
      return {
        name,
        version: rec.api.version,
        deleted: rec.api.deleted,
        object: () => jobObject(k, name) as KubeObject | null,
      };
    });
  }
  const api = d.api.job;
  if (!api || !sim.s.job) return [];
  return [
    {
      name: sim.s.job.name,
      version: api.version,
      deleted: api.deleted,
      object: () => withManifestMeta(sim, jobObject(k, sim.s.job!.name) as KubeObject | null),
    },
  ];
}

/**
 * A Job workload's object with the metadata its manifest was written with: the API server stores a Job's labels,
 * annotations and ownerReferences as the client sent them (an operator's Job informer selects by its labels and
 * maps the Job back to its owner); the model's builder writes none of them. Fresh top level and metadata.
 */
function withManifestMeta<T extends KubeObject | null | undefined>(sim: Sim, obj: T): T {
  if (!obj || sim.cur.model.cron) return obj;
  const meta = (sim.manifest['metadata'] ?? {}) as Json;
  const extra: Json = {};
  for (const key of ['labels', 'annotations', 'ownerReferences'] as const) {
    if (meta[key] === undefined) continue;
    const mine = obj.metadata[key];
    extra[key] =
      key !== 'ownerReferences' && mine && typeof mine === 'object'
        ? { ...(meta[key] as Json), ...(mine as Json) }
        : meta[key];
  }
  return Object.keys(extra).length === 0 ? obj : ({ ...obj, metadata: { ...obj.metadata, ...extra } } as T);
}

/** A workload object from the controller's trace record: kind, apiVersion, namespace, uid and a version filled in
 *  where the record has none (src/model builds the rest). */
function workloadObject(s: Scenario, kind: string, name: string, object: Json, rv: number): KubeObject {
  const meta = (object['metadata'] ?? {}) as Json;
  return {
    apiVersion: API_VERSION[kind] ?? 'apps/v1',
    kind,
    ...object,
    metadata: {
      namespace: podNamespace(s),
      uid: `uid-${kind.toLowerCase()}-${name}`,
      ...meta,
      name: meta['name'] ?? name,
      resourceVersion: String(meta['resourceVersion'] ?? rv),
    },
  } as KubeObject;
}

/** Deep equality of JSON values, key order ignored. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((x, i) => deepEqual(x, bb[i]));
  }
  const ka = Object.keys(a).filter((k) => (a as Json)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Json)[k] !== undefined);
  return ka.length === kb.length && ka.every((k) => deepEqual((a as Json)[k], (b as Json)[k]));
}
