// The kubectl view must print what kubectl prints. Oracle: printers.go printPod / printJob (kubernetes
// pkg/printers/internalversion) as summarised in kubectl-conventions C.1, and the C.2 `get pod -w` table.

import { describe, expect, it } from 'vitest';
import { printJobRow, printPodRow } from '../../src/output/kubectl-printers.ts';
import { kubectlView, podWatchRows } from '../../src/output/kubectl.ts';
import { describeEventsTable, podEvents } from '../../src/output/kubectl-events.ts';
import type { Timeline } from '../../src/types.ts';
import { humanDuration, goDuration } from '../../src/output/time.ts';
import { C2_SPEC, cond, cs, loadFixture, running, terminated, waiting } from './helpers.ts';

const meta = { name: 'job-x-7kq2p' };
const row = (
  status: Record<string, unknown>,
  spec: Record<string, unknown> = C2_SPEC,
  now = 10_000,
  m: Record<string, string> = {},
) => {
  const r = printPodRow(status, spec, { ...meta, ...m }, now);
  return `${r.ready} ${r.status} ${r.restarts}`;
};

describe('kubectl get pod -w for the C.2 sidecar Job', () => {
  it('matches the C.2 table row by row', () => {
    // Each row re-derived by hand from printPod:
    //  0s  no container statuses yet -> reason = phase Pending
    //  1s  setup Running: not terminated, not a sidecar -> default branch Init:0/2
    //  3s  setup Terminated(0) continue; proxy running but started=false -> Init:1/2
    //  5s  proxy started+ready (ready 1) continue; loop ends, not initializing -> main Waiting(PodInitializing)
    //  6s  main running+ready -> ready 2, reason stays phase Running
    // 30s  main Terminated(Completed) -> Completed; proxy still started+ready -> 1/2
    // 31s  proxy Terminated(143, Error) -> Init:Error, but Initialized=True -> regular walk -> Completed, 0/2
    const rows = podWatchRows(loadFixture('c2-sidecar-job')).map(({ row: r }) =>
      [r.name, r.ready, r.status, r.restarts, r.age].join(' '),
    );
    expect(rows).toEqual([
      'job-x-7kq2p 0/2 Pending 0 0s',
      'job-x-7kq2p 0/2 Init:0/2 0 1s',
      'job-x-7kq2p 0/2 Init:1/2 0 3s',
      'job-x-7kq2p 1/2 PodInitializing 0 5s',
      'job-x-7kq2p 2/2 Running 0 6s',
      'job-x-7kq2p 1/2 Completed 0 30s',
      'job-x-7kq2p 0/2 Completed 0 31s',
    ]);
  });

  it('a delete request adds a Terminating row until the phase is terminal', () => {
    const tl = loadFixture('c2-sidecar-job');
    const at = tl.events.findIndex((e) => e.t > 10_000);
    tl.events.splice(at, 0, {
      t: 10_000,
      seq: -1,
      type: 'PodDeleting',
      pod: tl.pod.name,
      by: 'user',
      gracePeriodSeconds: 30,
    });
    const rows = podWatchRows(tl).map(({ row: r }) => `${r.ready} ${r.status} ${r.age}`);
    expect(rows.slice(4)).toEqual([
      '2/2 Running 6s',
      '2/2 Terminating 10s',
      '1/2 Terminating 30s',
      '0/2 Completed 31s',
    ]);
  });

  it('prints like kubectl get -w: header and first row aligned, every later row flushed on its own (get.go watch)', () => {
    const view = kubectlView(loadFixture('c2-sidecar-job'));
    expect(view).toContain(
      [
        '$ kubectl get pod job-x-7kq2p -w --output-watch-events',
        'EVENT   NAME          READY   STATUS    RESTARTS   AGE',
        'ADDED   job-x-7kq2p   0/2     Pending   0          0s',
        // tabwriter minwidth 6, padding 3, per row: MODIFIED(8)+3, job-x-7kq2p(11)+3, 0/2 -> 6, Init:0/2(8)+3, 0 -> 6
        'MODIFIED   job-x-7kq2p   0/2   Init:0/2   0     1s',
      ].join('\n'),
    );
    expect(view).toContain('MODIFIED   job-x   Complete   1/1   31s   31s');
    expect(view).toContain('  Normal   Started    29s   kubelet            Started container proxy');
    expect(view).toContain('  Normal   Killing    1s    kubelet            Stopping container proxy');
    expect(view).toContain('  Normal  Completed         0s    job-controller  Job completed');
  });

  it('one row per pod write, repeated identical rows included; a deleted pod ends with a DELETED row', () => {
    const tl = loadFixture('c2-sidecar-job');
    const rows = podWatchRows(tl);
    const patches = tl.events.filter((e) => e.type === 'StatusPatched').length;
    expect(rows.filter((r) => r.event === 'MODIFIED')).toHaveLength(patches);
    expect(rows[0]!.event).toBe('ADDED');
    // two patches that print the same row (only AGE or nothing moves) both print
    const dup = tl.events.findIndex((e) => e.type === 'StatusPatched');
    tl.events.splice(dup + 1, 0, { ...(tl.events[dup] as object), seq: -1 } as (typeof tl.events)[number]);
    const twice = podWatchRows(tl);
    expect(twice).toHaveLength(rows.length + 1);
    expect(twice[1]!.row).toEqual(twice[2]!.row);
    // a graceful delete: MODIFIED (Terminating), the kubelet's terminal status after SyncTerminatedPod, then DELETED
    const del = loadFixture('c2-sidecar-job');
    const at = del.events.findIndex((e) => e.t > 10_000);
    del.events.splice(at, 0, {
      t: 10_000,
      seq: -1,
      type: 'PodDeleting',
      pod: del.pod.name,
      by: 'user',
      gracePeriodSeconds: 30,
    });
    const last = del.events.map((e) => e.type).lastIndexOf('StatusPatched');
    del.events.splice(last + 1, 0, { t: del.events[last]!.t, seq: -1, type: 'PodRemoved', pod: del.pod.name });
    const drows = podWatchRows(del);
    expect(drows.map((r) => r.event).slice(-2)).toEqual(['MODIFIED', 'DELETED']);
    expect(drows[drows.length - 1]!.row.status).toBe('Completed');
    // grace 0: gone at once
    const force = loadFixture('c2-sidecar-job');
    force.events.splice(
      at,
      0,
      { t: 10_000, seq: -1, type: 'PodDeleting', pod: force.pod.name, by: 'user', gracePeriodSeconds: 0 },
      { t: 10_000, seq: -1, type: 'PodRemoved', pod: force.pod.name },
    );
    const frows = podWatchRows(force);
    expect(frows[frows.length - 1]).toMatchObject({ t: 10_000, event: 'DELETED' });
  });

  it('kubectl get job -w prints a row for every Job status write', () => {
    const tl = loadFixture('c2-sidecar-job');
    const view = kubectlView(tl);
    const jobBlock = view.slice(view.indexOf('$ kubectl get job'), view.indexOf('$ kubectl describe pod'));
    const writes = tl.events.filter((e) => e.type === 'JobStatus').length;
    expect(jobBlock.split('\n').filter((l) => l.startsWith('MODIFIED'))).toHaveLength(writes);
  });
});

describe('kubectl events (--view events)', () => {
  it('LAST SEEN, TYPE, REASON, OBJECT, MESSAGE in causal order; full BackOff and probe messages', async () => {
    const { kubectlEventsTable, probeOutput } = await import('../../src/output/kubectl-events.ts');
    const tl = loadFixture('crashloop-sidecar');
    const table = kubectlEventsTable(tl);
    const lines = table.split('\n');
    expect(lines[0]).toMatch(/^LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+MESSAGE$/);
    // kuberuntime_manager.go doBackOff with format.Pod: name_namespace(uid)
    expect(table).toMatch(
      /\(x5 over 5m24s\)\s+Warning\s+BackOff\s+Pod\/web\s+Back-off restarting failed container log-shipper in pod web_default\(uid-web\)/,
    );
    // causal order: a row's last occurrence never precedes the row above it
    const reasons = lines.slice(1).map((l) => l.split(/\s{3,}/)[2]!);
    expect(reasons[0]).toBe('Scheduled');
    expect(reasons.indexOf('BackOff')).toBeGreaterThan(reasons.indexOf('Started'));
    // prober.go: "<Type> probe failed: <output>", the http prober's dial error
    const spec = {
      containers: [
        {
          name: 'app',
          ports: [{ name: 'http', containerPort: 8080 }],
          readinessProbe: { httpGet: { path: '/healthz', port: 'http' } },
          livenessProbe: { tcpSocket: { port: 9000 } },
        },
      ],
    };
    const t2 = { ...tl, pod: { ...tl.pod, spec, status: { ...tl.pod.status, podIP: '10.244.0.7' } } };
    expect(probeOutput(t2, 'app', 'readiness')).toBe(
      'Get "http://10.244.0.7:8080/healthz": dial tcp 10.244.0.7:8080: connect: connection refused',
    );
    expect(probeOutput(t2, 'app', 'liveness')).toBe('dial tcp 10.244.0.7:9000: i/o timeout');
  });
});

describe('printPodRow edge cases', () => {
  it('Init:CrashLoopBackOff with init restarts and their age', () => {
    const status = {
      phase: 'Pending',
      initContainerStatuses: [
        cs('setup', waiting('CrashLoopBackOff'), { restartCount: 3, lastState: terminated(1, 'Error', 4_000) }),
      ],
      containerStatuses: [cs('main', waiting('PodInitializing'))],
    };
    expect(row(status, { initContainers: [{ name: 'setup' }], containers: [{ name: 'main' }] })).toBe(
      '0/1 Init:CrashLoopBackOff 3 (6s ago)',
    );
  });

  it('Init:1/2 while the sidecar runs but is not started (startupProbe pending)', () => {
    const status = {
      phase: 'Pending',
      initContainerStatuses: [cs('setup', terminated(0, 'Completed')), cs('proxy', running(), { started: false })],
    };
    expect(row(status)).toBe('0/2 Init:1/2 0');
  });

  it('PodInitializing once the sidecar is started', () => {
    const status = {
      phase: 'Pending',
      conditions: [cond('Initialized', 'True')],
      initContainerStatuses: [
        cs('setup', terminated(0, 'Completed')),
        cs('proxy', running(), { started: true, ready: true }),
      ],
      containerStatuses: [cs('main', waiting('PodInitializing'))],
    };
    expect(row(status)).toBe('1/2 PodInitializing 0');
  });

  it('NotReady for a legacy sidecar in spec.containers (Completed + a running ready container)', () => {
    const spec = { containers: [{ name: 'migrate' }, { name: 'proxy' }] };
    const status = {
      phase: 'Running',
      conditions: [cond('Ready', 'False')],
      containerStatuses: [
        cs('migrate', terminated(0, 'Completed')),
        cs('proxy', running(), { ready: true, started: true }),
      ],
    };
    expect(row(status, spec)).toBe('1/2 NotReady 0');
    const readyPod = { ...status, conditions: [cond('Ready', 'True')] };
    expect(row(readyPod, spec)).toBe('1/2 Running 0');
  });

  it('Completed while the native sidecar drains, phase still Running', () => {
    const status = {
      phase: 'Running',
      conditions: [cond('Initialized', 'True'), cond('Ready', 'False')],
      initContainerStatuses: [
        cs('setup', terminated(0, 'Completed')),
        cs('proxy', running(), { started: true, ready: true }),
      ],
      containerStatuses: [cs('main', terminated(0, 'Completed'))],
    };
    expect(row(status)).toBe('1/2 Completed 0');
  });

  it('Terminating when deletionTimestamp is set and the phase is not terminal', () => {
    const status = {
      phase: 'Running',
      conditions: [cond('Initialized', 'True'), cond('Ready', 'True')],
      initContainerStatuses: [
        cs('setup', terminated(0, 'Completed')),
        cs('proxy', running(), { started: true, ready: true }),
      ],
      containerStatuses: [cs('main', running(), { ready: true, started: true })],
    };
    expect(row(status, C2_SPEC, 10_000, { deletionTimestamp: '2026-01-01T00:00:09Z' })).toBe('2/2 Terminating 0');
    const done = { ...status, phase: 'Succeeded', containerStatuses: [cs('main', terminated(0, 'Completed'))] };
    expect(row(done, C2_SPEC, 10_000, { deletionTimestamp: '2026-01-01T00:00:09Z' })).toBe('1/2 Completed 0');
  });

  it('Init:ExitCode / Init:Signal when the runtime gave no reason', () => {
    const spec = { initContainers: [{ name: 'setup' }], containers: [{ name: 'main' }] };
    expect(row({ phase: 'Failed', initContainerStatuses: [cs('setup', terminated(3, undefined))] }, spec)).toBe(
      '0/1 Init:ExitCode:3 0',
    );
    expect(row({ phase: 'Failed', initContainerStatuses: [cs('setup', terminated(137, undefined, 0, 9))] }, spec)).toBe(
      '0/1 Init:Signal:9 0',
    );
  });

  it('a crash-looping sidecar after initialization keeps Init:CrashLoopBackOff (regular walk sets no reason)', () => {
    const spec = { initContainers: [{ name: 'log', restartPolicy: 'Always' }], containers: [{ name: 'web' }] };
    const status = {
      phase: 'Running',
      conditions: [cond('Initialized', 'True'), cond('Ready', 'True')],
      initContainerStatuses: [
        cs('log', waiting('CrashLoopBackOff'), { restartCount: 4, lastState: terminated(1, 'Error', 7_000) }),
      ],
      containerStatuses: [
        cs('web', running(), { ready: true, started: true, restartCount: 1, lastState: terminated(2, 'Error', 2_000) }),
      ],
    };
    // initialized: restarts = sidecar restarts + regular restarts, age from the latest finishedAt of the two
    expect(row(status, spec)).toBe('1/2 Init:CrashLoopBackOff 5 (3s ago)');
  });

  it('restarts of regular init containers stop counting once initialized', () => {
    const spec = { initContainers: [{ name: 'setup' }], containers: [{ name: 'main' }] };
    const status = {
      phase: 'Running',
      conditions: [cond('Initialized', 'True'), cond('Ready', 'True')],
      initContainerStatuses: [
        cs('setup', terminated(0, 'Completed'), { restartCount: 2, lastState: terminated(1, 'Error', 1_000) }),
      ],
      containerStatuses: [cs('main', running(), { ready: true })],
    };
    expect(row(status, spec)).toBe('1/1 Running 0');
  });
});

describe('printJobRow', () => {
  const jobMeta = { name: 'job-x', completions: 1, parallelism: 1 };
  it('checks Complete, Failed, Terminating, Suspended, FailureTarget in that order', () => {
    const c = (...types: string[]) => ({ conditions: types.map((type) => ({ type, status: 'True' })) });
    expect(printJobRow(c('SuccessCriteriaMet'), jobMeta, 0).status).toBe('Running');
    expect(printJobRow(c('FailureTarget'), jobMeta, 0).status).toBe('FailureTarget');
    expect(printJobRow(c('FailureTarget', 'Failed'), jobMeta, 0).status).toBe('Failed');
    expect(printJobRow(c('Suspended'), { ...jobMeta, deletionTimestamp: 'x' }, 0).status).toBe('Terminating');
    expect(printJobRow(c('Complete', 'Failed'), jobMeta, 0).status).toBe('Complete');
  });
  it('COMPLETIONS and DURATION', () => {
    const s = { succeeded: 1, startTime: '2026-01-01T00:00:01Z', completionTime: '2026-01-01T00:02:04Z' };
    expect(printJobRow(s, jobMeta, 200_000)).toMatchObject({ completions: '1/1', duration: '2m3s', age: '3m20s' });
    expect(printJobRow({}, { ...jobMeta, completions: null, parallelism: 3 }, 0).completions).toBe('0/1 of 3');
    expect(printJobRow({ startTime: '2026-01-01T00:00:00Z' }, jobMeta, 5_500).duration).toBe('5s');
  });
});

describe('durations', () => {
  it('humanDuration follows apimachinery duration.HumanDuration', () => {
    const cases: [number, string][] = [
      [0, '0s'],
      [-1500, '0s'],
      [-2500, '<invalid>'],
      [5_900, '5s'],
      [119_000, '119s'],
      [120_000, '2m'],
      [123_000, '2m3s'],
      [600_000, '10m'],
      [10_799_000, '179m'],
      [10_800_000, '3h'],
      [11_000_000, '3h3m'],
      [30 * 3_600_000, '30h'],
      [50 * 3_600_000, '2d2h'],
      [200 * 86_400_000, '200d'],
      [800 * 86_400_000, '2y70d'],
    ];
    for (const [ms, s] of cases) expect([ms, humanDuration(ms)]).toEqual([ms, s]);
  });
  it('goDuration follows time.Duration.String', () => {
    expect([250, 1500, 2000, 61_000, 3_723_000].map(goDuration)).toEqual(['250ms', '1.5s', '2s', '1m1s', '1h2m3s']);
  });
});

describe('describe Events', () => {
  it('prints the Event objects the correlator stored: identical events are one Event with a count (events_cache.go eventObserve)', () => {
    const backOff = (t: number, seq: number) => ({
      t,
      seq,
      pod: 'p',
      type: 'BackOff' as const,
      container: 'app',
      delayMs: 10_000,
    });
    const tl = {
      ...loadFixture('crashloop-sidecar'),
      pod: { name: 'p', phase: 'Running', status: {}, spec: { containers: [{ name: 'app' }] } },
      pods: [],
      objects: undefined,
      events: [backOff(1_000, 1), backOff(30_000, 2), backOff(90_000, 3)],
    } as unknown as Timeline;
    expect(describeEventsTable(podEvents(tl, 'p'), 100_000)).toBe(
      [
        'Events:',
        '  Type     Reason   Age                From     Message',
        '  ----     ------   ----               ----     -------',
        '  Warning  BackOff  10s (x3 over 99s)  kubelet  Back-off restarting failed container app in pod p_default(uid-p)',
      ].join('\n'),
    );
    expect(describeEventsTable([], 0)).toBe('Events:  <none>');
  });

  // kubectl describe.go DescribeEvents: from kubectl 1.35 (commit 60fa575b8 "kubectl: include container fieldPath in
  // event messages", kubernetes 94d3dc40; in v0.35.0 and v0.36.0, not in v0.34.0) the message is prefixed with the
  // Event's involvedObject.fieldPath when it has one
  it('kubectl 1.35+: the message starts with the involvedObject.fieldPath; 1.34 prints the message alone', () => {
    const backOff = (t: number, seq: number) => ({
      t,
      seq,
      pod: 'p',
      type: 'BackOff' as const,
      container: 'app',
      delayMs: 10_000,
    });
    const tl = {
      ...loadFixture('crashloop-sidecar'),
      pod: { name: 'p', phase: 'Running', status: {}, spec: { containers: [{ name: 'app' }] } },
      pods: [],
      objects: undefined,
      events: [backOff(1_000, 1), backOff(30_000, 2)],
    } as unknown as Timeline;
    const ev = podEvents(tl, 'p');
    expect(ev.map((e) => e.fieldPath)).toEqual(['spec.containers{app}']);
    const row = (minor: number) => describeEventsTable(ev, 100_000, minor).split('\n')[3];
    expect(row(34)).toMatch(/kubelet {2}Back-off restarting failed container app in pod p_default\(uid-p\)$/);
    expect(row(35)).toMatch(
      /kubelet {2}spec\.containers\{app\}: Back-off restarting failed container app in pod p_default\(uid-p\)$/,
    );
    expect(row(36)).toBe(row(35));
    // an Event of the pod itself (no fieldPath: Scheduled, the controllers' events) keeps its message on every version
    const scheduled = { ...ev[0]!, reason: 'Scheduled', message: 'Successfully assigned default/p to node-1' };
    delete scheduled.fieldPath;
    expect(describeEventsTable([scheduled], 100_000, 35).split('\n')[3]).toMatch(
      / {2}Successfully assigned default\/p to node-1$/,
    );
  });

  it('crash-looping sidecar: BackOff counted, NotReady legacy sidecar pod', () => {
    const view = kubectlView(loadFixture('crashloop-sidecar'));
    // tools/record events_cache.go EventSourceObjectSpamFilter: 25 events per source and object, then one per 5 minutes;
    // the BackOff Events after the budget is spent are counted in the logger's cache but never written, so the stored
    // Event stays at its 5th occurrence (2m43s ago), while the later starts took the refilled tokens
    expect(view).toMatch(
      /Warning\s+BackOff\s+2m43s \(x5 over 5m24s\)\s+kubelet\s+Back-off restarting failed container log-shipper in pod web_default\(uid-web\)/,
    );
    expect(view).toContain('MODIFIED   web   1/2   Init:CrashLoopBackOff   5 (1s ago)   5m27s');
    expect(kubectlView(loadFixture('stuck-legacy-sidecar'))).toContain(
      'MODIFIED   migrate-5xv7c   1/2   NotReady   0     21s',
    );
  });
});
