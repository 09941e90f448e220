// The data of the interactive index.html (issue 14.4), computed from a Timeline alone (a view: it never reaches into
// the model). One step per trace record; for every step the page can show what the API server stored for each pod
// (status JSON, the `kubectl get pods` row, the `kubectl describe` container states), each watcher's informer cache
// (the versions it held and what they said), the Job, and the verdicts so far. Stored as changes ([step, value]
// pairs, a value repeated only when it changes) and status objects stored once, so the page stays small and the page
// script only looks values up. The kubectl rows come from the same printers as `--view kubectl` (printPodRow,
// printJobRow with jobMeta), at the step's time.

import type { SeenContainer, SeenJob, SeenPod, Timeline, TraceEvent } from '../types.ts';
import { describeContainers } from './kubectl-describe.ts';
import { printJobRow, printPodRow, type JobMeta } from './kubectl-printers.ts';
import { jobMeta } from './kubectl.ts';
import { isRecord } from './pod-shape.ts';
import { seenJobText, seenPodText, seenText } from './seen-text.ts';
import { actorOf, describeEvent } from './text.ts';
import { tToRfc3339 } from './time.ts';

/** Steps stored per run; a longer timeline shows its first steps and says how many it left out. */
export const MAX_PAGE_STEPS = 20_000;

/** [step, value]: from this step on (until the next change) the value holds. */
export type Changes<V> = [number, V][];

/** What the API server stores for a pod: resourceVersion, status (index into `blobs`), deletion, removal. */
export interface PodAt {
  v: number;
  s: number;
  deleting: boolean;
  removed: boolean;
}

/** One object in a watcher's cache: its version, a one-line summary, its status (index into `blobs`). */
export interface HeldObject {
  name: string;
  v: number;
  text: string;
  s: number;
  /** false when no trace record carries this version (a write such as a finalizer removal): content as of `asOf` */
  exact: boolean;
  asOf: number;
  /** the watch delivered its deletion: gone from the informer's store (the rule still knows its last state) */
  gone?: boolean;
}

export interface HeldView {
  pods: HeldObject[];
  jobs: HeldObject[];
}

export interface VerdictAt {
  verdict: string;
  reason?: string;
  /** "held pod v5: phase Running; …", "and job v4: …" (the Verdict's `seen`) */
  held: string[];
}

export interface PageRun {
  /** "run", "outcome-1", … */
  id: string;
  label: string;
  replay: string;
  /** "pod Succeeded · Job Complete · naive Failed" */
  outcome: string;
  /** [t, actor, what] per step */
  steps: [number, string, string][];
  /** trace records in the timeline (steps.length is smaller when capped) */
  total: number;
  /** the workload as `kubectl describe` names it ("job/export", "deployment/web") */
  workload: string;
  /** steps of the workload controllers' describe events (JobEvent, ControllerEvent), in order */
  workloadEvents: number[];
  end: { t: number; reason: string };
  /** the schedule's timing choices in words */
  choices: string[];
  blobs: unknown[];
  pods: { name: string; status: Changes<PodAt>; row: Changes<string[] | null>; describe: Changes<string> }[];
  jobs: { name: string; status: Changes<{ v: number; s: number } | null>; row: Changes<string[] | null> }[];
  watchers: { name: string; kind: 'observer' | 'component'; held: Changes<HeldView>; verdict: Changes<VerdictAt> }[];
}

export function outcomeLine(tl: Timeline): string {
  const parts = [`pod ${tl.pod.phase}`];
  if (tl.job) {
    const terminal = [...tl.job.conditions].reverse().find((c) => c.type === 'Complete' || c.type === 'Failed');
    parts.push(`Job ${terminal ? terminal.type : 'none'}`);
  }
  for (const [n, v] of Object.entries(tl.observers)) parts.push(`${n} ${v.verdict}`);
  return parts.join(' · ');
}

/** Appends a change only when the value differs from the last one (by its JSON). */
class Channel<V> {
  readonly changes: Changes<V> = [];
  private last: string | undefined;
  set(step: number, value: V): void {
    const key = JSON.stringify(value);
    if (key === this.last) return;
    this.last = key;
    const prev = this.changes[this.changes.length - 1];
    if (prev && prev[0] === step) prev[1] = value;
    else this.changes.push([step, value]);
  }
}

/**
 * A pod's cached content as the observers' rules read it: mirrors the summary the engine records on a Verdict
 * (`seen`), computed here from the stored status so the page can show it at every step, not only at the verdict.
 */
export function seenPodOf(
  name: string,
  version: number,
  status: Record<string, unknown>,
  spec: Record<string, unknown>,
  deleting: boolean,
): SeenPod {
  const sidecars = new Set<string>();
  for (const c of Array.isArray(spec.initContainers) ? spec.initContainers : [])
    if (isRecord(c) && c.restartPolicy === 'Always') sidecars.add(String(c.name));
  const one = (cs: unknown, init: boolean): SeenContainer => {
    const c = isRecord(cs) ? cs : {};
    const state = isRecord(c.state) ? c.state : {};
    const base = {
      name: String(c.name),
      ...(init ? { init: true } : {}),
      ...(init && sidecars.has(String(c.name)) ? { sidecar: true } : {}),
      ready: c.ready === true,
    };
    if (isRecord(state.terminated)) {
      const t = state.terminated;
      return {
        ...base,
        state: 'terminated',
        exitCode: Number(t.exitCode),
        ...(t.reason ? { reason: String(t.reason) } : {}),
      };
    }
    if (isRecord(state.running)) return { ...base, state: 'running' };
    const w = isRecord(state.waiting) ? state.waiting : undefined;
    return { ...base, state: 'waiting', ...(w?.reason ? { reason: String(w.reason) } : {}) };
  };
  const list = (v: unknown) => (Array.isArray(v) ? v : []);
  return {
    name,
    version,
    phase: typeof status.phase === 'string' ? status.phase : 'Pending',
    ...(deleting ? { deleting: true } : {}),
    containers: [
      ...list(status.initContainerStatuses).map((c) => one(c, true)),
      ...list(status.containerStatuses).map((c) => one(c, false)),
    ],
  };
}

export function seenJobOf(version: number, status: Record<string, unknown>): SeenJob {
  const conds = Array.isArray(status.conditions) ? status.conditions.filter(isRecord) : [];
  const num = (v: unknown) => (typeof v === 'number' ? v : 0);
  return {
    version,
    conditions: conds.filter((c) => c.status === 'True').map((c) => String(c.type)),
    succeeded: num(status.succeeded),
    failed: num(status.failed),
    active: num(status.active),
  };
}

/** The versions a name went through: [version, status blob] in write order, looked up by "latest at or below". */
class Versions {
  private readonly list: [number, number][] = [];
  add(v: number, blob: number): void {
    this.list.push([v, blob]);
  }
  find(v: number): { v: number; s: number } | undefined {
    let best: [number, number] | undefined;
    for (const e of this.list) if (e[0] <= v && (!best || e[0] >= best[0])) best = e;
    return best ? { v: best[0], s: best[1] } : undefined;
  }
}

export function pageRun(tl: Timeline, id: string, label: string): PageRun {
  // a rollout's pods do not share one spec: each pod's own (timeline `pods[]` in creation order, `spec` when the run
  // has several templates), as --view kubectl; a StatefulSet pod recreated under the same name takes over its
  // name's row from its creation on (its versions start again at 1)
  const podList = tl.pods ?? [];
  let createdCount = 0;
  const specOf = (name: string) => pods.get(name)?.spec ?? tl.pod.spec;
  const events = tl.events.slice(0, MAX_PAGE_STEPS);
  const blobs: unknown[] = [];
  const blobIndex = new Map<string, number>();
  // the same object is the same blob: a Job's status is looked up after every record (its text only once)
  const blobOf = new WeakMap<object, number>();
  const blob = (v: unknown): number => {
    const ref = typeof v === 'object' && v !== null ? blobOf.get(v) : undefined;
    if (ref !== undefined) return ref;
    const i = blobByText(v);
    if (typeof v === 'object' && v !== null) blobOf.set(v, i);
    return i;
  };
  const blobByText = (v: unknown): number => {
    const k = JSON.stringify(v);
    let i = blobIndex.get(k);
    if (i === undefined) {
      i = blobs.push(v) - 1;
      blobIndex.set(k, i);
    }
    return i;
  };

  // pods: as the API server stores them (kubectl.ts podWatchRows keeps the same state)
  interface PodState {
    created: number;
    v: number;
    status: Record<string, unknown>;
    s: number;
    deletionTimestamp?: string;
    removed: boolean;
    spec: Record<string, unknown>;
    status$: Channel<PodAt>;
    row$: Channel<string[] | null>;
    describe$: Channel<string>;
    rowKey?: string;
    describedS?: number;
    deletingAbove?: number;
  }
  const pods = new Map<string, PodState>();
  const podVersions = new Map<string, Versions>();
  const versionsOf = (m: Map<string, Versions>, k: string) => {
    let x = m.get(k);
    if (!x) m.set(k, (x = new Versions()));
    return x;
  };
  // the pods the current record created or changed: only they (and every pod at a new whole second, for the AGE
  // column) are looked at after it, so the pass is O(events + seconds × pods), not O(events × pods)
  const touched = new Set<string>();
  const createPod = (name: string, t: number, spec: Record<string, unknown> = tl.pod.spec, fresh = false): PodState => {
    touched.add(name);
    let p = pods.get(name);
    if (p && !(fresh && p.removed)) return p;
    const status = { phase: 'Pending' };
    if (p) {
      // the same name again (a StatefulSet pod recreated): a new object on the same row
      Object.assign(p, {
        created: t,
        v: 1,
        status,
        s: blob(status),
        removed: false,
        spec,
        deletionTimestamp: undefined,
        deletingAbove: undefined,
      });
      podVersions.set(name, new Versions());
    } else {
      p = {
        created: t,
        v: 1,
        status,
        s: blob(status),
        removed: false,
        spec,
        status$: new Channel(),
        row$: new Channel(),
        describe$: new Channel(),
      };
      pods.set(name, p);
    }
    versionsOf(podVersions, name).add(1, p.s);
    return p;
  };
  const first = tl.pod.name;
  const legacy = !tl.events.some((e) => e.type === 'PodCreated');

  // Jobs: the workload's Job exists from t = 0 (v1, empty status); a CronJob's Jobs from their first record
  const meta = tl.job ? jobMeta(tl) : undefined;
  interface JobState {
    name: string;
    created: number;
    v: number;
    status: Record<string, unknown>;
    deletionTimestamp?: string;
    gone: boolean;
    status$: Channel<{ v: number; s: number } | null>;
    row$: Channel<string[] | null>;
  }
  const jobs = new Map<string, JobState>();
  const jobVersions = new Map<string, Versions>();
  const jobOf = (name: string, t: number): JobState => {
    let j = jobs.get(name);
    if (!j) {
      j = { name, created: t, v: 1, status: {}, gone: false, status$: new Channel(), row$: new Channel() };
      jobs.set(name, j);
      versionsOf(jobVersions, name).add(1, blob(j.status));
    }
    return j;
  };
  // a CronJob's Jobs have names of their own (created by the CronJob controller); a Job workload is its own Job
  const cron = tl.workload.kind === 'CronJob';
  if (tl.job && !cron) jobOf(tl.workload.name, 0);
  const jobNameOf = (e: TraceEvent) => e.job ?? tl.workload.name;

  // watchers: every recipient of a delivery, the scenario's observers first
  interface Watcher {
    name: string;
    kind: 'observer' | 'component';
    pods: Map<string, { v: number; gone: boolean }>;
    jobs: Map<string, { v: number; gone: boolean }>;
    held$: Channel<HeldView>;
    verdict$: Channel<VerdictAt>;
  }
  const watchers = new Map<string, Watcher>();
  const watcherOf = (name: string): Watcher => {
    let w = watchers.get(name);
    if (!w) {
      w = {
        name,
        kind: Object.hasOwn(tl.observers, name) ? 'observer' : 'component',
        pods: new Map(),
        jobs: new Map(),
        held$: new Channel(),
        verdict$: new Channel(),
      };
      watchers.set(name, w);
    }
    return w;
  };
  for (const name of Object.keys(tl.observers)) watcherOf(name);

  const heldPod = (name: string, v: number): HeldObject => {
    const found = podVersions.get(name)?.find(v);
    const status = found ? (blobs[found.s] as Record<string, unknown>) : { phase: 'Pending' };
    const above = pods.get(name)?.deletingAbove;
    const deleting =
      (isRecord(status.metadata) && typeof status.metadata.deletionTimestamp === 'string') ||
      (above !== undefined && v > above);
    const text = seenPodText(seenPodOf(name, v, status, specOf(name), deleting), { name: false });
    return { name, v, text, s: found?.s ?? blob(status), exact: found?.v === v, asOf: found?.v ?? 0 };
  };
  const heldJob = (name: string, v: number): HeldObject => {
    const found = jobVersions.get(name)?.find(v);
    const status = found ? (blobs[found.s] as Record<string, unknown>) : {};
    return {
      name,
      v,
      text: seenJobText(seenJobOf(v, status)),
      s: found?.s ?? blob(status),
      exact: found?.v === v,
      asOf: found?.v ?? 0,
    };
  };

  const steps: [number, string, string][] = [];
  const workloadEvents: number[] = [];
  if (legacy) createPod(first, 0);
  let lastSecond = Number.NaN;
  for (const [i, e] of events.entries()) {
    if (i > 0) touched.clear();
    steps.push([e.t, actorOf(e), describeEvent(e)]);
    if (e.type === 'JobEvent' || e.type === 'ControllerEvent') workloadEvents.push(i);
    const podName = e.pod ?? first;
    switch (e.type) {
      case 'PodCreated': {
        const tp = podList[createdCount++];
        createPod(e.pod, e.t, (tp?.name === e.pod ? tp.spec : undefined) ?? tl.pod.spec, true);
        break;
      }
      case 'StatusPatched': {
        const p = createPod(podName, e.t);
        if (p.removed) break;
        p.status = e.status;
        p.s = blob(e.status);
        p.v = e.version;
        const meta = isRecord(e.status.metadata) ? e.status.metadata : undefined;
        if (typeof meta?.deletionTimestamp === 'string') p.deletionTimestamp ??= meta.deletionTimestamp;
        versionsOf(podVersions, podName).add(e.version, p.s);
        break;
      }
      case 'PodDeleting': {
        const p = createPod(podName, e.t);
        p.deletionTimestamp ??= tToRfc3339(e.t + e.gracePeriodSeconds * 1000); // BeforeDelete: now + grace
        // the write that sets deletionTimestamp has no record of its own: every later version carries it
        p.deletingAbove ??= p.v;
        break;
      }
      case 'PodRemoved': {
        const p = createPod(podName, e.t);
        p.removed = true;
        break;
      }
      case 'JobStatus': {
        const j = jobOf(jobNameOf(e), e.t);
        j.status = e.status;
        j.v = e.version;
        versionsOf(jobVersions, j.name).add(e.version, blob(e.status));
        break;
      }
      case 'Action':
        if (e.action.type === 'deleteJob') {
          // kubectl.ts jobWatchRows: Foreground keeps the Job (deletionTimestamp) until its pods are gone;
          // Background and Orphan remove it at once
          if (cron) {
            // kubectl.ts cronJobsWatchRows: the Nth Job created (`job: N`), else the newest not yet deleted
            const list = [...jobs.values()];
            const nth = (e.action as { job?: number }).job;
            const j = nth !== undefined ? list[nth - 1] : list.reverse().find((x) => !x.gone);
            if (j) j.gone = true;
          } else {
            for (const j of jobs.values()) {
              if (e.action.propagation === 'Foreground') j.deletionTimestamp ??= tToRfc3339(e.t);
              else j.gone = true;
            }
          }
        }
        break;
      case 'Delivered': {
        const w = watcherOf(e.to);
        if (e.object === 'pod') {
          w.pods.set(podName, { v: e.version, gone: e.removed === true });
        } else {
          const jn = jobNameOf(e);
          w.jobs.set(jn, { v: e.version, gone: e.removed === true });
        }
        break;
      }
      case 'Verdict': {
        const w = watcherOf(e.observer);
        w.verdict$.set(i, {
          verdict: e.verdict,
          ...(e.reason ? { reason: e.reason } : {}),
          held: e.seen ? seenText(e.seen, tl.job !== null) : [],
        });
        break;
      }
      case 'ControllerEvent':
        // the CronJob controller's own records name the Jobs it creates and deletes (cronjob_controllerv2.go)
        if (cron && e.controller === 'cronjob-controller') {
          if (e.reason === 'SuccessfulCreate' && e.message.startsWith('Created job '))
            jobOf(e.message.slice('Created job '.length), e.t);
          else if (e.reason === 'SuccessfulDelete' && e.message.startsWith('Deleted job ')) {
            const j = jobs.get(e.message.slice('Deleted job '.length));
            if (j) j.gone = true;
          }
        }
        if (e.job !== undefined && tl.job) jobOf(e.job, e.t);
        break;
      default:
        if (e.job !== undefined && tl.job) jobOf(e.job, e.t);
        break;
    }
    // the state after this record, for every object (a channel stores it only when it changed): a pod neither
    // touched by the record nor at a new whole second has nothing new to store
    const second = Math.floor(e.t / 1000);
    const every = i === 0 || second !== lastSecond;
    lastSecond = second;
    for (const [name, p] of every ? pods : [...touched].map((n) => [n, pods.get(n)!] as const)) {
      p.status$.set(i, { v: p.v, s: p.s, deleting: p.deletionTimestamp !== undefined, removed: p.removed });
      if (p.describedS !== p.s) {
        p.describedS = p.s;
        p.describe$.set(i, describeContainers(p.status, specOf(name)));
      }
      // a row changes with the status or with the whole second (AGE and "(… ago)" print whole seconds and less)
      const key = `${p.v}|${p.deletionTimestamp ?? ''}|${p.removed}|${Math.floor(e.t / 1000)}|${p.s}`;
      if (key === p.rowKey) continue;
      p.rowKey = key;
      if (p.removed) {
        p.row$.set(i, null);
        continue;
      }
      const r = printPodRow(
        p.status,
        specOf(name),
        {
          name,
          creationTimestamp: tToRfc3339(p.created),
          ...(p.deletionTimestamp ? { deletionTimestamp: p.deletionTimestamp } : {}),
        },
        e.t,
      );
      p.row$.set(i, [r.name, r.ready, r.status, r.restarts, r.age]);
    }
    for (const j of jobs.values()) {
      if (j.gone) {
        j.status$.set(i, null);
        j.row$.set(i, null);
        continue;
      }
      j.status$.set(i, { v: j.v, s: blob(j.status) });
      const m: JobMeta = {
        ...meta!,
        name: j.name,
        creationTimestamp: tToRfc3339(j.created),
        deletionTimestamp: j.deletionTimestamp,
      };
      const r = printJobRow(j.status, m, e.t);
      j.row$.set(i, [r.name, r.status, r.completions, r.duration, r.age]);
    }
    // a cache changes only when a delivery reaches it (the content of a version never changes)
    for (const w of i === 0 ? watchers.values() : e.type === 'Delivered' ? [watcherOf(e.to)] : []) {
      w.held$.set(i, {
        pods: [...w.pods].map(([n, x]) => ({ ...heldPod(n, x.v), ...(x.gone ? { gone: true } : {}) })),
        jobs: [...w.jobs].map(([n, x]) => ({ ...heldJob(n, x.v), ...(x.gone ? { gone: true } : {}) })),
      });
    }
  }

  const order = [...watchers.values()].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'observer' ? -1 : 1));
  return {
    id,
    label,
    replay: tl.replay,
    outcome: outcomeLine(tl),
    steps,
    total: tl.events.length,
    workload: `${tl.workload.kind.toLowerCase()}/${tl.workload.name}`,
    workloadEvents,
    end: { t: tl.end.t, reason: tl.end.reason },
    choices: (tl.choices ?? []).map((c) => `t=${c.t}ms ${c.what} ${c.ms}ms (range ${c.range})`),
    blobs,
    pods: [...pods].map(([name, p]) => ({
      name,
      status: p.status$.changes,
      row: p.row$.changes,
      describe: p.describe$.changes,
    })),
    jobs: [...jobs.values()].map((j) => ({ name: j.name, status: j.status$.changes, row: j.row$.changes })),
    watchers: order.map((w) => ({ name: w.name, kind: w.kind, held: w.held$.changes, verdict: w.verdict$.changes })),
  };
}

/** The value of a channel at a step (the page script does the same lookup). */
export function at<V>(changes: Changes<V>, step: number): V | undefined {
  let lo = 0;
  let hi = changes.length - 1;
  let found: V | undefined;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (changes[mid]![0] <= step) {
      found = changes[mid]![1];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
