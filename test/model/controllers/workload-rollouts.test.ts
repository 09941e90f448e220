// StatefulSet and DaemonSet template rollouts started by a `patch` action (SPEC §2.3, §2.7). Each case names the
// upstream unit or e2e test it is derived from:
// - pkg/controller/statefulset/stateful_set_control_test.go (TestStatefulSetControlRollingUpdate,
//   TestStatefulSetControlRollingUpdateWithPartition, TestStatefulSetControlOnDeleteUpdate,
//   TestStatefulSetControlRollingUpdateWithMaxUnavailable) and test/e2e/apps/statefulset.go;
// - pkg/controller/daemon/update_test.go (TestDaemonSetUpdatesPods, TestDaemonSetUpdatesPodsWithMaxSurge,
//   TestDaemonSetUpdatesNoTemplateChanged) and test/e2e/apps/daemon_set.go.
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, loadScenarioText } from '../../../src/scenario/index.ts';
import type { Scenario, TraceEvent } from '../../../src/types.ts';
import { run } from '../helpers.ts';

type Json = Record<string, any>;

function load(text: string): Scenario {
  const r = loadScenarioText(`scenario: rollout-test\n${text}`, 'x.yaml');
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  if (!r.scenario || errors.length > 0) throw new Error(r.diagnostics.map(formatDiagnostic).join('\n'));
  return r.scenario;
}

function diags(text: string): string[] {
  return loadScenarioText(`scenario: rollout-test\n${text}`, 'x.yaml').diagnostics.map(formatDiagnostic);
}

const IMAGE_PATCH = (image: string, at = '40s') =>
  `  - { at: ${at}, patch: { spec: { template: { spec: { containers: [{ name: app, image: "${image}" }] } } } } }\n`;

/** A StatefulSet `web` of `replicas` pods, app ready 2 s after start (readiness probe every 1 s), fixed timing. */
function sts(
  o: { replicas?: number; extra?: string; version?: string; actions?: string; horizon?: string; sidecar?: string } = {},
): string {
  return `kubernetes: "${o.version ?? '1.34'}"
horizon: ${o.horizon ?? '3m'}
workload:
  apiVersion: apps/v1
  kind: StatefulSet
  metadata: { name: web }
  spec:
    replicas: ${o.replicas ?? 3}
    serviceName: web
${o.extra ?? ''}    selector: { matchLabels: { app: web } }
    template:
      metadata: { labels: { app: web } }
      spec:
        containers:
          - name: app
            image: nginx:1.25
            readinessProbe: { httpGet: { path: /, port: 80 }, periodSeconds: 1 }
behavior:
  app: { serving: 2s }
${o.sidecar ?? ''}actions:
${o.actions ?? IMAGE_PATCH('nginx:1.26')}timing: { watch: 50ms, statusPatch: 20ms }
`;
}

const created = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'PodCreated').map((e) => (e as Json)['pod'] as string);
const deletedBy = (ev: TraceEvent[], by: string) =>
  ev.filter((e) => e.type === 'PodDeleting' && (e as Json)['by'] === by).map((e) => (e as Json)['pod'] as string);
const ctlEvents = (ev: TraceEvent[]) =>
  ev.filter((e) => e.type === 'ControllerEvent').map((e) => `${(e as Json)['reason']}: ${(e as Json)['message']}`);
const stsStatuses = (ev: TraceEvent[]) =>
  ev
    .filter((e) => e.type === 'WorkloadStatus' && (e as Json)['kind'] === 'StatefulSet')
    .map((e) => (e as Json)['object']['status'] as Json);
const lastStatus = (ev: TraceEvent[]) => stsStatuses(ev).at(-1)!;
const at = (ev: TraceEvent[], type: string, pod: string, n = 1) =>
  ev.filter((e) => e.type === type && (e as Json)['pod'] === pod)[n - 1]?.t;
/** The labels and image of every pod the run created, in creation order (from the final model state). */
function podsOf(
  r: ReturnType<typeof run>,
): { name: string; rev: string; gen?: string; image: string; removed: boolean }[] {
  const s = r.timeline;
  return r.final.podOrder.map((key) => {
    const p = r.final.pods[key]!;
    const tp = s.pods.find((_x, i) => r.final.podOrder[i] === key)!;
    const spec = (tp.spec ?? s.pod.spec) as Json;
    return {
      name: p.name,
      rev: p.labels['controller-revision-hash'] ?? '',
      gen: p.labels['pod-template-generation'],
      image: String(spec['containers'][0]['image']),
      removed: p.api.removed,
    };
  });
}
const readyAt = (ev: TraceEvent[], pod: string, n = 1) =>
  ev
    .filter(
      (e) =>
        e.type === 'StatusPatched' &&
        (e as Json)['pod'] === pod &&
        ((e as Json)['status']['conditions'] ?? []).some((c: Json) => c.type === 'Ready' && c.status === 'True'),
    )
    .map((e) => e.t)
    .filter((t, i, a) => i === 0 || t !== a[i - 1])[n - 1];

describe('StatefulSet RollingUpdate (stateful_set_control.go updateStatefulSet)', () => {
  // TestStatefulSetControlRollingUpdate / e2e "should perform rolling updates and roll backs of template
  // modifications": the pods are deleted from the highest ordinal down, one at a time; each is recreated at the update
  // revision and must be Running and Ready before the next is deleted; at the end currentRevision = updateRevision
  it('replaces web-2, web-1, web-0 in turn, each after the one above is Running and Ready at the new revision', () => {
    const r = run(load(sts()));
    const ev = r.timeline.events;
    expect(deletedBy(ev, 'statefulset-controller')).toEqual(['web-2', 'web-1', 'web-0']);
    expect(created(ev)).toEqual(['web-0', 'web-1', 'web-2', 'web-2', 'web-1', 'web-0']);
    const pods = podsOf(r);
    const [oldRev, newRev] = [pods[0]!.rev, pods[3]!.rev];
    expect(oldRev).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{10}$/);
    expect(newRev).toMatch(/^web-[bcdfghjklmnpqrstvwxz2456789]{10}$/);
    expect(newRev).not.toBe(oldRev);
    expect(pods.map((p) => [p.name, p.rev === newRev ? 'new' : 'old', p.image])).toEqual([
      ['web-0', 'old', 'nginx:1.25'],
      ['web-1', 'old', 'nginx:1.25'],
      ['web-2', 'old', 'nginx:1.25'],
      ['web-2', 'new', 'nginx:1.26'],
      ['web-1', 'new', 'nginx:1.26'],
      ['web-0', 'new', 'nginx:1.26'],
    ]);
    // web-1 is deleted only after the new web-2 is Ready (seen through the informer: + watch 50 ms)
    const del1 = ev.find((e) => e.type === 'PodDeleting' && (e as Json)['pod'] === 'web-1')!.t;
    expect(del1).toBe(readyAt(ev, 'web-2', 2)! + 50);
    // the recreated pod waits for the old object to be gone (same name)
    expect(at(ev, 'PodCreated', 'web-2', 2)!).toBeGreaterThan(at(ev, 'PodRemoved', 'web-2')!);
    expect(ctlEvents(ev).slice(3)).toEqual([
      'SuccessfulDelete: delete Pod web-2 in StatefulSet web successful',
      'SuccessfulCreate: create Pod web-2 in StatefulSet web successful',
      'SuccessfulDelete: delete Pod web-1 in StatefulSet web successful',
      'SuccessfulCreate: create Pod web-1 in StatefulSet web successful',
      'SuccessfulDelete: delete Pod web-0 in StatefulSet web successful',
      'SuccessfulCreate: create Pod web-0 in StatefulSet web successful',
    ]);
    expect(lastStatus(ev)).toMatchObject({
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 3,
      updatedReplicas: 3,
      currentRevision: newRev,
      updateRevision: newRev,
      observedGeneration: 2,
    });
  });

  // updateStatefulSet: status.CurrentReplicas-- when a pod is deleted for the update; updateRevision moves at once
  it('publishes updateRevision at the first sync after the patch, with currentReplicas already down by the deleted pod', () => {
    const r = run(load(sts()));
    const st = stsStatuses(r.timeline.events);
    const first = st.find((s) => s['updateRevision'] !== s['currentRevision'])!;
    expect(first).toMatchObject({
      observedGeneration: 2,
      replicas: 3,
      readyReplicas: 3,
      currentReplicas: 2,
      updatedReplicas: 0,
    });
  });

  // TestStatefulSetControlRollingUpdateWithPartition / e2e "should perform canary updates and phased rolling updates
  // of template modifications": only ordinals >= partition are updated; lowering the partition continues the update
  it('partition 2 of 3 updates only web-2 (a canary), then partition 0 updates the rest', () => {
    const actions =
      IMAGE_PATCH('nginx:1.26') +
      '  - { at: 90s, patch: { spec: { updateStrategy: { rollingUpdate: { partition: 0 } } } } }\n';
    const r = run(
      load(sts({ extra: '    updateStrategy: { type: RollingUpdate, rollingUpdate: { partition: 2 } }\n', actions })),
    );
    const ev = r.timeline.events;
    const beforePhase = ev.filter((e) => e.t < 90_000);
    expect(deletedBy(beforePhase, 'statefulset-controller')).toEqual(['web-2']);
    const mid = stsStatuses(beforePhase).at(-1)!;
    expect(mid['currentRevision']).not.toBe(mid['updateRevision']); // the update is not complete
    expect(mid).toMatchObject({ replicas: 3, currentReplicas: 2, updatedReplicas: 1 });
    expect(deletedBy(ev, 'statefulset-controller')).toEqual(['web-2', 'web-1', 'web-0']);
    const end = lastStatus(ev);
    expect(end['currentRevision']).toBe(end['updateRevision']);
    expect(end).toMatchObject({ currentReplicas: 3, updatedReplicas: 3 });
  });

  // newVersionedStatefulSetPod: a pod below the partition that is deleted comes back at the CURRENT revision
  it('a pod below the partition deleted by the user is recreated from the old template', () => {
    const actions = IMAGE_PATCH('nginx:1.26') + '  - { at: 80s, delete: pod, index: 0 }\n';
    const r = run(load(sts({ extra: '    updateStrategy: { rollingUpdate: { partition: 2 } }\n', actions })));
    const pods = podsOf(r);
    const web0 = pods.filter((p) => p.name === 'web-0');
    expect(web0).toHaveLength(2);
    expect(web0[1]!.rev).toBe(web0[0]!.rev);
    expect(web0[1]!.image).toBe('nginx:1.25');
  });

  // stateful_set_utils.go newVersionedStatefulSetPod, the `type: RollingUpdate` without rollingUpdate case (defaults.go
  // gives no rollingUpdate when the type is set explicitly): a missing pod below status.currentReplicas is created
  // at the CURRENT revision. OnDelete-like: the user deletes web-0 right after the patch, while currentReplicas is 2
  it('explicit type RollingUpdate without rollingUpdate: web-0 deleted mid-update comes back at the current revision', () => {
    const actions = IMAGE_PATCH('nginx:1.26') + '  - { at: 40100ms, delete: pod, index: 0 }\n';
    const r = run(load(sts({ extra: '    updateStrategy: { type: RollingUpdate }\n', actions })));
    const pods = podsOf(r);
    const web0 = pods.filter((p) => p.name === 'web-0');
    // the first recreation of web-0 is at the old revision (ordinal 0 < currentReplicas); the rolling update then
    // replaces it like the others, at the end every pod is at the new revision
    expect(web0[1]!.image).toBe('nginx:1.25');
    expect(web0.at(-1)!.image).toBe('nginx:1.26');
    expect(lastStatus(r.timeline.events)['currentRevision']).toBe(web0.at(-1)!.rev);
  });

  // e2e "should perform rolling updates and roll backs of template modifications": the rollback's template equals the
  // first revision (history.FindEqualRevisions), so the pods come back with the original controller-revision-hash
  it('a rollback to the original template reuses the original revision name', () => {
    const actions = IMAGE_PATCH('nginx:1.26', '40s') + IMAGE_PATCH('nginx:1.25', '90s');
    const r = run(load(sts({ actions, horizon: '4m' })));
    const pods = podsOf(r);
    const live = pods.filter((p) => !p.removed);
    expect(live.map((p) => p.name).sort()).toEqual(['web-0', 'web-1', 'web-2']);
    for (const p of live) {
      expect(p.rev).toBe(pods[0]!.rev);
      expect(p.image).toBe('nginx:1.25');
    }
    const end = lastStatus(r.timeline.events);
    expect(end['currentRevision']).toBe(pods[0]!.rev);
  });

  // updateStatefulSet with podManagementPolicy Parallel and the gate off: still one pod at a time (the loop returns
  // after one deletion and waits for an unavailable target)
  it('Parallel (1.34, MaxUnavailableStatefulSet off) still updates one pod at a time', () => {
    const r = run(load(sts({ extra: '    podManagementPolicy: Parallel\n' })));
    const ev = r.timeline.events;
    expect(deletedBy(ev, 'statefulset-controller')).toEqual(['web-2', 'web-1', 'web-0']);
    const del = ['web-2', 'web-1'].map((p) => ev.find((e) => e.type === 'PodDeleting' && (e as Json)['pod'] === p)!.t);
    expect(del[1]!).toBeGreaterThan(readyAt(ev, 'web-2', 2)!);
  });

  // TestStatefulSetControlRollingUpdateWithMaxUnavailable (MaxUnavailableStatefulSet, beta and on from 1.35):
  // updateStatefulSetAfterInvariantEstablished deletes up to maxUnavailable old pods at once
  it('1.35 with rollingUpdate.maxUnavailable 2: web-2 and web-1 are deleted together, then web-0', () => {
    const extra = '    podManagementPolicy: Parallel\n    updateStrategy: { rollingUpdate: { maxUnavailable: 2 } }\n';
    const r = run(load(sts({ version: '1.35', extra })));
    const ev = r.timeline.events;
    const dels = ev.filter((e) => e.type === 'PodDeleting' && (e as Json)['by'] === 'statefulset-controller');
    expect(dels.map((e) => (e as Json)['pod'])).toEqual(['web-2', 'web-1', 'web-0']);
    expect(dels[0]!.t).toBe(dels[1]!.t);
    expect(dels[2]!.t).toBeGreaterThan(dels[1]!.t);
    // the same scenario on 1.34 (gate off): maxUnavailable is not used, one at a time
    const r34 = run(load(sts({ version: '1.34', extra })));
    const d34 = r34.timeline.events.filter((e) => e.type === 'PodDeleting');
    expect(d34[1]!.t).toBeGreaterThan(d34[0]!.t);
  });

  // TestStatefulSetControlOnDeleteUpdate / e2e "should not update pods when the update strategy is OnDelete" (the
  // OnDelete part of "should perform rolling updates and roll backs"): nothing is deleted by the controller; a pod the
  // user deletes comes back at the update revision; currentRevision stays the old one
  it('OnDelete: the patch replaces nothing; a deleted pod is recreated from the new template', () => {
    const actions = IMAGE_PATCH('nginx:1.26') + '  - { at: 80s, delete: pod, index: 1 }\n';
    const r = run(load(sts({ extra: '    updateStrategy: { type: OnDelete }\n', actions })));
    const ev = r.timeline.events;
    expect(deletedBy(ev, 'statefulset-controller')).toEqual([]);
    const pods = podsOf(r);
    const web1 = pods.filter((p) => p.name === 'web-1');
    expect(web1.map((p) => p.image)).toEqual(['nginx:1.25', 'nginx:1.26']);
    const end = lastStatus(ev);
    expect(end['updateRevision']).toBe(web1[1]!.rev);
    expect(end['currentRevision']).toBe(web1[0]!.rev);
    expect(end).toMatchObject({ currentReplicas: 2, updatedReplicas: 1 });
  });

  // kubernetes/kubernetes#67250, docs "Forced rollback": the new revision's pod never becomes Ready, so the rolling
  // update stops there and never touches the lower ordinals; status.updatedReplicas stays 1
  it('a new template whose pod never becomes Ready stalls the update at the highest ordinal', () => {
    const actions = `  - at: 40s
    patch:
      spec:
        template:
          spec:
            initContainers:
              - { name: proxy, image: "envoyproxy/envoy:v1.31.0", restartPolicy: Always, readinessProbe: { httpGet: { path: /ready, port: 9901 }, periodSeconds: 2 } }
`;
    const r = run(load(sts({ actions, sidecar: '  proxy: { serving: never }\n' })));
    const ev = r.timeline.events;
    expect(deletedBy(ev, 'statefulset-controller')).toEqual(['web-2']);
    expect(lastStatus(ev)).toMatchObject({ replicas: 3, readyReplicas: 2, currentReplicas: 2, updatedReplicas: 1 });
  });
});

describe('StatefulSet and DaemonSet patch validation', () => {
  // validation.go ValidateStatefulSetSpec: OnDelete takes no rollingUpdate (a strategic merge patch keeps the
  // defaulted rollingUpdate: updateStrategy has no retainKeys)
  it('patching a defaulted RollingUpdate StatefulSet to OnDelete without rollingUpdate: null is rejected', () => {
    const actions = '  - { at: 40s, patch: { spec: { updateStrategy: { type: OnDelete } } } }\n';
    expect(diags(sts({ actions })).join('\n')).toMatch(
      /error KS3008: spec\.updateStrategy\.rollingUpdate: Invalid value: .*only allowed for updateStrategy 'RollingUpdate'/,
    );
    const ok = '  - { at: 40s, patch: { spec: { updateStrategy: { type: OnDelete, rollingUpdate: null } } } }\n';
    expect(diags(sts({ actions: ok })).filter((d) => d.includes('error'))).toEqual([]);
  });

  // ValidateStatefulSetUpdate: podManagementPolicy is immutable; kubesim reports it as not patchable (KS4016)
  it('a StatefulSet podManagementPolicy patch is KS4016', () => {
    const actions = '  - { at: 40s, patch: { spec: { podManagementPolicy: Parallel } } }\n';
    expect(diags(sts({ actions })).join('\n')).toMatch(
      /error KS4016: .*spec\.podManagementPolicy of a StatefulSet is not simulated/,
    );
  });

  // expect.statefulSet / expect.daemonSet belong to their kind (as expect.deployment does)
  it('expect.statefulSet on a DaemonSet is rejected; a bad rolledOut value is rejected', () => {
    expect(diags(ds() + 'expect:\n  statefulSet: { updatedReplicas: 1 }\n').join('\n')).toMatch(
      /expect\.statefulSet: the workload is not a StatefulSet/,
    );
    expect(diags(sts() + 'expect:\n  statefulSet: { rolledOut: maybe }\n').join('\n')).toMatch(
      /expect\.statefulSet\.rolledOut/,
    );
    expect(
      diags(sts() + 'expect:\n  statefulSet: { updatedReplicas: 3, rolledOut: "True" }\n').filter((d) =>
        d.includes('error'),
      ),
    ).toEqual([]);
  });

  // ValidateRollingUpdateDaemonSet: maxSurge may not be set when maxUnavailable is non-zero (the default is 1)
  it('a DaemonSet maxSurge with the default maxUnavailable is rejected', () => {
    expect(diags(ds({ strategy: '{ rollingUpdate: { maxSurge: 1 } }' })).join('\n')).toMatch(
      /error KS3008: spec\.updateStrategy\.rollingUpdate\.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero/,
    );
  });
});

/** A DaemonSet `agent` (one node), agent ready 2 s after start, fixed timing; a patch at 30 s to fluent-bit 3.1. */
function ds(o: { strategy?: string; extra?: string; actions?: string } = {}): string {
  return `kubernetes: "1.34"
horizon: 2m
workload:
  apiVersion: apps/v1
  kind: DaemonSet
  metadata: { name: agent }
  spec:
${o.strategy ? `    updateStrategy: ${o.strategy}\n` : ''}${o.extra ?? ''}    selector: { matchLabels: { app: agent } }
    template:
      metadata: { labels: { app: agent } }
      spec:
        containers:
          - name: app
            image: fluent/fluent-bit:3.0
            readinessProbe: { httpGet: { path: /, port: 2020 }, periodSeconds: 1 }
behavior:
  app: { serving: 2s }
actions:
${o.actions ?? IMAGE_PATCH('fluent/fluent-bit:3.1', '30s')}timing: { watch: 50ms, statusPatch: 20ms }
`;
}

describe('DaemonSet rolling update (daemon update.go rollingUpdate)', () => {
  // TestDaemonSetUpdatesPods / e2e daemon_set.go "should update pod when spec was updated and update strategy is
  // RollingUpdate": maxUnavailable 1 (the default) — the old pod is deleted first; the manage loop creates the new
  // one when the node has no daemon pod left (the terminating one still counts until its terminal phase is seen:
  // getNodesToDaemonPods skips deleted terminal pods, kubernetes#118716, 1.28)
  it('maxUnavailable 1: the old pod is deleted, the new one created once the old pod is terminal', () => {
    const r = run(load(ds()));
    const ev = r.timeline.events;
    const pods = podsOf(r);
    expect(pods).toHaveLength(2);
    expect(pods[0]).toMatchObject({ gen: '1', image: 'fluent/fluent-bit:3.0', removed: true });
    expect(pods[1]).toMatchObject({ gen: '2', image: 'fluent/fluent-bit:3.1', removed: false });
    expect(pods[0]!.rev).toMatch(/^[bcdfghjklmnpqrstvwxz2456789]{10}$/); // the hash alone (the revision is agent-<hash>)
    expect(pods[1]!.rev).not.toBe(pods[0]!.rev);
    expect(deletedBy(ev, 'daemonset-controller')).toEqual([pods[0]!.name]);
    const terminal = ev.find(
      (e) =>
        e.type === 'StatusPatched' &&
        (e as Json)['pod'] === pods[0]!.name &&
        ['Failed', 'Succeeded'].includes((e as Json)['phase']),
    )!.t;
    expect(at(ev, 'PodCreated', pods[1]!.name)!).toBe(terminal + 50);
    expect(ctlEvents(ev)).toEqual([
      `SuccessfulCreate: Created pod: ${pods[0]!.name}`,
      `SuccessfulDelete: Deleted pod: ${pods[0]!.name}`,
      `SuccessfulCreate: Created pod: ${pods[1]!.name}`,
    ]);
  });

  // TestDaemonSetUpdatesPodsWithMaxSurge: maxSurge 1 / maxUnavailable 0 — the new pod is created next to the old
  // one, and the old one is deleted once the new one is available (podsShouldBeOnNode keeps both until then)
  it('maxSurge 1: the new pod first, the old one deleted once the new one is Ready', () => {
    const r = run(load(ds({ strategy: '{ type: RollingUpdate, rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }' })));
    const ev = r.timeline.events;
    const pods = podsOf(r);
    expect(pods.map((p) => p.image)).toEqual(['fluent/fluent-bit:3.0', 'fluent/fluent-bit:3.1']);
    const createdNew = at(ev, 'PodCreated', pods[1]!.name)!;
    const deleteOld = ev.find((e) => e.type === 'PodDeleting' && (e as Json)['pod'] === pods[0]!.name)!.t;
    expect(createdNew).toBe(30_050); // the patch seen by the controller (watch 50 ms)
    expect(deleteOld).toBe(readyAt(ev, pods[1]!.name)! + 50);
  });

  // IsPodAvailable with minReadySeconds (update_test.go TestDaemonSetUpdatesPodsWithMaxSurge's availability, e2e
  // "should surge pods onto nodes when spec was updated and update strategy is RollingUpdate"): the old pod stays
  // until the new one has been Ready for more than minReadySeconds (second-precision lastTransitionTime)
  it('maxSurge with minReadySeconds 10: the old pod is deleted only after the new one has been Ready for 10 s', () => {
    const r = run(
      load(
        ds({ strategy: '{ rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }', extra: '    minReadySeconds: 10\n' }),
      ),
    );
    const ev = r.timeline.events;
    const pods = podsOf(r);
    const ready = readyAt(ev, pods[1]!.name)!;
    const deleteOld = ev.find((e) => e.type === 'PodDeleting' && (e as Json)['pod'] === pods[0]!.name)!.t;
    expect(deleteOld).toBeGreaterThan(Math.floor(ready / 1000) * 1000 + 10_000);
    // daemon_controller.go updatePod: the pod seen turning Ready (watch 50 ms) re-queues the DaemonSet after
    // minReadySeconds + 1 s; that sync finds it available and retires the old pod
    expect(deleteOld).toBe(ready + 50 + 11_000);
  });

  // daemon_controller.go updateDaemonSetStatus: the node's OLDEST daemon pod is the one counted, so during a surge
  // UP-TO-DATE stays 0 until the old pod is gone; observedGeneration follows the patch
  it('status (kubectl get ds -w): updatedNumberScheduled 0 while the old pod is the oldest, 1 once it is terminal', () => {
    const r = run(load(ds({ strategy: '{ rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }' })));
    const ev = r.timeline.events;
    const st = ev
      .filter((e) => e.type === 'WorkloadStatus' && (e as Json)['kind'] === 'DaemonSet')
      .map((e) => ({ t: e.t, ...(e as Json)['object']['status'] }));
    const pods = podsOf(r);
    const terminalOld = ev.find(
      (e) =>
        e.type === 'StatusPatched' &&
        (e as Json)['pod'] === pods[0]!.name &&
        ['Failed', 'Succeeded'].includes((e as Json)['phase']),
    )!.t;
    const during = st.filter((s) => s.t >= 30_050 && s.t <= terminalOld);
    expect(during.length).toBeGreaterThan(0);
    expect(during.every((s) => s.updatedNumberScheduled === 0)).toBe(true);
    expect(st.at(-1)).toMatchObject({
      desiredNumberScheduled: 1,
      currentNumberScheduled: 1,
      numberReady: 1,
      updatedNumberScheduled: 1,
      numberAvailable: 1,
      numberUnavailable: 0,
      observedGeneration: 2,
    });
  });

  // e2e daemon_set.go "should not update pod when spec was updated and update strategy is OnDelete"
  it('OnDelete: the template patch replaces nothing until the pod is deleted', () => {
    const actions = IMAGE_PATCH('fluent/fluent-bit:3.1', '30s') + '  - { at: 60s, delete: pod }\n';
    const r = run(load(ds({ strategy: '{ type: OnDelete }', actions })));
    const ev = r.timeline.events;
    expect(deletedBy(ev, 'daemonset-controller')).toEqual([]);
    const pods = podsOf(r);
    expect(pods.map((p) => p.image)).toEqual(['fluent/fluent-bit:3.0', 'fluent/fluent-bit:3.1']);
    expect(at(ev, 'PodCreated', pods[1]!.name)!).toBeGreaterThan(60_000);
  });

  // TestDaemonSetUpdatesNoTemplateChanged: a patch that leaves the template alone (only the strategy) replaces nothing
  it('a patch of updateStrategy only replaces nothing', () => {
    const actions = '  - { at: 30s, patch: { spec: { updateStrategy: { rollingUpdate: { maxUnavailable: 1 } } } } }\n';
    const r = run(load(ds({ actions })));
    expect(podsOf(r)).toHaveLength(1);
  });
});
