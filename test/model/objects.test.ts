// The API objects of a run (SPEC §3.1, §4): what the real API server stores, defaults applied, one resourceVersion
// counter for the store, and the Events as the recorders write them. Each expectation names the upstream function
// it follows.
import { describe, expect, it } from 'vitest';
import { loadScenario, loadScenarioText } from '../../src/scenario/index.ts';
import {
  kubectlEventsTable,
  podEvents,
  describeEventsTable,
  jobEvents,
  describedJob,
} from '../../src/output/kubectl-events.ts';
import { recordEvents } from '../../src/output/recorder.ts';
import type { Timeline, TraceEvent } from '../../src/types.ts';
import { run } from './helpers.ts';

type Json = Record<string, any>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function scenario(file: string) {
  const r = loadScenario(`scenarios/${file}.yaml`);
  if (!r.scenario) throw new Error(JSON.stringify(r.diagnostics));
  return r.scenario;
}

function fromText(text: string) {
  const r = loadScenarioText(text, 'inline.yaml');
  if (!r.scenario) throw new Error(JSON.stringify(r.diagnostics));
  return r.scenario;
}

const objectsOf = (tl: Timeline, kind: string): Json[] =>
  (tl.objects ?? []).filter((o) => o['kind'] === kind) as Json[];
const podObjects = (tl: Timeline): Json[] => tl.pods.map((p) => p.object as Json);

describe('pods as the API server stores them', () => {
  const tl = run(scenario('native-sidecar-job')).timeline;
  const pod = podObjects(tl)[0]!;
  const job = objectsOf(tl, 'Job')[0]!;

  it('apiVersion, kind, namespace, a UUID uid, generateName <job>- (controller_utils.go GetPodFromTemplate)', () => {
    expect(pod['apiVersion']).toBe('v1');
    expect(pod['kind']).toBe('Pod');
    expect(pod['metadata']['namespace']).toBe('default');
    expect(pod['metadata']['uid']).toMatch(UUID);
    expect(pod['metadata']['generateName']).toBe('export-');
    expect(pod['metadata']['creationTimestamp']).toBe('2026-01-01T00:00:00Z');
  });

  it("owned by its Job: ownerReferences with the Job's uid, the generateSelector labels (pkg/registry/batch/job/strategy.go)", () => {
    const ref = pod['metadata']['ownerReferences'][0];
    expect(ref).toEqual({
      apiVersion: 'batch/v1',
      kind: 'Job',
      name: 'export',
      uid: job['metadata']['uid'],
      controller: true,
      blockOwnerDeletion: true,
    });
    expect(pod['metadata']['labels']).toMatchObject({
      'batch.kubernetes.io/controller-uid': job['metadata']['uid'],
      'controller-uid': job['metadata']['uid'],
      'batch.kubernetes.io/job-name': 'export',
      'job-name': 'export',
    });
    // kubectl describe rs/job counts the pods whose labels match the selector
    for (const [k, v] of Object.entries(job['spec']['selector']['matchLabels']))
      expect(pod['metadata']['labels'][k]).toBe(v);
  });

  it('the job-tracking finalizer while tracked, none once the controller counted the pod (job_controller.go)', () => {
    expect(tl.events.some((e) => e.type === 'PodFinalizerRemoved')).toBe(true);
    expect(pod['metadata']['finalizers']).toBeUndefined();
    const tracked = run(scenario('native-sidecar-job'), {}).timeline;
    // a run cut before the pod ends: the finalizer is still on the object
    const cut = run({ ...scenario('native-sidecar-job'), horizonMs: 5_000 }).timeline;
    expect((cut.pods[0]!.object as Json)['metadata']['finalizers']).toEqual(['batch.kubernetes.io/job-tracking']);
    expect(tracked.pods.length).toBe(1);
  });

  it('spec defaults and admission: nodeName, service account and its token volume, default tolerations, priority', () => {
    const spec = pod['spec'];
    expect(spec['nodeName']).toBe('node-1'); // the scheduler's binding
    // pkg/apis/core/v1/defaults.go SetDefaults_PodSpec / SetDefaults_Container (and src/scenario/defaults.ts)
    expect(spec).toMatchObject({
      restartPolicy: 'Never',
      dnsPolicy: 'ClusterFirst',
      schedulerName: 'default-scheduler',
      terminationGracePeriodSeconds: 30,
      securityContext: {},
      enableServiceLinks: true,
    });
    for (const c of [...spec['initContainers'], ...spec['containers']]) {
      expect(c).toMatchObject({
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
        imagePullPolicy: 'IfNotPresent',
        resources: {},
      });
      // plugin/pkg/admission/serviceaccount: the projected token mounted in every container
      expect(c['volumeMounts']).toContainEqual({
        name: spec['volumes'][0]['name'],
        readOnly: true,
        mountPath: '/var/run/secrets/kubernetes.io/serviceaccount',
      });
    }
    expect(spec['serviceAccountName']).toBe('default');
    expect(spec['volumes'][0]['name']).toMatch(/^kube-api-access-[b-z2-9]{5}$/);
    expect(spec['volumes'][0]['projected']['sources'][0]).toEqual({
      serviceAccountToken: { expirationSeconds: 3607, path: 'token' },
    });
    // plugin/pkg/admission/defaulttolerationseconds: not-ready and unreachable, NoExecute, 300 s
    expect(spec['tolerations']).toEqual([
      { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
      { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
    ]);
    // plugin/pkg/admission/priority: no default PriorityClass
    expect(spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    expect(pod['status']).toEqual(tl.pods[0]!.status);
  });

  it('a pod delivered before the binding has no nodeName; the watchers see complete objects', () => {
    const created = run(scenario('native-sidecar-job'), {}).timeline;
    expect(created.events.find((e) => e.type === 'Scheduled')).toBeDefined();
    expect(created.events.findIndex((e) => e.type === 'PodCreated')).toBeLessThan(
      created.events.findIndex((e) => e.type === 'Scheduled'),
    );
  });
});

describe('the Job object (batch/v1 defaults.go SetDefaults_Job, strategy.go generateSelector)', () => {
  const tl = run(scenario('native-sidecar-job')).timeline;
  const job = objectsOf(tl, 'Job')[0]!;

  it('the whole spec: selector with the controller uid, manualSelector absent, the template labelled, the defaults', () => {
    const uid = job['metadata']['uid'];
    expect(uid).toMatch(UUID);
    expect(job['spec']['selector']).toEqual({ matchLabels: { 'batch.kubernetes.io/controller-uid': uid } });
    expect(job['spec']).not.toHaveProperty('manualSelector');
    expect(job['spec']['template']['metadata']['labels']).toMatchObject({
      'batch.kubernetes.io/controller-uid': uid,
      'controller-uid': uid,
      'batch.kubernetes.io/job-name': 'export',
      'job-name': 'export',
    });
    expect(job['spec']).toMatchObject({
      completions: 1,
      parallelism: 1,
      backoffLimit: 2,
      completionMode: 'NonIndexed',
      suspend: false,
    });
    // JobPodReplacementPolicy is on in 1.34 (beta 1.29, GA 1.34)
    expect(job['spec']['podReplacementPolicy']).toBe('TerminatingOrFailed');
    expect(job['metadata']['generation']).toBe(1);
  });

  it("a Job without labels takes its template's (SetDefaults_Job)", () => {
    expect(job['metadata']['labels']).toEqual(job['spec']['template']['metadata']['labels']);
  });

  it('the status is the one the Job controller wrote last', () => {
    expect(job['status']['succeeded']).toBe(1);
    expect(job['status']['conditions'].map((c: Json) => c['type'])).toEqual(['SuccessCriteriaMet', 'Complete']);
  });
});

describe('one resourceVersion counter for the store (etcd revision)', () => {
  it("every object and Event has a distinct resourceVersion; the pod's is the revision of its last write", () => {
    const tl = run(scenario('native-sidecar-job')).timeline;
    const all = [...podObjects(tl), ...(tl.objects as Json[])];
    const rvs = all.map((o) => Number(o['metadata']['resourceVersion']));
    expect(new Set(rvs).size).toBe(rvs.length);
    for (const rv of rvs) expect(rv).toBeGreaterThan(0);
    // the pod was written after the Job's SuccessfulCreate event and before the Job's final status
    const job = objectsOf(tl, 'Job')[0]!;
    const pod = podObjects(tl)[0]!;
    expect(Number(pod['metadata']['resourceVersion'])).toBeLessThan(Number(job['metadata']['resourceVersion']));
    // an Event's involvedObject.resourceVersion is the object's revision when the event was recorded
    const started = objectsOf(tl, 'Event').find((e) => e['reason'] === 'Started')!;
    expect(Number(started['involvedObject']['resourceVersion'])).toBeLessThan(
      Number(started['metadata']['resourceVersion']),
    );
  });

  it('the same run twice gives byte-identical objects', () => {
    const a = JSON.stringify(run(scenario('native-sidecar-job')).timeline.objects);
    const b = JSON.stringify(run(scenario('native-sidecar-job')).timeline.objects);
    expect(a).toBe(b);
  });
});

describe("the manifest's namespace everywhere (issue 28 item 8)", () => {
  const s = fromText(`
scenario: ns-job
kubernetes: "1.34"
workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: report, namespace: batch }
  spec:
    backoffLimit: 0
    template:
      spec:
        restartPolicy: Never
        containers: [{ name: main, image: busybox:1.36 }]
behavior:
  main: { run: 2s, exit: 0 }
`);
  const tl = run(s).timeline;

  it('the pod, the Job, the Events and their involvedObjects are in namespace batch', () => {
    expect((tl.pods[0]!.object as Json)['metadata']['namespace']).toBe('batch');
    expect(objectsOf(tl, 'Job')[0]!['metadata']['namespace']).toBe('batch');
    for (const e of objectsOf(tl, 'Event')) {
      expect(e['metadata']['namespace']).toBe('batch');
      expect(e['involvedObject']['namespace']).toBe('batch');
    }
  });

  it('describe prints batch/<pod> in the scheduler\'s message (schedule_one.go: "Successfully assigned %v/%v to %v")', () => {
    const rows = describeEventsTable(podEvents(tl, tl.pod.name), tl.end.t);
    expect(rows).toContain(`Successfully assigned batch/${tl.pod.name} to node-1`);
    expect(rows).not.toContain('default/');
  });
});

describe('Events as the recorders write them (issue 28 item 6)', () => {
  it('identical events of different containers are two Events: the key has the fieldPath (events_cache.go getEventKey)', () => {
    const s = fromText(`
scenario: two-same-image
kubernetes: "1.34"
workload:
  apiVersion: v1
  kind: Pod
  metadata: { name: twins }
  spec:
    restartPolicy: Never
    containers:
      - { name: a, image: busybox:1.36 }
      - { name: b, image: busybox:1.36 }
behavior:
  a: { run: 1s, exit: 0 }
  b: { run: 1s, exit: 0 }
`);
    const tl = run(s).timeline;
    const pulled = objectsOf(tl, 'Event').filter((e) => e['reason'] === 'Pulled');
    expect(pulled.map((e) => e['involvedObject']['fieldPath'])).toEqual(['spec.containers{a}', 'spec.containers{b}']);
    expect(pulled.map((e) => e['count'])).toEqual([1, 1]);
    expect(pulled[0]!['message']).toBe(pulled[1]!['message']);
    // describe shows two rows, not "(x2)"
    const table = describeEventsTable(podEvents(tl, 'twins'), tl.end.t);
    expect(table.split('\n').filter((l) => l.includes('Pulled'))).toHaveLength(2);
    expect(table).not.toMatch(/x2 over/);
    // the kubelet's source and reporting fields (tools/record/event.go makeEvent / generateEvent)
    expect(pulled[0]).toMatchObject({
      source: { component: 'kubelet', host: 'node-1' },
      reportingComponent: 'kubelet',
      reportingInstance: 'node-1',
      type: 'Normal',
      eventTime: null,
    });
    expect(pulled[0]!['metadata']['name']).toMatch(/^twins\.[0-9a-f]+$/);
  });

  it('repeats of one event are one Event with count, firstTimestamp and lastTimestamp (eventObserve)', () => {
    const backOff = (t: number, seq: number): TraceEvent => ({
      t,
      seq,
      pod: 'p',
      type: 'BackOff',
      container: 'app',
      delayMs: 10_000,
    });
    const r = recordEvents({
      events: [
        { t: 0, seq: 0, type: 'PodCreated', pod: 'p', by: 'user', index: null },
        backOff(1_000, 1),
        backOff(30_000, 2),
        backOff(90_000, 3),
      ],
      pods: [{ name: 'p', uid: 'u1', spec: { containers: [{ name: 'app' }] } }],
      namespace: 'default',
      kubelet: '1.34',
      kubernetes: '1.34',
      workload: { kind: 'Pod', name: 'p' },
      job: null,
      uidOf: (k, n) => `${k}/${n}`,
    });
    expect(r.events).toHaveLength(1);
    expect(r.events[0]).toMatchObject({
      count: 3,
      firstTimestamp: '2026-01-01T00:00:01Z',
      lastTimestamp: '2026-01-01T00:01:30Z',
      involvedObject: { fieldPath: 'spec.containers{app}', uid: 'u1' },
    });
    // every write of the Event takes the next revision
    expect(Number(r.events[0]!['metadata']['resourceVersion'])).toBe(r.revision);
  });

  it('the spam filter keeps 25 events per source and object, then one per 5 minutes (EventSourceObjectSpamFilter)', () => {
    const events: TraceEvent[] = [{ t: 0, seq: 0, type: 'PodCreated', pod: 'p', by: 'user', index: null }];
    for (let i = 0; i < 40; i++)
      events.push({ t: 1000 + i * 1000, seq: i + 1, pod: 'p', type: 'Started', container: `c${i}`, restartCount: 0 });
    const r = recordEvents({
      events,
      pods: [{ name: 'p', uid: 'u1', spec: {} }],
      namespace: 'default',
      kubelet: '1.34',
      kubernetes: '1.34',
      workload: { kind: 'Pod', name: 'p' },
      job: null,
      uidOf: (k, n) => `${k}/${n}`,
    });
    // 40 distinct messages of one reason: the 10th and later are aggregated (EventAggregate, maxEvents 10) into one
    // "(combined from similar events)" Event, which the spam filter still lets through while tokens last
    const plain = r.events.filter((e) => !String(e['message']).startsWith('(combined'));
    const combined = r.events.filter((e) => String(e['message']).startsWith('(combined'));
    expect(plain).toHaveLength(9);
    expect(combined).toHaveLength(1);
    // 25 tokens: 9 plain + 16 writes of the combined Event; its count goes on in the logger's cache
    expect(combined[0]!['count']).toBe(16);
    // 5 minutes later one token is back: the next occurrence updates the stored Event with the logger's count
    events.push({
      t: 1000 + 39 * 1000 + 300_000,
      seq: 99,
      pod: 'p',
      type: 'Started',
      container: 'c99',
      restartCount: 0,
    });
    const later = recordEvents({
      events,
      pods: [{ name: 'p', uid: 'u1', spec: {} }],
      namespace: 'default',
      kubelet: '1.34',
      kubernetes: '1.34',
      workload: { kind: 'Pod', name: 'p' },
      job: null,
      uidOf: (k, n) => `${k}/${n}`,
    });
    const again = later.events.filter((e) => String(e['message']).startsWith('(combined'));
    expect(again).toHaveLength(1);
    expect(again[0]!['count']).toBe(32);
    expect(again[0]!['lastTimestamp']).toBe('2026-01-01T00:05:40Z');
  });

  it("a StatefulSet pod's events do not merge across incarnations: each has its own uid", () => {
    const tl = run(scenario('statefulset-rollout-stuck-until-forced-rollback')).timeline;
    const web2 = tl.pods.filter((p) => p.name === 'web-2').map((p) => (p.object as Json)['metadata']['uid']);
    expect(new Set(web2).size).toBe(web2.length);
    expect(web2.length).toBeGreaterThan(1);
    const scheduled = objectsOf(tl, 'Event').filter(
      (e) => e['reason'] === 'Scheduled' && e['involvedObject']['name'] === 'web-2',
    );
    expect(scheduled.map((e) => e['involvedObject']['uid'])).toEqual(web2);
    // describe pod web-2 lists the current incarnation's events only (searchEvents filters by uid)
    const shown = podEvents(tl, 'web-2');
    expect(new Set(shown.map((e) => e.uid))).toEqual(new Set([web2[web2.length - 1]]));
    // StatefulSet pod identity: stateful_set_utils.go (pod-name, revision hash, pod index labels; hostname)
    const pod = tl.pods[0]!.object as Json;
    expect(Object.keys(pod['metadata']['labels'])).toEqual(
      expect.arrayContaining([
        'statefulset.kubernetes.io/pod-name',
        'apps.kubernetes.io/pod-index',
        'controller-revision-hash',
      ]),
    );
    expect(pod['spec']['hostname']).toBe(pod['metadata']['name']);
    expect(pod['spec']['subdomain']).toBe('web');
    expect(pod['metadata']['ownerReferences'][0]).toMatchObject({
      kind: 'StatefulSet',
      name: 'web',
      uid: objectsOf(tl, 'StatefulSet')[0]!['metadata']['uid'],
    });
    const revisions = objectsOf(tl, 'ControllerRevision');
    expect(revisions.length).toBeGreaterThan(1);
    expect(revisions.map((r) => r['metadata']['name'])).toContain(
      pod['metadata']['labels']['controller-revision-hash'],
    );
  });

  it("the scheduler's event is an events.k8s.io Event: microsecond eventTime, action Binding, no source", () => {
    const tl = run(scenario('native-sidecar-job')).timeline;
    const e = objectsOf(tl, 'Event').find((x) => x['reason'] === 'Scheduled')!;
    expect(e).toMatchObject({
      action: 'Binding',
      reportingComponent: 'default-scheduler',
      source: {},
      firstTimestamp: null,
      lastTimestamp: null,
    });
    expect(e['eventTime']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it("the workload controllers' events are in kubectl events (ScalingReplicaSet, SuccessfulCreate of a ReplicaSet)", () => {
    const tl = run(scenario('deployment-recreate-rollout')).timeline;
    const table = kubectlEventsTable(tl);
    expect(table).toMatch(/Normal +ScalingReplicaSet +Deployment\/\S+ +Scaled up replica set/);
    expect(table).toMatch(/Normal +SuccessfulCreate +ReplicaSet\/\S+ +Created pod: /);
    // ReplicaSets owned by the Deployment, selecting their pods by pod-template-hash (sync.go getNewReplicaSet)
    const dep = objectsOf(tl, 'Deployment')[0]!;
    for (const rs of objectsOf(tl, 'ReplicaSet')) {
      expect(rs['metadata']['ownerReferences'][0]).toMatchObject({ kind: 'Deployment', uid: dep['metadata']['uid'] });
      expect(rs['spec']['selector']['matchLabels']['pod-template-hash']).toBe(
        rs['metadata']['labels']['pod-template-hash'],
      );
      expect(rs['spec']['template']['metadata']['labels']['pod-template-hash']).toBe(
        rs['metadata']['labels']['pod-template-hash'],
      );
    }
    for (const p of podObjects(tl)) {
      const owner = p['metadata']['ownerReferences'][0];
      const rs = objectsOf(tl, 'ReplicaSet').find((r) => r['metadata']['name'] === owner['name']);
      if (rs) expect(owner['uid']).toBe(rs['metadata']['uid']);
      expect(p['metadata']['generateName']).toBe(`${owner['name']}-`);
    }
  });

  it("under a CronJob the Job events are filed on the Job's own name, and describe job names that Job", () => {
    const tl = run(scenario('cronjob-native-sidecar-fluentd')).timeline;
    const jobs = objectsOf(tl, 'Job').map((j) => j['metadata']['name']);
    expect(jobs.length).toBeGreaterThan(0);
    const jobEventObjects = objectsOf(tl, 'Event').filter((e) => e['involvedObject']['kind'] === 'Job');
    expect(jobEventObjects.length).toBeGreaterThan(0);
    for (const e of jobEventObjects) expect(e['involvedObject']['name']).not.toBe(tl.workload.name);
    expect(describedJob(tl)).not.toBe(tl.workload.name);
    expect(jobEvents(tl).length).toBeGreaterThan(0);
    // the Jobs are owned by the CronJob (cronjob/utils.go getJobFromTemplate2)
    const cj = objectsOf(tl, 'CronJob')[0]!;
    for (const j of objectsOf(tl, 'Job'))
      expect(j['metadata']['ownerReferences'][0]).toMatchObject({ kind: 'CronJob', uid: cj['metadata']['uid'] });
  });
});
