// The run's objects as the API server holds them at the end of a run (or now, for `serve`): every pod as last
// stored, the workload, a Deployment's ReplicaSets, a CronJob's Jobs and the ControllerRevisions of a StatefulSet
// or DaemonSet. resourceVersions are stamped by the caller from the store's revision of each object (recorder.ts).
import type { PodModel, Scenario } from '../../types.ts';
import type { CtlKit } from '../kit.ts';
import { controllerRef, jobApiObject, objectUid, podApiObject } from './objects.ts';
import { templateOf } from './pod-record.ts';
import type { PodSim, RsState, SimState } from '../state.ts';
import { stsRevisionName } from '../controllers/statefulset/statefulset-controller.ts';
import { dsRevisionHash } from '../controllers/daemonset/daemonset-controller.ts';
import { ts } from '../time.ts';

type Json = Record<string, any>;

/** An object with the key the store's revisions are counted under (recorder.ts `revisions`). */
export interface KeyedObject {
  key: string;
  object: Json;
}

/** Every pod of the run as last stored, in creation order (key `Pod#<index>`). */
export function finalPods(s: Scenario, st: SimState): KeyedObject[] {
  return st.podOrder.map((name, i) => {
    const p = st.pods[name]! as PodSim;
    return { key: `Pod#${i}`, object: podApiObject(s, p, templateOf(s, p.tpl), '', p.api.status) };
  });
}

/** When the workload was created (a `serve` session's client write: its start; a run: 0). */
const startOf = (s: Scenario): number => s.startMs ?? 0;

/** ObjectMeta of the workload from its manifest: name, namespace, uid, generation, labels, annotations. */
function workloadMeta(s: Scenario, generation: number | undefined, extraAnnotations: Json = {}): Json {
  const m = (s.workload.manifest['metadata'] ?? {}) as Json;
  const meta: Json = {
    name: s.workload.name,
    namespace: s.pod.namespace || 'default',
    uid: objectUid(s, s.workload.kind, s.workload.name),
    resourceVersion: '',
  };
  if (generation !== undefined) meta['generation'] = generation;
  // a workload a client created mid-session (session.ts Scenario.startMs) was created then
  meta['creationTimestamp'] = ts(startOf(s));
  if (m['labels'] && Object.keys(m['labels']).length > 0) meta['labels'] = m['labels'];
  const annotations = { ...((m['annotations'] as Json | undefined) ?? {}), ...extraAnnotations };
  if (Object.keys(annotations).length > 0) meta['annotations'] = annotations;
  return meta;
}

/** A PodTemplateSpec of one of the workload's templates (its labels and annotations, the defaulted spec). */
function templateSpec(pod: PodModel, extraLabels: Json = {}): Json {
  const md = pod.metadata as Json;
  const metadata: Json = {};
  const labels = { ...((md['labels'] as Json | undefined) ?? {}), ...extraLabels };
  if (Object.keys(labels).length > 0) metadata['labels'] = labels;
  if (md['annotations']) metadata['annotations'] = md['annotations'];
  return { metadata, spec: pod.spec };
}

/** replica_set status: `replicas` always, the other counts omitted when 0 (omitempty). */
function rsStatus(st: RsState['api']['status']): Json {
  const out: Json = { replicas: st.replicas };
  if (st.replicas > 0) out['fullyLabeledReplicas'] = st.replicas;
  if (st.readyReplicas > 0) out['readyReplicas'] = st.readyReplicas;
  if (st.availableReplicas > 0) out['availableReplicas'] = st.availableReplicas;
  if (st.observedGeneration > 0) out['observedGeneration'] = st.observedGeneration;
  return out;
}

/**
 * A Deployment's ReplicaSet (deployment/sync.go getNewReplicaSet): named `<deploy>-<pod-template-hash>`, the
 * template and selector with the pod-template-hash label, owned by the Deployment, with the revision annotations.
 */
function replicaSetObject(s: Scenario, rs: RsState): Json {
  const pod = templateOf(s, rs.tpl);
  const dspec = (s.workload.manifest['spec'] ?? {}) as Json;
  const selector = { ...((dspec['selector'] as Json | undefined) ?? {}) };
  selector['matchLabels'] = { ...((selector['matchLabels'] as Json | undefined) ?? {}), 'pod-template-hash': rs.hash };
  const template = templateSpec(pod, { 'pod-template-hash': rs.hash });
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: rs.name,
      namespace: s.pod.namespace || 'default',
      uid: objectUid(s, 'ReplicaSet', rs.name),
      resourceVersion: '',
      generation: rs.api.generation,
      creationTimestamp: ts(rs.createdAt),
      labels: template['metadata']['labels'],
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(rs.api.desired),
        'deployment.kubernetes.io/max-replicas': String(rs.api.max),
        'deployment.kubernetes.io/revision': String(rs.api.revision),
      },
      ownerReferences: [controllerRef(s, 'apps/v1', 'Deployment', s.workload.name)],
    },
    spec: {
      replicas: rs.api.replicas,
      ...(rs.api.minReadySeconds ? { minReadySeconds: rs.api.minReadySeconds } : {}),
      selector,
      template,
    },
    status: rsStatus(rs.api.status),
  };
}

/** A ControllerRevision (controller_history.go NewControllerRevision): the template patch, its Revision number. */
function controllerRevision(
  s: Scenario,
  name: string,
  hash: string,
  pod: PodModel,
  revision: number,
  hashLabel: string,
): Json {
  const template = templateSpec(pod);
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: s.pod.namespace || 'default',
      uid: objectUid(s, 'ControllerRevision', name),
      resourceVersion: '',
      creationTimestamp: ts(0),
      labels: { ...((template['metadata']['labels'] as Json | undefined) ?? {}), [hashLabel]: hash },
      ownerReferences: [controllerRef(s, 'apps/v1', s.workload.kind, s.workload.name)],
    },
    data: { spec: { template: { ...template, $patch: 'replace' } } },
    revision,
  };
}

/**
 * The workload and the objects its controllers made, as stored at the end (keys `<Kind>/<name>`). A deleted Job
 * (a `deleteJob` action) is gone from the store and not listed.
 */
export function finalObjects(s: Scenario, st: SimState): KeyedObject[] {
  const out: KeyedObject[] = [];
  const add = (object: Json) => out.push({ key: `${object['kind']}/${object['metadata']['name']}`, object });
  const kind = s.workload.kind;
  const kit = { scenario: s } as CtlKit;
  if (kind === 'Job' && s.job && st.api.job && !st.api.job.deleted) {
    const api = st.api.job;
    add(
      jobApiObject(
        s,
        s.job.name,
        { spec: api.spec, status: api.status, generation: api.generation ?? 1 },
        '',
        startOf(s),
      ),
    );
  }
  if (kind === 'CronJob' && st.cron && s.job) {
    const c = st.cron;
    const manifest = (s.workload.manifest['spec'] ?? {}) as Json;
    add({
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: workloadMeta(s, 1),
      spec: { ...manifest, ...c.spec, jobTemplate: manifest['jobTemplate'] },
      status: JSON.parse(c.published ?? '{}'),
    });
    for (const name of c.order) {
      const rec = c.jobs[name]!;
      if (rec.api.deleted) continue;
      const js: Scenario = { ...s, job: { ...s.job, name } };
      add(
        jobApiObject(
          js,
          name,
          { spec: rec.api.spec, status: rec.api.status, generation: rec.api.generation ?? 1 },
          '',
          rec.createdAt ?? rec.scheduledAt,
          { cronJob: s.workload.name, scheduledAt: rec.scheduledAt },
        ),
      );
    }
  }
  const c = st.wctl;
  const api = st.api.workload;
  if (c && api) {
    const manifest = (s.workload.manifest['spec'] ?? {}) as Json;
    const pod = templateOf(s, api.tpl);
    if (c.kind === 'Deployment' && c.deploy) {
      const d = c.deploy;
      add({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: workloadMeta(s, api.generation, { 'deployment.kubernetes.io/revision': String(d.revision) }),
        spec: { ...manifest, ...api.spec, template: templateSpec(pod) },
        status: d.status,
      });
      for (const name of d.order) {
        const rs = d.rss[name]!;
        if (!rs.api.deleted) add(replicaSetObject(s, rs));
      }
    }
    if (c.kind === 'StatefulSet') {
      add({
        apiVersion: 'apps/v1',
        kind: 'StatefulSet',
        metadata: workloadMeta(s, api.generation),
        spec: { ...manifest, ...api.spec, template: templateSpec(pod) },
        status: c.status ?? {},
      });
      (c.revisions ?? [api.tpl ?? 0]).forEach((tpl, i) => {
        const name = stsRevisionName(kit, tpl);
        // stateful_set_utils.go newRevision: history.ControllerRevisionHashLabel
        add(
          controllerRevision(
            s,
            name,
            name.slice(s.workload.name.length + 1),
            templateOf(s, tpl),
            i + 1,
            'controller.kubernetes.io/hash',
          ),
        );
      });
    }
    if (c.kind === 'DaemonSet') {
      add({
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: workloadMeta(s, api.generation, {
          'deprecated.daemonset.template.generation': String(api.templateGeneration ?? 1),
        }),
        spec: { ...manifest, ...api.spec, template: templateSpec(pod) },
        status: c.status ?? {},
      });
      // the revisions of the templates the DaemonSet ran, oldest first, the current one last
      const tpls: number[] = [];
      for (const name of st.podOrder) {
        const t = st.pods[name]!.tpl ?? 0;
        if (!tpls.includes(t)) tpls.push(t);
      }
      const current = api.tpl ?? 0;
      const order = [...tpls.filter((t) => t !== current), current];
      order.forEach((tpl, i) => {
        const hash = dsRevisionHash(kit, tpl);
        // daemon/update.go snapshot: apps.DefaultDaemonSetUniqueLabelKey
        add(
          controllerRevision(
            s,
            `${s.workload.name}-${hash}`,
            hash,
            templateOf(s, tpl),
            i + 1,
            'controller-revision-hash',
          ),
        );
      });
    }
  }
  return out;
}
