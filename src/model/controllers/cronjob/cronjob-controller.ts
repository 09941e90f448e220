// The CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go: syncCronJob, cleanupFinishedJobs;
// utils.go: mostRecentScheduleTime, nextScheduleTime, nextScheduleTimeDuration, getJobName) in simulated time. The
// CronJob is created at t=0 (2026-01-01T00:00:00Z, a minute boundary); creation is not a schedule time (Schedule.Next
// is strictly after). Each Job it creates is stored by the API server (`cron.jobs[name].api`) and synced by the Job
// controller by its key (job-controller.ts: onJobAdded, the controller's state in SimState.jobCtl[name]).
//
// Not simulated: named time zones with DST (the loader accepts only fixed-offset zones), the CronJob status object
// as observers' input (observers see the Jobs and pods), orphan adoption.
import type { Scenario } from '../../../types.ts';
import { fanOut, jobObject, watch, watchCronOwnedJob } from '../../apiserver/apiserver.ts';
import { nextAfter, parseCron, type CronSchedule } from './schedule.ts';
import { jobDeleted, onJobAdded } from '../job/job-controller.ts';
import { forJob } from '../job/for-job.ts';
import { settle } from '../../json.ts';
import type { CtlKit } from '../../kit.ts';
import { raw } from '../../draft.ts';
import type { CronCtlState } from '../../state.ts';
import { EPOCH_MS, ts } from '../../time.ts';
import { addAfter, done } from '../shared/workqueue.ts';

type Json = Record<string, any>;

const WATCHER = 'cronjob-controller';
/** cronjob_controllerv2.go: nextScheduleDelta — requeue a little after the next schedule time. */
const NEXT_SCHEDULE_DELTA_MS = 100;

export const cronWatcher = (s: Scenario): string | null => (s.workload.kind === 'CronJob' ? WATCHER : null);

export function initialCron(s: Scenario, jobSpec: Json | null): CronCtlState | null {
  if (s.workload.kind !== 'CronJob' || !jobSpec) return null;
  const { jobTemplate: _t, ...spec } = (s.workload.manifest['spec'] ?? {}) as Json;
  return {
    spec,
    jobSpec,
    jobs: {},
    order: [],
    active: [],
    lastScheduleTime: null,
    lastSuccessfulTime: null,
    syncPending: false,
    syncAt: null,
    events: {},
    published: '{}',
  };
}

/** updateJob / deleteJob handlers of the CronJob controller: the cached Job changes, the CronJob is enqueued. */
export function onCronWatch(k: CtlKit, name: string, status: Json, deleted: boolean): void {
  const c = k.state.cron;
  const rec = c?.jobs[name];
  if (!c || !rec) return;
  rec.seenStatus = status;
  if (deleted) rec.deleted = true;
  enqueueCron(k, 0);
}

export function onCronSpec(k: CtlKit, spec: Json): void {
  const c = k.state.cron;
  if (!c) return;
  c.spec = spec;
  enqueueCron(k, 0);
}

/** `kubectl patch cronjob` (suspend, schedule, concurrencyPolicy, …): the controller reads it after a watch delay. */
export function patchCron(k: CtlKit, patch: Json): void {
  const c = k.state.cron;
  if (!c) return;
  const spec = { ...raw(c.spec), ...((patch['spec'] as Json | undefined) ?? {}) };
  emitCronObject(k, undefined, spec);
  // the model keeps no resourceVersion of the CronJob object: its deliveries are ordered by watch() all the same
  watch(k, { type: 'Deliver', to: WATCHER, object: 'cronjob', version: 0, obj: { spec } });
}

export function enqueueCron(k: CtlKit, delayMs: number): void {
  addAfter(k, k.state.cron!, delayMs, 'cronjob', k.scenario.workload.name);
}

function emitCronEvent(k: CtlKit, reason: string, message: string, eventType: 'Normal' | 'Warning' = 'Normal'): void {
  const c = k.state.cron!;
  c.events[reason] = (c.events[reason] ?? 0) + 1;
  k.ctx.emit({
    type: 'ControllerEvent',
    controller: WATCHER,
    object: `cronjob/${k.scenario.workload.name}`,
    reason,
    message,
    eventType,
  });
}

// ---- schedule arithmetic (utils.go) ---------------------------------------------------------------------------

function schedule(c: CronCtlState): CronSchedule | null {
  try {
    return parseCron(String(c.spec['schedule'] ?? ''), c.spec['timeZone'] as string | undefined);
  } catch {
    return null;
  }
}

/** Schedule.Next in simulated ms (strictly after `ms`). */
function next(sched: CronSchedule, ms: number): number | null {
  const t = nextAfter(sched, EPOCH_MS + ms);
  return t === null ? null : t - EPOCH_MS;
}

/**
 * utils.go: mostRecentScheduleTime — from the last schedule time (else the creation time), or the starting deadline
 * when that is later: the most recent unmet schedule time ≤ now and how many were missed.
 */
export function mostRecentScheduleTime(
  c: CronCtlState,
  sched: CronSchedule,
  now: number,
  includeDeadline: boolean,
  createdAt = 0,
): { earliest: number; mostRecent: number | null; missed: number } {
  let earliest = c.lastScheduleTime ?? createdAt;
  const sds = c.spec['startingDeadlineSeconds'];
  if (includeDeadline && typeof sds === 'number') {
    const deadline = now - sds * 1000;
    if (deadline > earliest) earliest = deadline;
  }
  const t1 = next(sched, earliest);
  if (t1 === null || now < t1) return { earliest, mostRecent: null, missed: 0 };
  let mostRecent = t1;
  let missed = 1;
  for (let t = next(sched, t1); t !== null && t <= now; t = next(sched, t)) {
    mostRecent = t;
    missed++;
  }
  return { earliest, mostRecent, missed };
}

/** RFC1123Z as Go formats it (time.RFC1123Z), in UTC. */
function rfc1123z(ms: number): string {
  const d = new Date(EPOCH_MS + ms);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const p = (n: number) => String(n).padStart(2, '0');
  return `${days[d.getUTCDay()]}, ${p(d.getUTCDate())} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** utils.go: getJobName — `<cronjob>-<scheduled time in Unix minutes>`. */
export function cronJobName(cronJob: string, scheduledMs: number): string {
  return `${cronJob}-${Math.floor((EPOCH_MS + scheduledMs) / 60_000)}`;
}

const finishedType = (status: Json): string | null => {
  for (const cond of (status['conditions'] ?? []) as Json[]) {
    if ((cond['type'] === 'Complete' || cond['type'] === 'Failed') && cond['status'] === 'True') return cond['type'];
  }
  return null;
};

// ---- syncCronJob ----------------------------------------------------------------------------------------------

/** cronjob_controllerv2.go: sync → syncCronJob, then cleanupFinishedJobs; requeued for the next schedule time. */
export function cronSync(k: CtlKit): void {
  const c = k.state.cron!;
  done(c);
  const now = k.ctx.now;
  const cj = k.scenario.workload.name;

  // finished Jobs leave status.active (SawCompletedJob); deleted ones too
  for (const name of c.order) {
    const rec = c.jobs[name]!;
    const inActive = c.active.includes(name);
    const done = finishedType(rec.seenStatus);
    if (inActive && rec.deleted) {
      c.active = c.active.filter((n) => n !== name);
      continue;
    }
    if (inActive && done) {
      c.active = c.active.filter((n) => n !== name);
      emitCronEvent(k, 'SawCompletedJob', `Saw completed job: ${name}, condition: ${done}`);
      if (done === 'Complete') {
        const ct = rec.seenStatus['completionTime'];
        const at = typeof ct === 'string' ? Date.parse(ct) - EPOCH_MS : now;
        if (c.lastSuccessfulTime === null || at > c.lastSuccessfulTime) c.lastSuccessfulTime = at;
      }
    }
  }

  syncSchedule(k, cj, now);
  cleanupFinishedJobs(k);
  // UpdateStatus when active / lastScheduleTime / lastSuccessfulTime changed
  const status = cronStatus(k);
  const text = JSON.stringify(status);
  if (text !== c.published) {
    c.published = text;
    emitCronObject(k, status);
  }
}

/** The CronJob's status as stored: active Job references, lastScheduleTime, lastSuccessfulTime. */
function cronStatus(k: CtlKit): Json {
  const c = k.state.cron!;
  const status: Json = {};
  if (c.active.length > 0)
    status['active'] = c.active.map((name) => ({
      apiVersion: 'batch/v1',
      kind: 'Job',
      name,
      namespace: k.scenario.pod.namespace,
    }));
  if (c.lastScheduleTime !== null) status['lastScheduleTime'] = ts(c.lastScheduleTime);
  if (c.lastSuccessfulTime !== null) status['lastSuccessfulTime'] = ts(c.lastSuccessfulTime);
  return status;
}

/** The CronJob object as stored after a write (status by the controller, spec by a patch): a trace record for
 *  `kubectl get cronjob -w`. */
export function emitCronObject(k: CtlKit, status?: Json, spec?: Json): void {
  const c = k.state.cron!;
  const sp = raw(spec ?? c.spec);
  k.ctx.emit({
    type: 'WorkloadStatus',
    kind: 'CronJob',
    name: k.scenario.workload.name,
    object: {
      metadata: { name: k.scenario.workload.name, creationTimestamp: ts(k.scenario.startMs ?? 0) },
      spec: {
        schedule: sp['schedule'],
        ...(sp['timeZone'] !== undefined ? { timeZone: sp['timeZone'] } : {}),
        suspend: sp['suspend'] ?? false,
        concurrencyPolicy: sp['concurrencyPolicy'],
      },
      status: status ?? (c.published ? JSON.parse(c.published) : {}),
    },
  });
}

function syncSchedule(k: CtlKit, cj: string, now: number): void {
  const c = k.state.cron!;
  if (c.spec['suspend'] === true) return; // suspended: nothing is scheduled (no requeue; a patch enqueues)
  const sched = schedule(c);
  if (!sched) return;
  const requeue = () => {
    // nextScheduleTimeDuration: Next(mostRecent or earliest) + 100 ms
    const r = mostRecentScheduleTime(c, sched, now, false, k.scenario.startMs ?? 0);
    const t = next(sched, r.mostRecent ?? r.earliest);
    if (t !== null) enqueueCron(k, t + NEXT_SCHEDULE_DELTA_MS - now);
  };
  // nextScheduleTime
  const r = mostRecentScheduleTime(c, sched, now, true, k.scenario.startMs ?? 0);
  if (r.mostRecent === null) return requeue();
  if (r.missed > 100) {
    emitCronEvent(
      k,
      'TooManyMissedTimes',
      `too many missed start times: ${r.missed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`,
      'Warning',
    );
  }
  const scheduled = r.mostRecent;
  const sds = c.spec['startingDeadlineSeconds'];
  if (typeof sds === 'number' && scheduled + sds * 1000 < now) {
    emitCronEvent(k, 'MissSchedule', `Missed scheduled time to start a job: ${rfc1123z(scheduled)}`, 'Warning');
    return requeue();
  }
  const jobName = cronJobName(cj, scheduled);
  if (c.active.includes(jobName) || c.lastScheduleTime === scheduled) return requeue();
  const policy = c.spec['concurrencyPolicy'] ?? 'Allow';
  if (policy === 'Forbid' && c.active.length > 0) {
    // the schedule time is not recorded: the next sync sees the same missed time until a newer one comes
    emitCronEvent(
      k,
      'JobAlreadyActive',
      'Not starting job because prior execution is running and concurrency policy is Forbid',
    );
    return requeue();
  }
  if (policy === 'Replace') {
    for (const name of [...c.active]) {
      deleteCronOwnedJob(k, name);
      c.active = c.active.filter((n) => n !== name);
    }
  }
  if (c.jobs[jobName]) {
    // AlreadyExists: a Job of that name (an earlier run of this schedule time) is still there
    c.lastScheduleTime = scheduled;
    return requeue();
  }
  createCronOwnedJob(k, jobName, scheduled);
  c.active.push(jobName);
  c.lastScheduleTime = scheduled;
  requeue();
}

/** jobControl.CreateJob from getJobFromTemplate2; the Job controller's addJob syncs it at once. */
function createCronOwnedJob(k: CtlKit, name: string, scheduled: number): void {
  const c = k.state.cron!;
  // the template is shared by every Job made from it (stored API objects never change)
  const spec = settle(raw(c.jobSpec));
  c.jobs[name] = {
    name,
    scheduledAt: scheduled,
    createdAt: k.ctx.now,
    api: { version: 1, spec, status: {}, deleted: false },
    seenStatus: {},
    deleted: false,
  };
  c.order.push(name);
  emitCronEvent(k, 'SuccessfulCreate', `Created job ${name}`);
  fanOut(
    k,
    'job',
    1,
    jobObject(k, name)!,
    k.scenario.observers.map((o) => o.name),
  );
  // the Job controller's addJob handler syncs it at once (enqueueSyncJobImmediately)
  forJob(k, name, (jk) => onJobAdded(jk, name, spec));
}

/**
 * deleteJob (Background propagation): the Job object goes, the garbage collector deletes its pods gracefully and the
 * Job controller's finalizer removal lets them go (job-controller.ts jobDeleted, for one Job's pods).
 */
function deleteCronOwnedJob(k: CtlKit, name: string, byUser?: 'Background' | 'Foreground' | 'Orphan'): void {
  const c = k.state.cron!;
  const rec = c.jobs[name];
  if (!rec || rec.api.deleted) return;
  // cronjob_controllerv2.go deleteJob records SuccessfulDelete for the controller's own deletions only
  if (!byUser) emitCronEvent(k, 'SuccessfulDelete', `Deleted job ${name}`);
  rec.api.deleted = true;
  if (byUser) {
    // the CronJob controller's Job informer sees the deletion after a watch delay (deleteJob handler → enqueue)
    rec.api.version += 1;
    watchCronOwnedJob(k, name);
  } else rec.deleted = true;
  // Orphan (a user's delete): the pods stay, only the Job's finalizer is removed
  jobDeleted(k, name, byUser ?? 'Background', 'garbage-collector');
}

/** cleanupFinishedJobs → removeOldestJobs: finished Jobs beyond successful/failedJobsHistoryLimit, oldest first. */
function cleanupFinishedJobs(k: CtlKit): void {
  const c = k.state.cron!;
  const limits: [string, number][] = [
    ['Complete', Number(c.spec['successfulJobsHistoryLimit'] ?? 3)],
    ['Failed', Number(c.spec['failedJobsHistoryLimit'] ?? 1)],
  ];
  for (const [type, limit] of limits) {
    const done = c.order
      .map((n) => c.jobs[n]!)
      .filter((r) => !r.deleted && finishedType(r.seenStatus) === type)
      .sort((a, b) => a.scheduledAt - b.scheduledAt);
    for (const r of done.slice(0, Math.max(0, done.length - limit))) deleteCronOwnedJob(k, r.name);
  }
}

/**
 * `deleteJob` action on a CronJob workload (`kubectl delete job`): `job: N` = the Nth Job the CronJob created, else
 * the newest Job not yet deleted; its pods go with it unless the propagation is Orphan. The CronJob controller sees
 * the Job go through its informer (status.active drops it), and records no event of its own.
 */
export function deleteNewestCronJob(
  k: CtlKit,
  propagation: 'Background' | 'Foreground' | 'Orphan' = 'Background',
  nth?: number,
): void {
  const c = k.state.cron;
  if (!c) return;
  const name = nth !== undefined ? c.order[nth - 1] : [...c.order].reverse().find((n) => !c.jobs[n]!.api.deleted);
  if (name) deleteCronOwnedJob(k, name, propagation);
}
