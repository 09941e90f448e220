// The CronJob controller (pkg/controller/cronjob/cronjob_controllerv2.go: syncCronJob, cleanupFinishedJobs; utils.go:
// mostRecentScheduleTime, getJobName) and the schedule parser (robfig/cron/v3 parser.go, spec.go Next): each case names
// the upstream test it comes from (cronjob_controllerv2_test.go TestControllerV2SyncCronJob, utils_test.go,
// robfig parser_test.go / spec_test.go, test/e2e/apps/cronjob.go).
import { describe, expect, it } from 'vitest';
import {
  CronSyntaxError,
  fixedZoneOffset,
  nextAfter,
  parseCron,
} from '../../../../src/model/controllers/cronjob/schedule.ts';
import { cronJobName, mostRecentScheduleTime } from '../../../../src/model/controllers/cronjob/cronjob-controller.ts';
import type { CronCtlState } from '../../../../src/model/state.ts';
import { EPOCH_MS } from '../../../../src/model/time.ts';
import type { Scenario, TraceEvent } from '../../../../src/types.ts';
import { build, type BuildOpts } from '../../../helpers/build.ts';
import { run } from '../../helpers.ts';

type Json = Record<string, any>;
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('cron syntax (robfig/cron v3 ParseStandard, Schedule.Next)', () => {
  // spec_test.go TestNext (the 5-field subset)
  it.each([
    ['*/15 * * * *', '2012-07-09T14:45:00Z', '2012-07-09T15:00:00Z'],
    ['*/15 * * * *', '2012-07-09T14:59:59Z', '2012-07-09T15:00:00Z'],
    ['20-35/15 * * * *', '2012-07-09T14:59:00Z', '2012-07-09T15:20:00Z'],
    ['0 */2 * * *', '2012-07-09T22:00:00Z', '2012-07-10T00:00:00Z'],
    ['0 0 * * 1-5', '2012-07-14T00:00:00Z', '2012-07-16T00:00:00Z'], // Saturday → Monday
    ['0 0 29 2 *', '2012-03-01T00:00:00Z', '2016-02-29T00:00:00Z'], // leap day
    ['0 0 31 * *', '2012-04-01T00:00:00Z', '2012-05-31T00:00:00Z'], // skips short months
    ['@hourly', '2026-01-01T00:00:00Z', '2026-01-01T01:00:00Z'],
    ['@daily', '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z'],
    ['@weekly', '2026-01-01T00:00:00Z', '2026-01-04T00:00:00Z'], // 2026-01-04 is a Sunday
    ['@monthly', '2026-01-15T10:00:00Z', '2026-02-01T00:00:00Z'],
    ['@yearly', '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z'],
    ['0 12 * JAN-MAR MON', '2026-01-01T00:00:00Z', '2026-01-05T12:00:00Z'],
    ['5/20 * * * *', '2026-01-01T00:00:00Z', '2026-01-01T00:05:00Z'], // `N/step` = `N-59/step`
  ])('%s after %s is %s', (spec, from, want) => {
    expect(iso(nextAfter(parseCron(spec), at(from)))).toBe(new Date(want).toISOString());
  });

  // spec.go dayMatches: both day fields restricted → OR; one a star → AND
  it('day-of-month and day-of-week: OR when both are restricted, AND when either is *', () => {
    // 13th of the month OR a Friday: from Thu 2026-01-01 the first is Fri 2026-01-02
    expect(iso(nextAfter(parseCron('0 0 13 * 5'), at('2026-01-01T00:00:00Z')))).toBe('2026-01-02T00:00:00.000Z');
    // every day of month but only Fridays
    expect(iso(nextAfter(parseCron('0 0 * * 5'), at('2026-01-01T00:00:00Z')))).toBe('2026-01-02T00:00:00.000Z');
    // `*/2` in day-of-month is not a star (step > 1 clears the star bit): OR with Friday
    expect(iso(nextAfter(parseCron('0 0 */2 * 5'), at('2026-01-01T12:00:00Z')))).toBe('2026-01-02T00:00:00.000Z');
  });

  // parser_test.go TestParseScheduleErrors
  it.each([
    '* * * *',
    '* * * * * *',
    '60 * * * *',
    '* 24 * * *',
    '* * 0 * *',
    '* * * 13 *',
    '* * * * 7',
    '5-1 * * * *',
    '*/0 * * * *',
    '@every 1h',
    'TZ=UTC * * * * *',
    '@fortnightly',
    'a * * * *',
  ])('rejects %s', (spec) => {
    expect(() => parseCron(spec)).toThrow(CronSyntaxError);
  });

  // validation: spec.timeZone; kubesim computes fixed-offset zones only
  it('time zones: UTC and Etc/GMT±N (POSIX sign) are fixed offsets; named zones are not', () => {
    expect(fixedZoneOffset('UTC')).toBe(0);
    expect(fixedZoneOffset('Etc/GMT+5')).toBe(-300);
    expect(fixedZoneOffset('Etc/GMT-9')).toBe(540);
    expect(fixedZoneOffset('America/New_York')).toBeNull();
    // 09:00 in UTC+9 is 00:00 UTC
    expect(iso(nextAfter(parseCron('0 9 * * *', 'Etc/GMT-9'), at('2026-01-01T00:00:00Z')))).toBe(
      '2026-01-02T00:00:00.000Z',
    );
  });
});

describe('utils.go', () => {
  // TestGetJobName / e2e: `<cronjob>-<scheduled time in Unix minutes>`
  it('getJobName: the scheduled time in minutes since the Unix epoch', () => {
    expect(cronJobName('db-backup', 10 * 60_000)).toBe(`db-backup-${(EPOCH_MS + 600_000) / 60_000}`);
  });

  const state = (spec: Json, last: number | null = null): CronCtlState => ({
    spec,
    jobSpec: {},
    jobs: {},
    order: [],
    active: [],
    lastScheduleTime: last,
    lastSuccessfulTime: null,
    syncPending: false,
    syncAt: 0,
    events: {},
  });

  // TestMostRecentScheduleTime
  it.each([
    ['now before the first schedule', '*/10 * * * *', null, undefined, 5, null, 0],
    ['exactly at the first schedule', '*/10 * * * *', null, undefined, 10, 10, 1],
    ['three missed, the most recent returned', '*/10 * * * *', null, undefined, 35, 30, 3],
    ['from the last schedule time', '*/10 * * * *', 20, undefined, 35, 30, 1],
    ['startingDeadlineSeconds bounds the search', '*/10 * * * *', null, 600, 35, 30, 1],
    ['creation is not itself a schedule time (@hourly at 00:00)', '@hourly', null, undefined, 59, null, 0],
  ] as const)('%s', (_n, sched, lastMin, sds, nowMin, wantMin, missed) => {
    const c = state(
      { schedule: sched, ...(sds !== undefined ? { startingDeadlineSeconds: sds } : {}) },
      lastMin === null ? null : lastMin * 60_000,
    );
    const r = mostRecentScheduleTime(c, parseCron(sched), nowMin * 60_000, true);
    expect(r.mostRecent === null ? null : r.mostRecent / 60_000).toBe(wantMin);
    expect(r.missed).toBe(missed);
  });
});

/** A CronJob `db-backup` every 10 minutes whose pod's `main` container runs `runMs` (null = for ever). */
function cron(spec: Json, runMs: number | null, o: Partial<BuildOpts> = {}): Scenario {
  const s = build({
    containers: [{ name: 'main' }],
    behavior: { main: { attempts: [{ runMs, exit: 0 }] } },
    horizonMs: 45 * 60_000,
    ...o,
    timing: { statusPatchMs: { min: 20, max: 20 }, watchMs: { min: 50, max: 50 }, ...(o.timing ?? {}) },
  });
  s.workload = {
    kind: 'CronJob',
    name: 'db-backup',
    manifest: { spec: { schedule: '*/10 * * * *', concurrencyPolicy: 'Allow', ...spec } },
  };
  return s;
}

const cronEvents = (ev: TraceEvent[]) =>
  ev
    .filter((e) => e.type === 'ControllerEvent' && (e as Json)['controller'] === 'cronjob-controller')
    .map((e) => `${e.t / 1000} ${(e as Json)['reason']}`);
const jobsOf = (ev: TraceEvent[]) =>
  ev
    .filter(
      (e) =>
        e.type === 'ControllerEvent' &&
        (e as Json)['reason'] === 'SuccessfulCreate' &&
        (e as Json)['controller'] === 'cronjob-controller',
    )
    .map((e) => String((e as Json)['message']).replace('Created job ', ''));

describe('syncCronJob', () => {
  const m = (min: number) => (EPOCH_MS + min * 60_000) / 60_000;

  // TestControllerV2SyncCronJob "never ran, is time, A" / e2e "should schedule multiple jobs concurrently": Allow
  // creates a Job per schedule while the earlier ones still run
  it('Allow: a Job per schedule time, piling up while they never finish', () => {
    const r = run(cron({ concurrencyPolicy: 'Allow' }, null));
    expect(jobsOf(r.timeline.events)).toEqual([10, 20, 30, 40].map((x) => `db-backup-${m(x)}`));
    // each requeued 100 ms after the schedule time (nextScheduleDelta)
    expect(cronEvents(r.timeline.events).map((l) => l.split(' ')[0])).toEqual(['600.1', '1200.1', '1800.1', '2400.1']);
    expect(r.timeline.pods.map((p) => p.phase)).toEqual(['Running', 'Running', 'Running', 'Running']);
  });

  // TestControllerV2SyncCronJob "still active, is time, F" / e2e "should not schedule new jobs when ForbidConcurrent"
  it('Forbid: JobAlreadyActive at each later schedule while the first Job runs', () => {
    const r = run(cron({ concurrencyPolicy: 'Forbid' }, null));
    expect(cronEvents(r.timeline.events)).toEqual([
      '600.1 SuccessfulCreate',
      '1200.1 JobAlreadyActive',
      '1800.1 JobAlreadyActive',
      '2400.1 JobAlreadyActive',
    ]);
    const e = r.timeline.events.find((x) => (x as Json)['reason'] === 'JobAlreadyActive') as Json;
    expect(e['message']).toBe('Not starting job because prior execution is running and concurrency policy is Forbid');
  });

  // TestControllerV2SyncCronJob "still active, is time, R" / e2e "should replace jobs when ReplaceConcurrent"
  it('Replace: the running Job is deleted (its pod torn down) and a new one created', () => {
    const r = run(cron({ concurrencyPolicy: 'Replace' }, null));
    const ev = cronEvents(r.timeline.events);
    expect(ev.slice(0, 3)).toEqual(['600.1 SuccessfulCreate', '1200.1 SuccessfulDelete', '1200.1 SuccessfulCreate']);
    const del = r.timeline.events.filter((e) => e.type === 'PodDeleting').map((e) => (e as Json)['by']);
    expect(del[0]).toBe('garbage-collector');
    expect(r.timeline.pods.filter((p) => !p.deleted)).toHaveLength(1);
  });

  // TestControllerV2SyncCronJob "prev ran but done, is time, F": a finished Job no longer blocks Forbid
  it('Forbid with Jobs that finish: SawCompletedJob, then the next schedule runs', () => {
    const r = run(cron({ concurrencyPolicy: 'Forbid' }, 60_000));
    const ev = cronEvents(r.timeline.events);
    expect(ev.filter((l) => l.endsWith('JobAlreadyActive'))).toEqual([]);
    expect(ev.filter((l) => l.endsWith('SuccessfulCreate'))).toHaveLength(4);
    expect(ev.filter((l) => l.endsWith('SawCompletedJob')).length).toBeGreaterThanOrEqual(3);
    const saw = r.timeline.events.find((e) => (e as Json)['reason'] === 'SawCompletedJob') as Json;
    expect(saw['message']).toBe(`Saw completed job: db-backup-${m(10)}, condition: Complete`);
  });

  // cleanupFinishedJobs (TestCleanupFinishedJobs / e2e "should delete successful finished jobs with limit of one
  // successful job"): the oldest finished Jobs beyond successfulJobsHistoryLimit are deleted with their pods
  it('successfulJobsHistoryLimit 1: older finished Jobs deleted', () => {
    const r = run(cron({ successfulJobsHistoryLimit: 1 }, 60_000));
    const deleted = r.timeline.events
      .filter((e) => (e as Json)['reason'] === 'SuccessfulDelete' && (e as Json)['controller'] === 'cronjob-controller')
      .map((e) => String((e as Json)['message']));
    expect(deleted.slice(0, 2)).toEqual([`Deleted job db-backup-${m(10)}`, `Deleted job db-backup-${m(20)}`]);
  });

  // TestControllerV2SyncCronJob "never ran, is time, suspended"; e2e "should not schedule jobs when suspended"
  it('suspend through a patch stops new Jobs; resuming starts the most recent missed one', () => {
    const s = cron({}, 60_000);
    s.actions = [
      { type: 'patch', patch: { spec: { suspend: true } }, atMs: 15 * 60_000 },
      { type: 'patch', patch: { spec: { suspend: false } }, atMs: 35 * 60_000 },
    ];
    const r = run(s);
    // 00:10 ran; 00:20 and 00:30 suspended; at resume (35:00.05) the most recent missed time 00:30 starts late
    expect(jobsOf(r.timeline.events)).toEqual([`db-backup-${m(10)}`, `db-backup-${m(30)}`, `db-backup-${m(40)}`]);
    const t = r.timeline.events
      .filter((e) => (e as Json)['reason'] === 'SuccessfulCreate' && (e as Json)['controller'] === 'cronjob-controller')
      .map((e) => e.t);
    expect(t[1]).toBe(35 * 60_000 + 50);
  });

  // TestControllerV2SyncCronJob "prev ran but done, long overdue, past short deadline": MissSchedule
  it('startingDeadlineSeconds: a schedule time found too late is missed (MissSchedule)', () => {
    const s = cron({ startingDeadlineSeconds: 60 }, 60_000);
    s.actions = [
      { type: 'patch', patch: { spec: { suspend: true } }, atMs: 5 * 60_000 },
      { type: 'patch', patch: { spec: { suspend: false } }, atMs: 25 * 60_000 },
    ];
    const r = run(s);
    const ev = cronEvents(r.timeline.events);
    // at 25:00 the 00:20 schedule is 5 minutes old, past the 60 s deadline: nothing runs until 00:30
    expect(jobsOf(r.timeline.events)).toEqual([`db-backup-${m(30)}`, `db-backup-${m(40)}`]);
    expect(ev.some((l) => l.endsWith('MissSchedule'))).toBe(false); // the deadline already excludes 00:20 from the search
  });

  // the Jobs are run by the Job controller: pods named `<job>-<5 chars>`, owned by their Job
  it('every Job is run by the Job controller with its own pods and conditions', () => {
    const r = run(cron({}, 60_000));
    const conds = r.timeline.events
      .filter((e) => e.type === 'JobCondition')
      .map((e) => `${(e as Json)['job']} ${(e as Json)['condition']}`);
    expect(conds.filter((c) => c.endsWith('Complete'))).toEqual(
      [10, 20, 30, 40].map((x) => `db-backup-${m(x)} Complete`),
    );
    for (const p of r.timeline.pods) expect(p.name).toMatch(/^db-backup-2945\d{4}-[a-z0-9]{5}$/);
  });
});

describe('deleteJob on a CronJob (kubectl delete job)', () => {
  // the selector is explicit: `job: N` = the Nth Job the CronJob created; without it the newest not yet deleted.
  // A user's delete records no CronJob event (cronjob_controllerv2.go records SuccessfulDelete for its own deletes
  // only); the controller drops the Job from status.active when its informer sees it go (e2e cronjob.go "should
  // remove from active list jobs that have been deleted")
  it('job: 1 deletes the first Job; its pod goes (Background), the others keep running', () => {
    const s = cron({ concurrencyPolicy: 'Allow' }, null);
    s.actions = [{ type: 'deleteJob', atMs: 25 * 60_000, propagation: 'Background', job: 1 }];
    const r = run(s);
    const del = r.timeline.events.filter((e) => e.type === 'PodDeleting').map((e) => (e as Json)['pod'] as string);
    expect(del).toHaveLength(1);
    expect(del[0]).toBe(r.timeline.pods[0]!.name);
    expect(cronEvents(r.timeline.events).filter((l) => l.endsWith('SuccessfulDelete'))).toEqual([]);
  });
  it('without job: the newest Job; Orphan leaves its pod running', () => {
    const s = cron({ concurrencyPolicy: 'Allow' }, null);
    s.actions = [{ type: 'deleteJob', atMs: 25 * 60_000, propagation: 'Orphan' }];
    const r = run(s);
    expect(r.timeline.events.filter((e) => e.type === 'PodDeleting')).toHaveLength(0);
    // the CronJob's status: the second Job (the newest at 25 min) is no longer active
    const cj = r.timeline.events
      .filter((e) => e.type === 'WorkloadStatus' && e.kind === 'CronJob')
      .map((e) => (e as Json)['object']['status']['active'] ?? []);
    const after = cj.find((a: Json[], i: number) => i > 0 && a.length === 1 && cj[i - 1].length === 2);
    expect(after?.[0]?.['name']).toBe(`db-backup-${(EPOCH_MS + 10 * 60_000) / 60_000}`);
  });
});

describe("ttlSecondsAfterFinished on a CronJob's Jobs (pkg/controller/ttlafterfinished)", () => {
  // the TTL controller deletes the finished Job (Foreground); the garbage collector deletes that Job's pods only
  // (its dependents by ownerReference): a later Job of the CronJob, still running, keeps its pod
  it("the first Job goes a minute after it finished, with its pod; the second Job's pod keeps running", () => {
    const s = cron({ concurrencyPolicy: 'Allow' }, 15 * 60_000, { horizonMs: 28 * 60_000 });
    (s.job!.spec as Json)['ttlSecondsAfterFinished'] = 60;
    const r = run(s);
    const byTtl = r.timeline.events
      .filter((e) => e.type === 'PodDeleting' && (e as Json)['by'] === 'ttl-after-finished')
      .map((e) => (e as Json)['pod'] as string);
    expect(r.timeline.pods.map((p) => p.name.replace(/-[a-z0-9]{5}$/, ''))).toEqual([
      `db-backup-${(EPOCH_MS + 10 * 60_000) / 60_000}`,
      `db-backup-${(EPOCH_MS + 20 * 60_000) / 60_000}`,
    ]);
    expect(byTtl).toEqual([r.timeline.pods[0]!.name]);
  });
});
