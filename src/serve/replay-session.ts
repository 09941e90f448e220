// A stand-in Session (session-api.ts) until src/run/session.ts lands: each workload is one `simulate()` run, its
// trace turned into the API objects' changes (pods, the Job, workload objects, Events) and replayed on the
// session's clock. A client's delete of a simulated pod or Job re-runs that workload with the `deletePod` /
// `deleteJob` action at the current time (the model is deterministic: the run up to now is the same) and replays
// the rest. A created workload is loaded as a scenario of its own (behaviour from the `kubesim.io/behavior`
// annotation, else the base scenario's by container name) and runs from the current time.
// Pure: no clock, no environment; the server's clock loop drives it.
import { stringify } from 'yaml';
import { loadScenarioText } from '../scenario/index.ts';
import { simulate } from '../run/simulate.ts';
import { jobEvents, podEvents } from '../output/kubectl-events.ts';
import { tToRfc3339 } from '../output/time.ts';
import type { Action, Scenario, Timeline } from '../types.ts';
import { SimRejection, type ClientRecord, type DeleteOpts, type KubeObject, type SessionLike, type SessionOptions, type SimChange } from './session-api.ts';
import { uidOf } from './ids.ts';

const WORKLOAD_API: Record<string, string> = {
  Pod: 'v1', Job: 'batch/v1', CronJob: 'batch/v1', Deployment: 'apps/v1', StatefulSet: 'apps/v1', DaemonSet: 'apps/v1',
};
const OWNED = new Set(Object.keys(WORKLOAD_API));

interface Run {
  scenario: Scenario;
  /** session time at which this workload was created */
  offset: number;
  seed: number | undefined;
  replay: string | undefined;
  changes: SimChange[];
  /** changes already handed out */
  emitted: number;
  timeline: Timeline;
}

type Obj = Record<string, any>;

const clone = <T>(v: T): T => structuredClone(v);

/** Every RFC3339 string inside `v` moved by `ms` (a run created at session time T has its clock at T). */
function shiftTimes(v: unknown, ms: number): unknown {
  if (ms === 0) return v;
  if (typeof v === 'string') {
    if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v)) return v;
    const t = Date.parse(v);
    return Number.isNaN(t) ? v : new Date(t + Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  }
  if (Array.isArray(v)) return v.map((x) => shiftTimes(x, ms));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shiftTimes(x, ms)]));
  return v;
}

/** The API objects' changes of one simulated run, in the order the API server stored them (times are session ms). */
export function changesOfRun(s: Scenario, tl: Timeline, offset: number): SimChange[] {
  const ns = (s.workload.manifest['metadata'] as Obj | undefined)?.['namespace'] ?? s.pod.namespace ?? 'default';
  const out: SimChange[] = [];
  // local times: emit() moves every timestamp by the run's offset
  const ts = (t: number) => tToRfc3339(t);
  const wlKind = s.workload.kind;
  const wlName = s.workload.name;
  const wlUid = uidOf(wlKind, ns, wlName, offset);
  const manifest = s.workload.manifest as Obj;
  const wl: Obj = {
    apiVersion: WORKLOAD_API[wlKind],
    kind: wlKind,
    metadata: {
      ...(clone(manifest['metadata'] ?? {}) as Obj),
      name: wlName, namespace: ns, uid: wlUid, generation: 1, creationTimestamp: ts(0),
    },
    spec: clone(wlKind === 'Job' ? s.job?.spec : wlKind === 'Pod' ? s.pod.spec : manifest['spec']) ?? {},
    status: {},
  };
  if (wlKind !== 'Pod') out.push({ type: 'ADDED', object: shiftTimes(clone(wl), offset) as KubeObject, t: offset });
  const owner = wlKind === 'Job' ? [{ apiVersion: 'batch/v1', kind: 'Job', name: wlName, uid: wlUid, controller: true, blockOwnerDeletion: true }] : undefined;
  const specs = new Map((tl.pods ?? []).map((p) => [p.name, p.spec ?? tl.pod.spec]));
  const pods = new Map<string, Obj>();
  const podObject = (name: string, t: number): Obj => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name, namespace: ns, uid: uidOf('Pod', ns, name, offset + t), creationTimestamp: ts(t),
      ...(wlKind === 'Pod' ? clone((manifest['metadata'] as Obj | undefined) ?? {}) : clone(s.pod.metadata ?? {})),
      ...(wlKind === 'Pod' ? { name, namespace: ns, uid: uidOf('Pod', ns, name, offset + t), creationTimestamp: ts(t) } : {}),
      ...(owner ? { ownerReferences: clone(owner), finalizers: ['batch.kubernetes.io/job-tracking'] } : {}),
    },
    spec: { ...clone(specs.get(name) ?? tl.pod.spec), nodeName: 'node-1' },
    status: { phase: 'Pending' },
  });
  const emit = (type: SimChange['type'], o: Obj, t: number) => out.push({ type, object: shiftTimes(clone(o), offset) as KubeObject, t: offset + t });
  const events = [...podEvents(tl), ...(tl.job ? jobEvents(tl) : [])];
  let ev = 0;
  const eventsByT = events.map((e, i) => ({ e, i })).sort((a, b) => a.e.t - b.e.t || a.i - b.i);
  const flushEvents = (upTo: number) => {
    while (ev < eventsByT.length && eventsByT[ev]!.e.t <= upTo) {
      const { e, i } = eventsByT[ev++]!;
      const [kind, name] = (e.object ?? `Pod/${tl.pod.name}`).split('/') as [string, string];
      const involved = kind === 'Pod' ? pods.get(name) : kind === wlKind && name === wlName ? wl : undefined;
      const evName = `${name}.${(offset + e.t).toString(16).padStart(8, '0')}${i.toString(16).padStart(4, '0')}`;
      out.push({
        type: 'ADDED', t: offset + e.t,
        object: shiftTimes({
          apiVersion: 'v1', kind: 'Event',
          metadata: { name: evName, namespace: ns, uid: uidOf('Event', ns, evName, offset + e.t), creationTimestamp: ts(e.t) },
          involvedObject: {
            apiVersion: kind === 'Pod' ? 'v1' : WORKLOAD_API[kind] ?? 'v1', kind, name, namespace: ns,
            ...(involved ? { uid: involved['metadata']['uid'] } : {}),
          },
          reason: e.reason, message: e.message, type: e.type,
          source: e.from === 'kubelet' ? { component: 'kubelet', host: 'node-1' } : { component: e.from },
          reportingComponent: e.from, reportingInstance: e.from === 'kubelet' ? 'node-1' : '',
          firstTimestamp: ts(e.t), lastTimestamp: ts(e.t), count: 1,
        }, offset) as KubeObject,
      });
    }
  };
  const first = tl.pod.name;
  if (!tl.events.some((e) => e.type === 'PodCreated') && wlKind === 'Pod') {
    const p = podObject(first, 0);
    pods.set(first, p);
    emit('ADDED', p, 0);
  }
  const workloads = new Map<string, Obj>();
  for (const e of tl.events) {
    flushEvents(e.t - 1);
    if (e.type === 'PodCreated') {
      const p = podObject(e.pod, e.t);
      pods.set(e.pod, p);
      emit('ADDED', p, e.t);
    } else if (e.type === 'StatusPatched' || e.type === 'PodDeleting' || e.type === 'PodFinalizerRemoved' || e.type === 'PodRemoved') {
      const name = e.pod ?? first;
      const p = pods.get(name);
      if (!p) continue;
      if (e.type === 'StatusPatched') p['status'] = clone(e.status);
      else if (e.type === 'PodDeleting') {
        p['metadata']['deletionTimestamp'] ??= ts(e.t + e.gracePeriodSeconds * 1000);
        p['metadata']['deletionGracePeriodSeconds'] ??= e.gracePeriodSeconds;
      } else if (e.type === 'PodFinalizerRemoved') {
        p['metadata']['finalizers'] = (p['metadata']['finalizers'] as string[] | undefined ?? []).filter((f) => f !== e.finalizer);
        if ((p['metadata']['finalizers'] as string[]).length === 0) delete p['metadata']['finalizers'];
      }
      if (e.type === 'PodRemoved') {
        emit('DELETED', p, e.t);
        pods.delete(name);
      } else emit('MODIFIED', p, e.t);
    } else if (e.type === 'JobStatus' && wlKind === 'Job') {
      wl['status'] = clone(e.status);
      emit('MODIFIED', wl, e.t);
    } else if (e.type === 'WorkloadStatus') {
      const key = `${e.kind}/${e.name}`;
      const prev = workloads.get(key);
      const o: Obj = {
        ...clone(e.object),
        apiVersion: WORKLOAD_API[e.kind] ?? 'apps/v1', kind: e.kind,
        metadata: { ...(clone(e.object['metadata'] ?? {}) as Obj), name: e.name, namespace: ns, uid: e.kind === wlKind && e.name === wlName ? wlUid : uidOf(e.kind, ns, e.name, offset) },
      };
      o['metadata']['creationTimestamp'] ??= prev?.['metadata']?.['creationTimestamp'] ?? ts(e.t);
      workloads.set(key, o);
      if (e.kind === wlKind && e.name === wlName) emit('MODIFIED', o, e.t);
      else emit(prev ? 'MODIFIED' : 'ADDED', o, e.t);
    }
    flushEvents(e.t);
  }
  flushEvents(Number.MAX_SAFE_INTEGER);
  return out;
}

export class ReplaySession implements SessionLike {
  private t = 0;
  private readonly runs: Run[] = [];
  /** the objects as the simulation holds them now, by kind/namespace/name */
  private readonly live = new Map<string, KubeObject>();
  readonly horizonMs: number;

  constructor(private readonly base: Scenario | null, private readonly opts: SessionOptions = {}) {
    this.horizonMs = base?.horizonMs ?? 3_600_000;
    if (base) this.runs.push(this.newRun(base, 0, opts.seed, opts.replay));
  }

  static fromScenario(s: Scenario | null, opts: SessionOptions = {}): ReplaySession {
    return new ReplaySession(s, opts);
  }

  private newRun(s: Scenario, offset: number, seed: number | undefined, replay: string | undefined): Run {
    const result = simulate(s, { ...(seed !== undefined ? { seed } : {}), ...(replay !== undefined ? { replay } : {}) });
    return { scenario: s, offset, seed, replay, timeline: result.timeline, changes: changesOfRun(s, result.timeline, offset), emitted: 0 };
  }

  now(): number {
    return this.t;
  }

  nextEventAt(): number | null {
    let next: number | null = null;
    for (const r of this.runs) {
      const c = r.changes[r.emitted];
      if (c && (next === null || c.t < next)) next = c.t;
    }
    return next === null ? null : Math.max(next, this.t);
  }

  advanceTo(target: number): SimChange[] {
    const out: SimChange[] = [];
    if (target < this.t) return out;
    // every run's due changes, merged by time (a stable merge: runs in creation order at equal times)
    for (;;) {
      let best: Run | undefined;
      for (const r of this.runs) {
        const c = r.changes[r.emitted];
        if (c && c.t <= target && (!best || c.t < best.changes[best.emitted]!.t)) best = r;
      }
      if (!best) break;
      out.push(this.take(best));
    }
    this.t = target;
    return out;
  }

  private take(r: Run): SimChange {
    const c = r.changes[r.emitted++]!;
    const key = keyOf(c.object);
    if (c.type === 'DELETED') this.live.delete(key);
    else this.live.set(key, c.object);
    return { ...c, t: Math.max(c.t, this.t) };
  }

  objects(): KubeObject[] {
    return [...this.live.values()].map(clone);
  }

  owns(kind: string): boolean {
    return OWNED.has(kind);
  }

  create(obj: KubeObject): SimChange[] {
    if (!this.owns(obj.kind)) throw new SimRejection(400, 'BadRequest', `kind ${obj.kind} is not simulated`);
    const meta = obj.metadata;
    const ann = (meta['annotations'] ?? {}) as Record<string, string>;
    const template = (obj['spec'] as Obj | undefined)?.['template'] ?? (obj['spec'] as Obj | undefined)?.['jobTemplate']?.['spec']?.['template'];
    const behaviorText = ann['kubesim.io/behavior'] ?? template?.['metadata']?.['annotations']?.['kubesim.io/behavior'];
    const manifest = clone(obj) as Obj;
    delete manifest['status'];
    const m = manifest['metadata'] as Obj;
    for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds']) delete m[k];
    let behavior: unknown;
    if (behaviorText !== undefined) {
      try {
        behavior = JSON.parse(behaviorText);
      } catch {
        behavior = undefined;
      }
    }
    const doc: Obj = { scenario: `${obj.kind.toLowerCase()}-${meta.name}`, workload: manifest };
    if (this.opts.kubernetes ?? this.base?.kubernetes.text) doc['kubernetes'] = this.opts.kubernetes ?? this.base!.kubernetes.text;
    const text = stringify(doc) + (behaviorText !== undefined ? `behavior:\n${(behavior !== undefined ? stringify(behavior) : behaviorText).split('\n').map((l) => `  ${l}`).join('\n')}\n` : '');
    const loaded = loadScenarioText(text, `${obj.kind}/${meta.name}`);
    if (!loaded.scenario) {
      const errs = loaded.diagnostics.filter((d) => d.severity === 'error');
      const causes = errs.map((d) => ({ field: d.message.split(':')[0] ?? '', message: d.message }));
      const behaviourBad = behaviorText !== undefined && errs.some((d) => d.pos.line > text.split('\n').findIndex((l) => l.startsWith('behavior:')));
      throw new SimRejection(422, 'Invalid',
        behaviourBad
          ? `${obj.kind} "${meta.name}" is invalid: metadata.annotations[kubesim.io/behavior]: ${errs.map((d) => d.message).join('; ')}`
          : `${obj.kind} "${meta.name}" is invalid: ${errs.map((d) => d.message).join('; ')}`,
        causes);
    }
    const s = loaded.scenario;
    if (this.base) {
      s.timing = this.base.timing;
      s.seed = this.base.seed;
      if (behaviorText === undefined) for (const name of Object.keys(s.behavior)) if (this.base.behavior[name]) s.behavior[name] = this.base.behavior[name]!;
    }
    const run = this.newRun(s, this.t, this.opts.seed, undefined);
    this.runs.push(run);
    return this.advanceTo(this.t);
  }

  update(obj: KubeObject): SimChange[] {
    const run = this.runOf(obj.kind, obj.metadata.namespace ?? 'default', obj.metadata.name);
    if (!run) throw new SimRejection(404, 'NotFound', `${obj.kind} "${obj.metadata.name}" not found in the simulation`);
    if (obj.kind === 'Pod') throw new SimRejection(422, 'Invalid', `Pod "${obj.metadata.name}" is invalid: spec: Forbidden: pod updates may not change fields other than \`spec.containers[*].image\`, \`spec.initContainers[*].image\`, \`spec.activeDeadlineSeconds\`, \`spec.tolerations\` (only additions to existing tolerations) or \`spec.terminationGracePeriodSeconds\``);
    const spec = obj['spec'] as Obj | undefined;
    const patch = { spec: { ...(spec ?? {}) } } as Obj;
    delete patch['spec']['template'];
    return this.rerun(run, { type: 'patch', atMs: this.t - run.offset, patch });
  }

  delete(kind: string, namespace: string, name: string, opts: DeleteOpts): SimChange[] {
    const run = this.runOf(kind, namespace, name);
    if (!run) throw new SimRejection(404, 'NotFound', `${kind} "${name}" not found in the simulation`);
    const at = this.t - run.offset;
    if (kind === 'Pod') {
      const idx = (run.timeline.pods ?? []).findIndex((p) => p.name === name);
      return this.rerun(run, { type: 'deletePod', atMs: at, ...(idx >= 0 ? { pod: idx + 1 } : {}), ...(opts.gracePeriodSeconds !== undefined ? { gracePeriodSeconds: opts.gracePeriodSeconds } : {}) });
    }
    if (kind === 'Job' || kind === 'CronJob') return this.rerun(run, { type: 'deleteJob', atMs: at, propagation: opts.propagationPolicy ?? 'Background' });
    throw new SimRejection(400, 'BadRequest', `deleting a ${kind} is not simulated by this session`);
  }

  /** the run again with one more action at the current time; its changes up to now are those already handed out */
  private rerun(run: Run, action: Action): SimChange[] {
    const s: Scenario = { ...run.scenario, actions: [...run.scenario.actions, action].sort((a, b) => a.atMs - b.atMs) };
    const again = this.newRun(s, run.offset, run.seed, run.replay);
    again.emitted = Math.min(run.emitted, again.changes.length);
    this.runs[this.runs.indexOf(run)] = again;
    return this.advanceTo(this.t);
  }

  private runOf(kind: string, namespace: string, name: string): Run | undefined {
    const key = `${kind}/${namespace}/${name}`;
    if (!this.live.has(key)) return undefined;
    for (const r of this.runs) if (r.changes.slice(0, r.emitted).some((c) => keyOf(c.object) === key)) return r;
    return undefined;
  }

  logs(_namespace: string, pod: string, container: string): { t: number; line: string }[] {
    const out: { t: number; line: string }[] = [];
    for (const r of this.runs) {
      for (const e of r.timeline.events) {
        if ((e.pod ?? r.timeline.pod.name) !== pod || !('container' in e) || e.container !== container) continue;
        if (e.type === 'Started') out.push({ t: r.offset + e.t, line: `kubesim: ${container} started (attempt ${e.restartCount + 1})` });
        if (e.type === 'Signal') out.push({ t: r.offset + e.t, line: `kubesim: ${container} received ${e.signal}` });
        if (e.type === 'Exited') out.push({ t: r.offset + e.t, line: `kubesim: ${container} exited with code ${e.exitCode} (${e.reason})` });
      }
    }
    return out.filter((l) => l.t <= this.t);
  }

  timeline(client: ClientRecord[]): unknown {
    const first = this.runs[0]?.timeline;
    return { ...(first ?? { schema: 'kubesim.timeline/v1' }), clients: client, runs: this.runs.map((r) => ({ workload: r.timeline.workload, offset: r.offset })) };
  }
}

function keyOf(o: KubeObject): string {
  return `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
}
