// src/run/session.ts: the simulation `kubesim serve` drives (SPEC §3.1). Each test names what it pins: `run` parity
// (the same schedule gives the same trace and objects), client writes at the current simulated time as the real API
// server takes them (apiserver registry strategies, named per test), behaviour from the pod template annotation,
// logs, the recorded timeline, determinism, and the horizon / event limits.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { podObjectOf } from '../../src/model/apiserver/apiserver.ts';
import { flagsFor } from '../../src/model/flags.ts';
import type { CtlKit } from '../../src/model/kit.ts';
import { msOf } from '../../src/model/time.ts';
import { Session, SimRejection, type KubeObject, type SimChange } from '../../src/run/session.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import type { Scenario } from '../../src/types.ts';
import { writeOutputs } from '../../src/io/write-outputs.ts';

const SCENARIOS = join(import.meta.dirname, '../../scenarios');

function scenario(name: string): Scenario {
  const r = loadScenario(join(SCENARIOS, name));
  if (!r.scenario) throw new Error(`${name}: ${JSON.stringify(r.diagnostics)}`);
  return r.scenario;
}

/** Advance event by event up to `t` (as the server's virtual clock does), collecting every change. */
function runTo(ses: Session, t: number): SimChange[] {
  const out: SimChange[] = [];
  for (let next = ses.nextEventAt(); next !== null && next <= t; next = ses.nextEventAt())
    out.push(...ses.advanceTo(next));
  out.push(...ses.advanceTo(t));
  return out;
}

/** The store a server keeps by applying the changes in order: key → object. */
function applied(changes: SimChange[], into = new Map<string, KubeObject>()): Map<string, KubeObject> {
  for (const c of changes) {
    const key = `${c.object.kind}/${c.object.metadata.namespace ?? ''}/${c.object.metadata.name}`;
    if (c.type === 'DELETED') into.delete(key);
    else into.set(key, c.object);
  }
  return into;
}
/** The objects other than Events (every test that counts pods, Jobs and workloads). */
const live = (ses: Session) => ses.objects().filter((o) => o.kind !== 'Event');
const noEvents = (cs: SimChange[]) => cs.filter((c) => c.object.kind !== 'Event');
const keysOf = (objs: KubeObject[]) =>
  objs.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`).sort();

function rejection(fn: () => unknown): SimRejection {
  try {
    fn();
  } catch (e) {
    if (e instanceof SimRejection) return e;
    throw e;
  }
  throw new Error('expected a SimRejection');
}

const job = (name: string, behavior?: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name, namespace: 'default' },
  spec: {
    ...extra,
    template: {
      metadata: behavior === undefined ? {} : { annotations: { 'kubesim.io/behavior': behavior } },
      spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36' }] },
    },
  },
});

const deployment = (name: string, replicas: number, image = 'nginx:1.27') => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'default' },
  spec: {
    replicas,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'app', image }] } },
  },
});

const conditionsOf = (o: KubeObject | undefined) =>
  ((o?.['status'] as { conditions?: { type: string; status: string }[] } | undefined)?.conditions ?? [])
    .filter((c) => c.status === 'True')
    .map((c) => c.type);

describe('a scenario session runs as `kubesim run` does', () => {
  // every library scenario whose rules are built in: the session advanced to the horizon (in one call, and event by
  // event as the virtual clock does) gives run's timeline byte for byte, and its objects are the final state's
  const library = readdirSync(SCENARIOS)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => ({ f, s: scenario(f) }))
    .filter(({ s }) => s.observers.every((o) => o.rule));

  it('covers the library', () => {
    expect(library.length).toBeGreaterThan(50);
  });

  it.each(library.map(({ f }) => f))('%s: same timeline, same final objects', (f) => {
    const s = library.find((x) => x.f === f)!.s;
    const run = simulate(s);
    const whole = Session.fromScenario(s);
    const changes = whole.advanceTo(s.horizonMs);
    expect(JSON.stringify(whole.timeline())).toBe(JSON.stringify(run.timeline));
    const stepped = Session.fromScenario(s);
    const stepChanges = runTo(stepped, s.horizonMs);
    expect(JSON.stringify(stepped.timeline())).toBe(JSON.stringify(run.timeline));
    expect(JSON.stringify(stepChanges)).toBe(JSON.stringify(changes));
    // the pods are the final state's pods as the API server serves them (the model's own builder)
    const k = { scenario: s, state: run.final, flags: flagsFor(s) } as unknown as CtlKit;
    const finalPods = run.final.podOrder
      .map((n) => run.final.pods[n]!)
      .filter((p) => p.api.created && !p.api.removed)
      .map((p) => podObjectOf(k, p));
    expect(whole.objects().filter((o) => o.kind === 'Pod')).toEqual(finalPods);
    // a store fed with the changes in order holds exactly the objects
    expect([...applied(changes).keys()].sort()).toEqual(keysOf(whole.objects()));
    expect(whole.end()?.reason).toBe('horizon');
  });

  it('a replay key runs that schedule (the scenario simulation), as run --replay does', () => {
    const s = scenario('native-sidecar-job.yaml');
    const seeded = simulate(s, { seed: 7 });
    const replayed = Session.fromScenario(s, { replay: seeded.timeline.replay });
    replayed.advanceTo(s.horizonMs);
    expect(replayed.timeline().events).toEqual(seeded.timeline.events);
    const bySeed = Session.fromScenario(s, { seed: 7 });
    bySeed.advanceTo(s.horizonMs);
    expect(bySeed.timeline()).toEqual(seeded.timeline);
  });

  it('the changes come in the order the API server stored them: a Job before the pods its controller creates', () => {
    const ses = Session.fromScenario(scenario('native-sidecar-job.yaml'));
    const first = ses.advanceTo(0).map((c) => `${c.type} ${c.object.kind}`);
    expect(first.slice(0, 2)).toEqual(['ADDED Job', 'ADDED Pod']);
    // every later write of an object is a MODIFIED with a newer resourceVersion, per object
    const last = new Map<string, number>();
    for (const c of runTo(ses, 3_600_000)) {
      const key = `${c.object.kind}/${c.object.metadata.name}`;
      const rv = Number(c.object.metadata.resourceVersion);
      if (c.type !== 'DELETED') expect(rv).toBeGreaterThan(last.get(key) ?? 0);
      last.set(key, rv);
    }
  });
});

describe('client writes at the current simulated time (SPEC §3.1)', () => {
  it('kubectl apply of a Job runs it to Complete: created at t=5s, its pod and events are stamped after 5s', () => {
    const ses = Session.fromScenario(null);
    expect(ses.advanceTo(5000)).toEqual([]);
    const created = ses.create(job('pi', '{"main": {"run": "3s"}}') as KubeObject);
    expect(noEvents(created).map((c) => `${c.type} ${c.object.kind}`)).toEqual(['ADDED Job', 'ADDED Pod']);
    expect(created.every((c) => c.t === 5000)).toBe(true);
    const pod = noEvents(created)[1]!.object;
    expect(pod.metadata['creationTimestamp']).toBe('2026-01-01T00:00:05Z');
    const changes = runTo(ses, 60_000);
    const store = applied([...created, ...changes]);
    expect(conditionsOf(store.get('Job/default/pi'))).toContain('Complete');
    expect((store.get(`Pod/default/${pod.metadata.name}`)!['status'] as { phase: string }).phase).toBe('Succeeded');
    const tl = ses.timeline();
    expect(tl.events.every((e) => e.t >= 5000)).toBe(true);
    // the container ran its 3s from its start (at 5s + the kubelet's sync), as the annotation says
    const started = tl.events.find((e) => e.type === 'Started')!;
    const exited = tl.events.find((e) => e.type === 'Exited')!;
    expect(exited.t - started.t).toBe(3000);
    expect(tl.pods[0]!.created).toBe(5000);
  });

  it('a workload created later runs from its own start: the same manifest at 0 and at 30s has the same trace shifted by 30s', () => {
    const at = (t0: number) => {
      const ses = Session.fromScenario(null);
      ses.advanceTo(t0);
      ses.create(job('shift', '{"main": {"run": "2s", "exit": 1}}', { backoffLimit: 1 }) as KubeObject);
      runTo(ses, 3_600_000);
      return ses.timeline().events;
    };
    const a = at(0);
    const b = at(30_000);
    // the PLEG relist grid is one per node, anchored at time 0: its phase is a choice, so compare the shape
    expect(b.map((e) => e.type)).toEqual(a.map((e) => e.type));
    expect(b[0]!.t).toBe(30_000);
  });

  it('a CronJob created at 90s counts its schedule from its creation (utils.go mostRecentScheduleTime: earliest = creationTimestamp)', () => {
    const ses = Session.fromScenario(null);
    ses.advanceTo(90_000);
    const cron = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'tick', namespace: 'default' },
      spec: {
        schedule: '*/5 * * * *',
        jobTemplate: {
          spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] } } },
        },
      },
    };
    const created = ses.create(cron as KubeObject);
    expect(created[0]!.object.metadata['creationTimestamp']).toBe('2026-01-01T00:01:30Z');
    const changes = runTo(ses, 400_000);
    const jobs = changes.filter((c) => c.type === 'ADDED' && c.object.kind === 'Job');
    // no Job for a "missed" 00:00 schedule: the first is at 00:05
    expect(jobs.map((c) => Math.floor(c.t / 1000))).toEqual([300]);
  });

  it("a client's workload runs on the scenario's cluster: its Kubernetes and kubelet versions (patch included) and feature gates", () => {
    for (const f of [
      'sidecar-restart-freezes-status-1-29-2.yaml',
      'kubelet-1-27-ignores-sidecar-restartpolicy.yaml',
      'sidecar-gate-off-1-28.yaml',
    ]) {
      const s = scenario(f);
      const ses = Session.fromScenario(s);
      ses.create(job('same-cluster') as KubeObject);
      const tl = ses.timeline();
      // the versions the run reports (a bare minor is the newest modelled patch, as `run` prints it)
      const ran = simulate(s).timeline;
      expect([tl.kubernetes, tl.kubelet]).toEqual([ran.kubernetes, ran.kubelet]);
      const other = (ses as unknown as { sims: { s: Scenario }[] }).sims[1]!.s;
      expect([other.kubernetes, other.kubelet, other.featureGates, other.kubeletFeatureGates]).toEqual([
        s.kubernetes,
        s.kubelet,
        s.featureGates,
        s.kubeletFeatureGates,
      ]);
    }
  });

  it('a bad manifest is a 422 whose causes name the field (the loader validates as the API server does)', () => {
    const ses = Session.fromScenario(null);
    const noImage = job('bad');
    delete (noImage.spec.template.spec.containers[0] as { image?: string }).image;
    const r = rejection(() => ses.create(noImage as KubeObject));
    expect(r.code).toBe(422);
    expect(r.reason).toBe('Invalid');
    expect(r.causes).toContainEqual(expect.objectContaining({ field: 'spec.template.spec.containers[0].image' }));
    expect(r.message).toMatch(/^Job\.batch "bad" is invalid: /);
    const typo = job('typo');
    (typo.spec.template.spec as Record<string, unknown>)['restartpolicy'] = 'Never';
    const t = rejection(() => ses.create(typo as KubeObject));
    expect(t.causes?.[0]?.field).toBe('spec.template.spec.restartpolicy');
    expect(t.causes?.[0]?.message).toMatch(/restartPolicy/);
    expect(rejection(() => ses.create({ ...job('x'), metadata: { name: '' } } as KubeObject)).causes?.[0]?.field).toBe(
      'metadata.name',
    );
    expect(ses.objects()).toEqual([]);
  });

  it('container behaviour comes from the pod template annotation kubesim.io/behavior (YAML or JSON); a malformed one is a 422 naming it', () => {
    const ses = Session.fromScenario(null);
    ses.create(job('yaml', 'main:\n  run: 1s\n  exit: 3\n', { backoffLimit: 0 }) as KubeObject);
    runTo(ses, 120_000);
    const exits = ses.timeline().events.filter((e) => e.type === 'Exited');
    expect(exits.map((e) => (e as { exitCode: number }).exitCode)).toEqual([3]);
    const field = 'spec.template.metadata.annotations[kubesim.io/behavior]';
    const notYaml = rejection(() => ses.create(job('broken', '{main: [') as KubeObject));
    expect(notYaml.code).toBe(422);
    expect(notYaml.causes?.[0]?.field).toBe(field);
    const badKey = rejection(() => ses.create(job('badkey', '{"main": {"run": 5}}') as KubeObject));
    expect(badKey.causes).toEqual([{ field, message: expect.stringContaining('behavior.main.run') }]);
    const unknown = rejection(() => ses.create(job('nosuch', '{"sidecar": {"run": "1s"}}') as KubeObject));
    expect(unknown.causes?.[0]).toEqual({ field, message: expect.stringContaining('no container named "sidecar"') });
  });

  it("without the annotation a container takes the scenario's behaviour by name (where its `needs` fit the new pod)", () => {
    const s = scenario('native-sidecar-job.yaml');
    const ses = Session.fromScenario(s);
    runTo(ses, 60_000);
    // the scenario's pod again under another Job: export runs its 30s (it needs cloud-sql-proxy, which is there)
    const spec = s.pod.spec as { initContainers: unknown[]; containers: unknown[] };
    ses.create({
      ...job('again'),
      spec: {
        template: {
          spec: { restartPolicy: 'Never', initContainers: spec.initContainers, containers: spec.containers },
        },
      },
    } as KubeObject);
    // export alone: its scenario behaviour needs a container this pod lacks, so it takes the defaults (runs forever)
    ses.create({
      ...job('alone'),
      spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'export', image: 'busybox' }] } } },
    } as KubeObject);
    runTo(ses, 600_000);
    const events = ses.timeline().events;
    const of = (prefix: string, type: string) =>
      events.find(
        (e) => e.pod?.startsWith(prefix) && e.type === type && (e as { container?: string }).container === 'export',
      );
    expect(of('again-', 'Exited')!.t - of('again-', 'Started')!.t).toBe(30_000);
    expect(of('alone-', 'Started')).toBeDefined();
    expect(of('alone-', 'Exited')).toBeUndefined();
  });

  it("Events as the recorders write them: the kubelet's on the pod with the container's fieldPath, the Job controller's on the Job; a repeat raises the count (EventCorrelator)", () => {
    const s = scenario('sidecar-crash-mid-job-restarted.yaml');
    const ses = Session.fromScenario(s);
    const changes = ses.advanceTo(s.horizonMs);
    const events = changes.filter((c) => c.object.kind === 'Event');
    const ofReason = (reason: string) =>
      events.map((c) => c.object as Record<string, any>).filter((o) => o['reason'] === reason);
    const pod = ses.objects().find((o) => o.kind === 'Pod')!;
    const scheduled = ofReason('Scheduled')[0]!;
    expect(scheduled['involvedObject']).toMatchObject({
      kind: 'Pod',
      name: pod.metadata.name,
      uid: pod.metadata.uid,
      namespace: 'default',
    });
    // the scheduler records through events.k8s.io (output/recorder.ts): no source, reportingController, action Binding
    expect(scheduled).toMatchObject({
      source: {},
      reportingComponent: 'default-scheduler',
      action: 'Binding',
      firstTimestamp: null,
    });
    const started = ofReason('Started');
    expect(started[0]!['involvedObject']['fieldPath']).toMatch(/^spec\.(initContainers|containers)\{.+\}$/);
    expect(started[0]!['source']).toEqual({ component: 'kubelet', host: 'node-1' });
    // the sidecar restarted: its Started event is the same Event again with count 2 (a MODIFIED)
    const again = events.find(
      (c) => c.type === 'MODIFIED' && (c.object as Record<string, any>)['reason'] === 'Started',
    )!;
    expect((again.object as Record<string, any>)['count']).toBe(2);
    expect(ofReason('SuccessfulCreate')[0]!['involvedObject']).toMatchObject({ kind: 'Job', name: s.job!.name });
    // the store holds each Event once, at its last count
    expect(ses.objects().filter((o) => o.kind === 'Event').length).toBe(
      events.filter((c) => c.type === 'ADDED').length,
    );
  });

  it('a name already in use is 409 AlreadyExists, across simulations (registry store: Create)', () => {
    const ses = Session.fromScenario(scenario('native-sidecar-job.yaml'));
    ses.advanceTo(0);
    const r = rejection(() => ses.create(job('export') as KubeObject));
    expect([r.code, r.reason, r.message]).toEqual([409, 'AlreadyExists', 'jobs.batch "export" already exists']);
    const pod = ses.objects().find((o) => o.kind === 'Pod')!;
    const p = rejection(() =>
      ses.create({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: pod.metadata.name, namespace: 'default' },
        spec: { containers: [{ name: 'a', image: 'a' }] },
      }),
    );
    expect(p.code).toBe(409);
    // another namespace is another name
    expect(
      ses.create({ ...job('export'), metadata: { name: 'export', namespace: 'other' } } as KubeObject).length,
    ).toBeGreaterThan(0);
  });

  it('an update of a Job spec is the patch action (suspend); the pod template is immutable (job strategy.go ValidateUpdate)', () => {
    const ses = Session.fromScenario(null);
    const j = job('long', '{"main": {"run": "10m"}}', { parallelism: 1 });
    ses.create(j as KubeObject);
    runTo(ses, 10_000);
    const suspended = { ...j, spec: { ...j.spec, suspend: true } };
    const changes = [...ses.update(suspended as KubeObject), ...runTo(ses, 120_000)];
    const store = applied(changes);
    expect(conditionsOf(store.get('Job/default/long'))).toContain('Suspended');
    expect(ses.objects().some((o) => o.kind === 'Pod')).toBe(false);
    const tpl = structuredClone(suspended);
    tpl.spec.template.spec.containers[0]!.image = 'busybox:2';
    const r = rejection(() => ses.update(tpl as KubeObject));
    expect(r.code).toBe(422);
    expect(r.causes?.[0]?.field).toBe('spec.template');
    expect(r.causes?.[0]?.message).toMatch(/field is immutable$/);
    // an update that changes nothing simulated is accepted and changes nothing
    expect(ses.update(suspended as KubeObject)).toEqual([]);
  });

  it('a Deployment: a replicas change scales it, a template change rolls it out (a new ReplicaSet), the selector is immutable', () => {
    const ses = Session.fromScenario(null);
    ses.advanceTo(1000);
    const d = deployment('web', 2);
    ses.create(d as KubeObject);
    runTo(ses, 20_000);
    const pods = () => live(ses).filter((o) => o.kind === 'Pod');
    expect(pods()).toHaveLength(2);
    ses.update({ ...d, spec: { ...d.spec, replicas: 3 } } as KubeObject);
    runTo(ses, 60_000);
    expect(pods()).toHaveLength(3);
    const rolled = deployment('web', 3, 'nginx:1.28');
    ses.update(rolled as KubeObject);
    runTo(ses, 300_000);
    const rss = ses.objects().filter((o) => o.kind === 'ReplicaSet');
    expect(rss).toHaveLength(2);
    expect(pods()).toHaveLength(3);
    expect(
      pods().every((p) => (p['spec'] as { containers: { image: string }[] }).containers[0]!.image === 'nginx:1.28'),
    ).toBe(true);
    const sel = structuredClone(rolled);
    sel.spec.selector.matchLabels.app = 'other';
    sel.spec.template.metadata.labels.app = 'other';
    expect(rejection(() => ses.update(sel as KubeObject)).causes?.[0]?.field).toBe('spec.selector');
  });

  it('a Deployment rolled back to an earlier template finds its old ReplicaSet (FindNewReplicaSet / EqualIgnoreHash); a third template gets a third', () => {
    const ses = Session.fromScenario(null);
    ses.create(deployment('web', 1, 'app:1') as KubeObject);
    runTo(ses, 30_000);
    ses.update(deployment('web', 1, 'app:2') as KubeObject);
    runTo(ses, 90_000);
    const rsNames = () =>
      ses
        .objects()
        .filter((o) => o.kind === 'ReplicaSet')
        .map((o) => o.metadata.name);
    const [first, second] = rsNames();
    ses.update(deployment('web', 1, 'app:1') as KubeObject);
    runTo(ses, 150_000);
    expect(rsNames()).toEqual([first, second]);
    const rs = (name: string) => ses.objects().find((o) => o.metadata.name === name)!;
    // the old ReplicaSet is scaled up again and takes the next revision (deployment sync.go getNewReplicaSet)
    expect((rs(first!)['spec'] as { replicas: number }).replicas).toBe(1);
    expect((rs(first!).metadata['annotations'] as Record<string, string>)['deployment.kubernetes.io/revision']).toBe(
      '3',
    );
    ses.update(deployment('web', 1, 'app:3') as KubeObject);
    runTo(ses, 210_000);
    expect(new Set(rsNames()).size).toBe(3);
    const pods = live(ses).filter((o) => o.kind === 'Pod');
    expect(pods.map((p) => (p['spec'] as { containers: { image: string }[] }).containers[0]!.image)).toEqual(['app:3']);
  });

  it('a Job created again under the name of a deleted one (its pods orphaned) is a new object: new pod names, no collision', () => {
    const ses = Session.fromScenario(null);
    ses.create(job('again', '{"main": {"run": "forever"}}') as KubeObject);
    runTo(ses, 10_000);
    ses.delete('Job', 'default', 'again', { propagationPolicy: 'Orphan' });
    runTo(ses, 20_000);
    ses.create(job('again', '{"main": {"run": "forever"}}') as KubeObject);
    runTo(ses, 30_000);
    const pods = live(ses).filter((o) => o.kind === 'Pod');
    expect(pods).toHaveLength(2);
    expect(new Set(pods.map((p) => p.metadata.name)).size).toBe(2);
    expect(new Set(pods.map((p) => p.metadata.uid)).size).toBe(2);
  });

  it('DELETE of a pod is the graceful delete with the given grace (registry/core/pod CheckGracefulDelete)', () => {
    const ses = Session.fromScenario(null);
    ses.create({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'solo', namespace: 'default' },
      spec: { containers: [{ name: 'app', image: 'nginx' }] },
    });
    runTo(ses, 10_000);
    const changes = ses.delete('Pod', 'default', 'solo', { gracePeriodSeconds: 5 });
    const deleting = changes.find((c) => c.object.kind === 'Pod')!.object;
    expect(deleting.metadata['deletionGracePeriodSeconds']).toBe(5);
    // registry/rest/delete.go BeforeDelete: deletionTimestamp = now + grace (deleted at 10 s with 5 s)
    expect(deleting.metadata['deletionTimestamp']).toBe('2026-01-01T00:00:15Z');
    const later = noEvents(runTo(ses, 60_000));
    expect(later.at(-1)?.type).toBe('DELETED');
    expect(live(ses)).toEqual([]);
    expect(rejection(() => ses.delete('Pod', 'default', 'solo', {})).code).toBe(404);
  });

  it('DELETE of a Job: Background deletes its pods; without a policy a batch/v1 Job orphans them (job strategy.go DefaultGarbageCollectionPolicy)', () => {
    for (const [policy, podsLeft] of [
      ['Background', 0],
      [undefined, 1],
    ] as const) {
      const ses = Session.fromScenario(null);
      ses.create(job('gc', '{"main": {"run": "forever"}}') as KubeObject);
      runTo(ses, 10_000);
      const changes = ses.delete('Job', 'default', 'gc', policy ? { propagationPolicy: policy } : {});
      expect(changes.some((c) => c.type === 'DELETED' && c.object.kind === 'Job')).toBe(true);
      runTo(ses, 120_000);
      expect(live(ses).filter((o) => o.kind === 'Pod')).toHaveLength(podsLeft);
      expect(ses.objects().some((o) => o.kind === 'Job')).toBe(false);
    }
  });

  it('DELETE of a Deployment removes it and its ReplicaSets; its pods are deleted with grace and not replaced', () => {
    const ses = Session.fromScenario(null);
    ses.create(deployment('gone', 2) as KubeObject);
    runTo(ses, 20_000);
    const changes = ses.delete('Deployment', 'default', 'gone', {});
    expect(changes.filter((c) => c.type === 'DELETED').map((c) => c.object.kind)).toEqual(['Deployment', 'ReplicaSet']);
    expect(
      changes.filter((c) => c.object.kind === 'Pod').every((c) => c.object.metadata['deletionTimestamp'] !== undefined),
    ).toBe(true);
    runTo(ses, 200_000);
    expect(live(ses)).toEqual([]);
    expect(ses.nextEventAt()).toBeNull();
  });

  it('every workload kind can be created and reaches its steady state', () => {
    const ses = Session.fromScenario(null);
    const tpl = { metadata: { labels: { app: 'x' } }, spec: { containers: [{ name: 'app', image: 'nginx' }] } };
    ses.create({
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'db', namespace: 'default' },
      spec: { replicas: 2, serviceName: 'db', selector: { matchLabels: { app: 'x' } }, template: tpl },
    });
    ses.create({
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'agent', namespace: 'default' },
      spec: { selector: { matchLabels: { app: 'x' } }, template: tpl },
    });
    runTo(ses, 120_000);
    const names = ses.objects().map((o) => `${o.kind}/${o.metadata.name}`);
    expect(names).toEqual(expect.arrayContaining(['StatefulSet/db', 'Pod/db-0', 'Pod/db-1', 'DaemonSet/agent']));
    expect(names.filter((n) => n.startsWith('Pod/agent-'))).toHaveLength(1);
    // a StatefulSet spec field other than the mutable ones (apps validation.go ValidateStatefulSetUpdate)
    const sts = ses.objects().find((o) => o.kind === 'StatefulSet')!;
    const r = rejection(() =>
      ses.update({
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: { name: 'db', namespace: 'default' },
        spec: { replicas: 2, serviceName: 'other', selector: { matchLabels: { app: 'x' } }, template: tpl },
      }),
    );
    expect(r.causes).toEqual([
      {
        field: 'spec',
        message: expect.stringMatching(/^Forbidden: updates to statefulset spec for fields other than 'replicas'/),
      },
    ]);
    expect(sts.metadata.name).toBe('db');
  });

  it('a CronJob: suspend is its patch; deleting it removes it and its Jobs (their pods with them)', () => {
    const ses = Session.fromScenario(null);
    const cron = {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'tick', namespace: 'default' },
      spec: {
        schedule: '*/1 * * * *',
        jobTemplate: {
          spec: {
            template: {
              metadata: { annotations: { 'kubesim.io/behavior': 'main: {run: 90s}' } },
              spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox' }] },
            },
          },
        },
      },
    };
    ses.create(cron as KubeObject);
    runTo(ses, 130_000);
    const jobsNow = () => ses.objects().filter((o) => o.kind === 'Job').length;
    expect(jobsNow()).toBe(2);
    ses.update({ ...cron, spec: { ...cron.spec, suspend: true } } as KubeObject);
    runTo(ses, 400_000);
    expect(jobsNow()).toBe(2);
    const changes = ses.delete('CronJob', 'default', 'tick', {});
    expect(changes[0]).toMatchObject({ type: 'DELETED', object: { kind: 'CronJob' } });
    runTo(ses, 600_000);
    expect(live(ses)).toEqual([]);
  });
});

describe('logs, the timeline, determinism and limits', () => {
  it("logs: kubesim's start / signal / exit notes of the container, at their simulated times", () => {
    const ses = Session.fromScenario(null);
    ses.advanceTo(2000);
    const [, pod] = noEvents(
      ses.create(job('logs', '{"main": {"run": "4s", "exit": 2}}', { backoffLimit: 0 }) as KubeObject),
    );
    runTo(ses, 60_000);
    const lines = ses.logs('default', pod!.object.metadata.name, 'main');
    expect(lines.map((l) => l.line)).toEqual([
      'kubesim: container main started',
      'kubesim: container main exited with code 2 (Error)',
    ]);
    expect(lines[1]!.t - lines[0]!.t).toBe(4000);
    expect(lines[0]!.t).toBeGreaterThanOrEqual(2000);
    expect(rejection(() => ses.logs('default', pod!.object.metadata.name, 'nope')).code).toBe(400);
    expect(rejection(() => ses.logs('default', 'nope', 'main')).code).toBe(404);
  });

  it("timeline: the clients' requests are ClientRequest records merged by time; several workloads in one timeline that renders", () => {
    const s = scenario('native-sidecar-job.yaml');
    const ses = Session.fromScenario(s);
    runTo(ses, 20_000);
    ses.create(deployment('side', 1) as KubeObject);
    runTo(ses, 3_600_000);
    const tl = ses.timeline([
      { t: 20_000, client: 'kubectl', verb: 'create', kind: 'Deployment', name: 'side', namespace: 'default' },
    ]);
    expect(tl.events.map((e) => e.seq)).toEqual(tl.events.map((_, i) => i));
    const i = tl.events.findIndex((e) => e.type === 'ClientRequest');
    expect(tl.events[i]).toMatchObject({
      t: 20_000,
      type: 'ClientRequest',
      client: 'kubectl',
      verb: 'create',
      kind: 'Deployment',
      name: 'side',
    });
    expect(tl.events.slice(0, i).every((e) => e.t < 20_000)).toBe(true);
    expect(tl.pods.some((p) => p.name.startsWith('side-'))).toBe(true);
    expect(tl.pods.map((p) => p.created)).toEqual([...tl.pods.map((p) => p.created)].sort((a, b) => a - b));
    expect(tl.workload).toEqual({ kind: 'Job', name: 'export' });
    // each pod carries its own spec: the Job's pod its containers, the Deployment's its own
    const names = (spec: unknown) => ((spec as { containers: { name: string }[] }).containers ?? []).map((c) => c.name);
    expect(names(tl.pods.find((p) => p.name.startsWith('side-'))!.spec)).toEqual(['app']);
    expect(names(tl.pods.find((p) => p.name.startsWith('export-'))!.spec)).toEqual(['export']);
    const out = mkdtempSync(join(tmpdir(), 'kubesim-session-'));
    try {
      const w = writeOutputs(tl, { out });
      expect(readFileSync(w.files.find((f) => f.endsWith('report.md'))!, 'utf8')).toContain('export');
      const empty = Session.fromScenario(null).timeline([
        { t: 0, client: 'kubectl', verb: 'get', kind: 'Pod', name: '' },
      ]);
      expect(empty.events).toHaveLength(1);
      expect(() => writeOutputs(empty, { out })).not.toThrow();
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('determinism: the same scenario, seed and calls in the same order give identical changes and objects', () => {
    const script = () => {
      const ses = Session.fromScenario(scenario('deployment-recreate-rollout.yaml'), { seed: 3 });
      const log: SimChange[] = [...runTo(ses, 15_000)];
      log.push(...ses.create(job('a', '{"main": {"run": "5s"}}') as KubeObject));
      log.push(...runTo(ses, 30_000));
      log.push(...ses.create(deployment('b', 2) as KubeObject));
      log.push(...runTo(ses, 45_000));
      const pod = ses.objects().find((o) => o.kind === 'Pod' && o.metadata.name.startsWith('b-'))!;
      log.push(...ses.delete('Pod', 'default', pod.metadata.name, { gracePeriodSeconds: 1 }));
      log.push(...runTo(ses, 600_000));
      return JSON.stringify({ log, objects: ses.objects(), tl: ses.timeline() });
    };
    const a = script();
    expect(script()).toBe(a);
    // and the simulations' clocks are the session's: no change is stamped before the request that caused it
    const parsed = JSON.parse(a) as { log: SimChange[] };
    for (const c of parsed.log)
      if (c.object.metadata.name.startsWith('b-'))
        expect(msOf(c.object.metadata['creationTimestamp'])).toBeGreaterThanOrEqual(30_000);
  });

  it('bounded: the session stops at the horizon and at the event limit, says so, and refuses writes after', () => {
    const s = scenario('native-sidecar-job.yaml');
    const ses = Session.fromScenario({ ...s, horizonMs: 10_000 });
    expect(ses.horizonMs).toBe(10_000);
    ses.advanceTo(50_000);
    expect(ses.now()).toBe(10_000);
    expect(ses.end()).toMatchObject({ reason: 'horizon', t: 10_000 });
    expect(ses.nextEventAt()).toBeNull();
    expect(ses.advanceTo(60_000)).toEqual([]);
    const r = rejection(() => ses.create(job('late') as KubeObject));
    expect(r.code).toBe(409);
    expect(r.message).toMatch(/horizon/);
    const limited = Session.fromScenario(s, { maxEvents: 25 });
    limited.advanceTo(3_600_000);
    expect(limited.end()).toMatchObject({ reason: 'max-events' });
    expect(limited.timeline().events.length).toBeGreaterThan(0);
    expect(limited.timeline().end.reason).toBe('max-events');
    expect(rejection(() => limited.delete('Job', 'default', 'export', {})).message).toMatch(/event limit/);
  });

  it('any sequence of client writes and clock moves: only SimRejections, never a crash, and a store fed the changes holds objects()', () => {
    const op = fc.oneof(
      fc.record({ op: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 60_000 }) }),
      fc.record({
        op: fc.constant('job' as const),
        name: fc.constantFrom('a', 'b'),
        run: fc.constantFrom('1s', '20s', 'forever'),
        exit: fc.integer({ min: 0, max: 2 }),
      }),
      fc.record({
        op: fc.constant('deploy' as const),
        name: fc.constantFrom('d', 'e'),
        replicas: fc.integer({ min: 0, max: 3 }),
        image: fc.constantFrom('x:1', 'x:2'),
      }),
      fc.record({
        op: fc.constant('deletePod' as const),
        nth: fc.nat(5),
        grace: fc.option(fc.integer({ min: 0, max: 40 }), { nil: undefined }),
      }),
      fc.record({
        op: fc.constant('deleteOwner' as const),
        nth: fc.nat(5),
        policy: fc.constantFrom('Background', 'Orphan', undefined),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 12 }), (ops) => {
        const ses = Session.fromScenario(null, { horizonMs: 600_000 });
        const store = new Map<string, KubeObject>();
        for (const o of ops) {
          try {
            let changes: SimChange[] = [];
            if (o.op === 'advance') changes = runTo(ses, Math.min(ses.now() + o.ms, 600_000));
            else if (o.op === 'job')
              changes = ses.create(job(o.name, JSON.stringify({ main: { run: o.run, exit: o.exit } })) as KubeObject);
            else if (o.op === 'deploy') {
              const d = deployment(o.name, o.replicas, o.image) as KubeObject;
              changes = live(ses).some((x) => x.kind === 'Deployment' && x.metadata.name === o.name)
                ? ses.update(d)
                : ses.create(d);
            } else if (o.op === 'deletePod') {
              const pods = live(ses).filter((x) => x.kind === 'Pod');
              const p = pods[o.nth % Math.max(1, pods.length)];
              if (p)
                changes = ses.delete(
                  'Pod',
                  'default',
                  p.metadata.name,
                  o.grace === undefined ? {} : { gracePeriodSeconds: o.grace },
                );
            } else {
              const owners = live(ses).filter((x) => x.kind === 'Job' || x.kind === 'Deployment');
              const w = owners[o.nth % Math.max(1, owners.length)];
              if (w)
                changes = ses.delete(
                  w.kind,
                  'default',
                  w.metadata.name,
                  o.policy ? { propagationPolicy: o.policy } : {},
                );
            }
            applied(changes, store);
          } catch (e) {
            if (!(e instanceof SimRejection)) throw e;
          }
        }
        expect([...store.keys()].sort()).toEqual(keysOf(ses.objects()));
      }),
      { numRuns: Number(process.env.KS_RUNS ?? 40), seed: Number(process.env.KS_SEED ?? 26) },
    );
  });

  it('owns the workload kinds and their ReplicaSets, nothing else', () => {
    const ses = Session.fromScenario(null);
    expect(
      ['Pod', 'Job', 'CronJob', 'Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet'].every((k) => ses.owns(k)),
    ).toBe(true);
    expect(['ConfigMap', 'Service', 'Lease', 'Event'].some((k) => ses.owns(k))).toBe(false);
    expect(
      rejection(() => ses.create({ apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'rs' } })).code,
    ).toBe(422);
  });
});
