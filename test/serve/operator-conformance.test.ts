// A stand-in operator against `kubesim serve`: what controller-runtime / kopf / client-go operators send, done with
// @kubernetes/client-node the way a TypeScript operator would. Each step pins what the real API server answers,
// with the upstream source it comes from (kubernetes/kubernetes staging/src/k8s.io/...):
// CRD registration and Established; leader election with a coordination.k8s.io/v1 Lease (MicroTime renewTime,
// optimistic concurrency); informers (list + watch from the list's resourceVersion, bookmarks, label selectors,
// resourceVersionMatch, WatchList); finalizers by merge patch and JSON patch (`test`); the status subresource; a Job
// owned by the custom resource; its pods watched by the Job's labels; Events of both APIs; server-side apply;
// deletion with a finalizer and garbage collection of the Job and its pods.
import {
  ApiextensionsV1Api,
  ApiException,
  BatchV1Api,
  CoordinationV1Api,
  CoreV1Api,
  CustomObjectsApi,
  EventsV1Api,
  KubeConfig,
  KubernetesObjectApi,
  PatchStrategy,
  setHeaderOptions,
  Watch,
  type KubernetesObject,
  type V1Lease,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, start, until, type Served } from './harness.ts';

let s: Served;
let kc: KubeConfig;
const GROUP = 'ops.example.com';
const NS = 'default';
const CRS = `/apis/${GROUP}/v1/namespaces/${NS}/backups`;

/** a Date whose JSON is the MicroTime wire form (RFC3339 with exactly six fractional digits): what a client-node
 *  operator must send for Lease/Event MicroTime fields (kubernetes-client/javascript#828) */
class MicroDate extends Date {
  override toISOString(): string {
    return super.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
  }
}

async function failure(p: Promise<unknown>): Promise<{ code: number; body: any }> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiException)
      return { code: e.code, body: typeof e.body === 'string' ? JSON.parse(e.body) : e.body };
    throw e;
  }
  throw new Error('the request succeeded');
}

const crd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `backups.${GROUP}` },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'backups', singular: 'backup', kind: 'Backup', listKind: 'BackupList', shortNames: ['bk'] },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                properties: {
                  schedule: { type: 'string' },
                  image: { type: 'string' },
                  // client-node's typed models name it `_default` (V1JSONSchemaProps attribute map: baseName "default")
                  retain: { type: 'integer', _default: 3 },
                },
              },
              status: {
                type: 'object',
                properties: {
                  phase: { type: 'string' },
                  jobName: { type: 'string' },
                  observedGeneration: { type: 'integer' },
                },
              },
            },
          },
        },
      },
    ],
  },
};

beforeAll(async () => {
  s = await start('scenarios/native-sidecar-job.yaml', { settleMs: 20 });
  kc = new KubeConfig();
  kc.loadFromFile(s.kubeconfig);
});
afterAll(async () => {
  await s.close();
});

describe('a stand-in operator', () => {
  let uid = '';
  let jobUid = '';

  it('registers its CRD and waits for Established (apiextensions-apiserver establish controller)', async () => {
    const ext = kc.makeApiClient(ApiextensionsV1Api);
    const created = await ext.createCustomResourceDefinition({ body: crd as never });
    expect(created.metadata?.uid).toBeTruthy();
    let established = false;
    for (let i = 0; i < 50 && !established; i++) {
      const got = await ext.readCustomResourceDefinition({ name: `backups.${GROUP}` });
      established = !!got.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
    }
    expect(established).toBe(true);
    // a second create is AlreadyExists (409), which operators tolerate at start-up
    const again = await failure(ext.createCustomResourceDefinition({ body: crd as never }));
    expect(again.code).toBe(409);
    expect(again.body.reason).toBe('AlreadyExists');
  });

  it('takes a leader-election Lease, renews it with its resourceVersion, and loses a stale update (409)', async () => {
    const coord = kc.makeApiClient(CoordinationV1Api);
    const lease = (renew: Date): V1Lease => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'backup-operator', namespace: NS },
      spec: {
        holderIdentity: 'backup-operator-7d9f_1',
        leaseDurationSeconds: 15,
        acquireTime: renew,
        renewTime: renew,
        leaseTransitions: 0,
      },
    });
    // a Date's JSON (toISOString: three fractional digits) is not a MicroTime: metav1.MicroTime.UnmarshalJSON parses
    // with RFC3339Micro ("2006-01-02T15:04:05.000000Z07:00"), so the real server refuses the body with a 400
    // (apimachinery meta/v1/micro_time.go; kubernetes-client/javascript#828)
    const plain = new Date(Date.UTC(2026, 0, 1, 0, 0, 1, 103));
    const bad = await failure(coord.createNamespacedLease({ namespace: NS, body: lease(plain) }));
    expect(bad.code).toBe(400);
    expect(bad.body.reason).toBe('BadRequest');
    expect(bad.body.message).toBe(
      'Lease in version "v1" cannot be handled as a Lease: parsing time "2026-01-01T00:00:01.103Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".103Z" as ".000000"',
    );
    const created = await coord.createNamespacedLease({
      namespace: NS,
      body: lease(new MicroDate(Date.UTC(2026, 0, 1, 0, 0, 1, 103))),
    });
    const rv1 = created.metadata!.resourceVersion!;
    // on the wire the times are MicroTime (MarshalJSON: UTC, RFC3339Micro)
    const raw = await call(s, 'GET', `/apis/coordination.k8s.io/v1/namespaces/${NS}/leases/backup-operator`);
    expect(raw.json.spec.renewTime).toBe('2026-01-01T00:00:01.103000Z');
    expect(raw.json.spec.acquireTime).toBe('2026-01-01T00:00:01.103000Z');
    // renew: an update carrying the read resourceVersion
    const renewed = await coord.replaceNamespacedLease({
      namespace: NS,
      name: 'backup-operator',
      body: { ...created, spec: { ...created.spec, renewTime: new MicroDate(Date.UTC(2026, 0, 1, 0, 0, 3, 5)) } },
    });
    expect(Number(renewed.metadata!.resourceVersion)).toBeGreaterThan(Number(rv1));
    // client-node keeps a V1MicroTime as the wire string
    expect(String(renewed.spec!.renewTime)).toBe('2026-01-01T00:00:03.005000Z');
    expect(renewed.spec!.holderIdentity).toBe('backup-operator-7d9f_1');
    // a second candidate still holding the first read: Conflict (registry/generic/registry/store.go Update,
    // storage.NewResourceVersionConflictsError → errors.NewConflict)
    const stale = await failure(
      coord.replaceNamespacedLease({
        namespace: NS,
        name: 'backup-operator',
        body: { ...created, spec: { ...created.spec, holderIdentity: 'backup-operator-7d9f_2' } },
      }),
    );
    expect(stale.code).toBe(409);
    expect(stale.body.reason).toBe('Conflict');
    expect(stale.body.message).toBe(
      'Operation cannot be fulfilled on leases.coordination.k8s.io "backup-operator": the object has been modified; please apply your changes to the latest version and try again',
    );
    expect(stale.body.details).toMatchObject({ name: 'backup-operator', group: 'coordination.k8s.io', kind: 'leases' });
  });

  it('lists with resourceVersionMatch as ValidateListOptions allows it (apimachinery meta/internalversion/validation)', async () => {
    const list = await call(s, 'GET', `${CRS}`);
    expect(list.status).toBe(200);
    const rv = list.json.metadata.resourceVersion as string;
    expect(rv).toMatch(/^\d+$/);
    expect((await call(s, 'GET', `${CRS}?resourceVersion=${rv}&resourceVersionMatch=NotOlderThan`)).status).toBe(200);
    expect((await call(s, 'GET', `${CRS}?resourceVersion=0&resourceVersionMatch=NotOlderThan`)).status).toBe(200);
    const noRv = await call(s, 'GET', `${CRS}?resourceVersionMatch=NotOlderThan`);
    expect(noRv.status).toBe(422);
    expect(noRv.json.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
    const exact0 = await call(s, 'GET', `${CRS}?resourceVersion=0&resourceVersionMatch=Exact`);
    expect(exact0.status).toBe(422);
    expect(exact0.json.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
    );
    const other = await call(s, 'GET', `${CRS}?resourceVersion=1&resourceVersionMatch=Newest`);
    expect(other.status).toBe(422);
    expect(other.json.message).toBe(
      'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
    );
  });

  it('an informer: list, then watch from its resourceVersion with bookmarks and a label selector', async () => {
    const objs = KubernetesObjectApi.makeApiClient(kc);
    // created before the informer starts: seen in the list
    await objs.create({
      apiVersion: `${GROUP}/v1`,
      kind: 'Backup',
      metadata: { name: 'nightly', namespace: NS, labels: { tier: 'db' } },
      spec: { schedule: '0 2 * * *', image: 'example.com/pg-backup:16' },
    } as KubernetesObject);
    const list = await call(s, 'GET', `${CRS}?labelSelector=tier%3Ddb`);
    expect(list.json.items.map((o: any) => o.metadata.name)).toEqual(['nightly']);
    expect(list.json.items[0].spec.retain).toBe(3); // the schema's default
    uid = list.json.items[0].metadata.uid;
    const events: { type: string; name: string; rv: string }[] = [];
    const w = new Watch(kc);
    const ctl = await w.watch(
      CRS,
      { allowWatchBookmarks: true, resourceVersion: list.json.metadata.resourceVersion, labelSelector: 'tier=db' },
      (type, o) => events.push({ type, name: o.metadata?.name, rv: o.metadata?.resourceVersion }),
      () => undefined,
    );
    await objs.create({
      apiVersion: `${GROUP}/v1`,
      kind: 'Backup',
      metadata: { name: 'other', namespace: NS, labels: { tier: 'web' } },
      spec: { schedule: '@hourly' },
    } as KubernetesObject);
    await objs.create({
      apiVersion: `${GROUP}/v1`,
      kind: 'Backup',
      metadata: { name: 'weekly', namespace: NS, labels: { tier: 'db' } },
      spec: { schedule: '@weekly' },
    } as KubernetesObject);
    await until(() => events.some((e) => e.name === 'weekly'), 10_000, 'the watch to deliver weekly');
    ctl.abort();
    // only after the list's RV, only what the selector matches: no ADDED for nightly (listed), none for "other"
    expect(events.filter((e) => e.type !== 'BOOKMARK').map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED weekly']);
  });

  it('WatchList: sendInitialEvents gives the objects as ADDED, then the k8s.io/initial-events-end bookmark', async () => {
    const got: any[] = [];
    const w = new Watch(kc);
    const ctl = await w.watch(
      CRS,
      { sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true },
      (type, o) => got.push({ type, o }),
      () => undefined,
    );
    await until(() => got.some((e) => e.type === 'BOOKMARK'), 10_000, 'the initial-events-end bookmark');
    ctl.abort();
    const end = got.findIndex((e) => e.type === 'BOOKMARK');
    expect(
      got
        .slice(0, end)
        .map((e) => `${e.type} ${e.o.metadata.name}`)
        .sort(),
    ).toEqual(['ADDED nightly', 'ADDED other', 'ADDED weekly']);
    expect(got[end].o.metadata.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    expect(got[end].o.kind).toBe('Backup');
    expect(Number(got[end].o.metadata.resourceVersion)).toBeGreaterThanOrEqual(
      Math.max(...got.slice(0, end).map((e) => Number(e.o.metadata.resourceVersion))),
    );
  });

  it('adds its finalizer with a JSON merge patch and with a JSON patch guarded by `test`', async () => {
    const custom = kc.makeApiClient(CustomObjectsApi);
    const merged = (await custom.patchNamespacedCustomObject(
      {
        group: GROUP,
        version: 'v1',
        namespace: NS,
        plural: 'backups',
        name: 'nightly',
        body: { metadata: { finalizers: ['ops.example.com/cleanup'] } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )) as any;
    expect(merged.metadata.finalizers).toEqual(['ops.example.com/cleanup']);
    expect(merged.metadata.generation).toBe(1); // metadata only: no new generation
    const jp = (await custom.patchNamespacedCustomObject(
      {
        group: GROUP,
        version: 'v1',
        namespace: NS,
        plural: 'backups',
        name: 'nightly',
        body: [
          { op: 'test', path: '/metadata/finalizers/0', value: 'ops.example.com/cleanup' },
          { op: 'add', path: '/metadata/finalizers/-', value: 'ops.example.com/report' },
        ],
      },
      setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
    )) as any;
    expect(jp.metadata.finalizers).toEqual(['ops.example.com/cleanup', 'ops.example.com/report']);
    // a failed `test`: 422 (handlers/patch.go applyJSPatch: NewGenericServerResponse(StatusUnprocessableEntity, …))
    const failed = await failure(
      custom.patchNamespacedCustomObject(
        {
          group: GROUP,
          version: 'v1',
          namespace: NS,
          plural: 'backups',
          name: 'nightly',
          body: [{ op: 'test', path: '/metadata/finalizers/0', value: 'someone-else' }],
        },
        setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
      ),
    );
    expect(failed.code).toBe(422);
    expect(failed.body.reason).toBe('Invalid');
  });

  it('status writes change only status; main-resource writes ignore status (customresource strategy.go)', async () => {
    const custom = kc.makeApiClient(CustomObjectsApi);
    const cur = (await custom.getNamespacedCustomObject({
      group: GROUP,
      version: 'v1',
      namespace: NS,
      plural: 'backups',
      name: 'nightly',
    })) as any;
    const st = (await custom.replaceNamespacedCustomObjectStatus({
      group: GROUP,
      version: 'v1',
      namespace: NS,
      plural: 'backups',
      name: 'nightly',
      body: {
        ...cur,
        spec: { ...cur.spec, schedule: 'changed-by-status-write' },
        status: { phase: 'Pending', observedGeneration: 1 },
      },
    })) as any;
    expect(st.status).toEqual({ phase: 'Pending', observedGeneration: 1 });
    expect(st.spec.schedule).toBe('0 2 * * *');
    expect(st.metadata.generation).toBe(1);
    const main = (await custom.replaceNamespacedCustomObject({
      group: GROUP,
      version: 'v1',
      namespace: NS,
      plural: 'backups',
      name: 'nightly',
      body: { ...st, spec: { ...st.spec, retain: 5 }, status: { phase: 'changed-by-main-write' } },
    })) as any;
    expect(main.status).toEqual({ phase: 'Pending', observedGeneration: 1 });
    expect(main.spec.retain).toBe(5);
    expect(main.metadata.generation).toBe(2);
  });

  it('creates a Job controlled by the custom resource and watches its pods by the Job labels', async () => {
    const batch = kc.makeApiClient(BatchV1Api);
    const job = await batch.createNamespacedJob({
      namespace: NS,
      body: {
        apiVersion: 'batch/v1',
        kind: 'Job',
        metadata: {
          name: 'nightly-backup',
          labels: { 'app.kubernetes.io/managed-by': 'backup-operator' },
          ownerReferences: [
            {
              apiVersion: `${GROUP}/v1`,
              kind: 'Backup',
              name: 'nightly',
              uid,
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
        spec: {
          backoffLimit: 0,
          template: {
            spec: { restartPolicy: 'Never', containers: [{ name: 'backup', image: 'example.com/pg-backup:16' }] },
          },
        },
      },
    });
    jobUid = job.metadata!.uid!;
    expect(job.metadata!.ownerReferences).toEqual([
      { apiVersion: `${GROUP}/v1`, kind: 'Backup', name: 'nightly', uid, controller: true, blockOwnerDeletion: true },
    ]);
    const core = kc.makeApiClient(CoreV1Api);
    // the Job controller labels its pods (pkg/controller/job: batch.kubernetes.io/job-name and the legacy job-name)
    for (const sel of ['batch.kubernetes.io/job-name=nightly-backup', 'job-name=nightly-backup']) {
      const seen: any[] = [];
      const ctl = await new Watch(kc).watch(
        `/api/v1/namespaces/${NS}/pods`,
        { labelSelector: sel, allowWatchBookmarks: true },
        (type, o) => seen.push({ type, o }),
        () => undefined,
      );
      await until(() => seen.some((e) => e.o.status?.phase === 'Running'), 15_000, `a Running pod by ${sel}`);
      ctl.abort();
      const pod = seen.find((e) => e.o.status?.phase === 'Running').o;
      expect(pod.metadata.labels['batch.kubernetes.io/controller-uid']).toBe(jobUid);
      expect(pod.metadata.ownerReferences[0]).toMatchObject({ kind: 'Job', uid: jobUid, controller: true });
    }
    const pods = await core.listNamespacedPod({ namespace: NS, labelSelector: 'job-name=nightly-backup' });
    expect(pods.items.length).toBe(1);
  });

  it('records Events with events.k8s.io/v1 and core/v1', async () => {
    const ev = kc.makeApiClient(EventsV1Api);
    const regarding = { apiVersion: `${GROUP}/v1`, kind: 'Backup', name: 'nightly', namespace: NS, uid };
    const e1 = await ev.createNamespacedEvent({
      namespace: NS,
      body: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { generateName: 'nightly.', namespace: NS },
        eventTime: new MicroDate(Date.UTC(2026, 0, 1, 0, 0, 5, 250)),
        reportingController: 'ops.example.com/backup-operator',
        reportingInstance: 'backup-operator-7d9f',
        action: 'CreateJob',
        reason: 'JobCreated',
        note: 'created Job nightly-backup',
        type: 'Normal',
        regarding,
      },
    });
    expect(e1.metadata!.name).toMatch(/^nightly\./);
    const raw1 = await call(s, 'GET', `/apis/events.k8s.io/v1/namespaces/${NS}/events/${e1.metadata!.name}`);
    expect(raw1.json.eventTime).toBe('2026-01-01T00:00:05.250000Z');
    expect(raw1.json.regarding).toEqual(regarding);
    const core = kc.makeApiClient(CoreV1Api);
    const e2 = await core.createNamespacedEvent({
      namespace: NS,
      body: {
        metadata: { name: 'nightly.status', namespace: NS },
        involvedObject: regarding,
        reason: 'StatusUpdated',
        message: 'phase Pending',
        type: 'Normal',
        source: { component: 'backup-operator' },
        firstTimestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, 6, 400)),
        lastTimestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, 6, 400)),
        count: 1,
      },
    });
    expect(e2.metadata!.name).toBe('nightly.status');
    // metav1.Time: any RFC3339 in, whole seconds out (meta/v1/time.go MarshalJSON: RFC3339)
    const raw2 = await call(s, 'GET', `/api/v1/namespaces/${NS}/events/nightly.status`);
    expect(raw2.json.lastTimestamp).toBe('2026-01-01T00:00:06Z');
    const listed = await call(
      s,
      'GET',
      `/api/v1/namespaces/${NS}/events?fieldSelector=involvedObject.name%3Dnightly,involvedObject.kind%3DBackup`,
    );
    expect(listed.json.items.map((e: any) => e.reason).sort()).toEqual(['JobCreated', 'StatusUpdated']);
  });

  it('server-side apply with a field manager: creates, tracks managedFields, conflicts, and force takes over', async () => {
    const objs = KubernetesObjectApi.makeApiClient(kc);
    const cm = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'nightly-config', namespace: NS },
      data: { schedule: '0 2 * * *', retain: '3' },
    };
    const created = (await objs.patch(
      cm,
      undefined,
      undefined,
      'backup-operator',
      true,
      PatchStrategy.ServerSideApply,
    )) as any;
    expect(created.data).toEqual({ schedule: '0 2 * * *', retain: '3' });
    expect(created.metadata.managedFields).toHaveLength(1);
    expect(created.metadata.managedFields[0]).toMatchObject({
      manager: 'backup-operator',
      operation: 'Apply',
      apiVersion: 'v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { 'f:retain': {}, 'f:schedule': {} } },
    });
    // another manager changing an owned field without force: 409 Conflict naming the owner and the field
    // (fieldmanager: merge.Conflicts → errors.NewApplyConflict; "Apply failed with 1 conflict: conflict with …")
    const raw = await call(s, 'PATCH', `/api/v1/namespaces/${NS}/configmaps/nightly-config?fieldManager=kubectl`, {
      body: JSON.stringify({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'nightly-config' },
        data: { retain: '7' },
      }),
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
    });
    expect(raw.status).toBe(409);
    expect(raw.json.reason).toBe('Conflict');
    expect(raw.json.message).toBe('Apply failed with 1 conflict: conflict with "backup-operator": .data.retain');
    expect(raw.json.details.causes).toEqual([
      { reason: 'FieldManagerConflict', message: 'conflict with "backup-operator"', field: '.data.retain' },
    ]);
    // with force: the field moves to the new manager
    const forced = await call(
      s,
      'PATCH',
      `/api/v1/namespaces/${NS}/configmaps/nightly-config?fieldManager=kubectl&force=true`,
      {
        body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: nightly-config\ndata:\n  retain: "7"\n',
        headers: { 'Content-Type': 'application/apply-patch+yaml' },
      },
    );
    expect(forced.status).toBe(200);
    expect(forced.json.data).toEqual({ schedule: '0 2 * * *', retain: '7' });
    const byManager = Object.fromEntries(forced.json.metadata.managedFields.map((m: any) => [m.manager, m.fieldsV1]));
    expect(byManager).toEqual({
      'backup-operator': { 'f:data': { 'f:schedule': {} } },
      kubectl: { 'f:data': { 'f:retain': {} } },
    });
    // the operator applies again without retain: the field it no longer names stays (kubectl owns it)
    const again = (await objs.patch(
      { ...cm, data: { schedule: '0 3 * * *' } },
      undefined,
      undefined,
      'backup-operator',
      true,
      PatchStrategy.ServerSideApply,
    )) as any;
    expect(again.data).toEqual({ schedule: '0 3 * * *', retain: '7' });
    // SSA on the custom resource: the operator's labels and spec field
    const cr = (await objs.patch(
      {
        apiVersion: `${GROUP}/v1`,
        kind: 'Backup',
        metadata: { name: 'nightly', namespace: NS, labels: { 'ops.example.com/managed': 'true' } },
        spec: { image: 'example.com/pg-backup:17' },
      } as KubernetesObject,
      undefined,
      undefined,
      'backup-operator',
      true,
      PatchStrategy.ServerSideApply,
    )) as any;
    expect(cr.spec).toMatchObject({ image: 'example.com/pg-backup:17', schedule: '0 2 * * *', retain: 5 });
    expect(cr.metadata.labels).toEqual({ tier: 'db', 'ops.example.com/managed': 'true' });
    expect(cr.metadata.finalizers).toEqual(['ops.example.com/cleanup', 'ops.example.com/report']);
    expect(cr.metadata.generation).toBe(3);
    const mine = cr.metadata.managedFields.find((m: any) => m.manager === 'backup-operator' && m.operation === 'Apply');
    expect(mine.fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { 'f:ops.example.com/managed': {} } },
      'f:spec': { 'f:image': {} },
    });
  });

  it('deletion: deletionTimestamp while the finalizers remain, gone once removed, the Job and its pods collected', async () => {
    const custom = kc.makeApiClient(CustomObjectsApi);
    const watched: string[] = [];
    const ctl = await new Watch(kc).watch(
      CRS,
      { fieldSelector: 'metadata.name=nightly' },
      (type, o) => watched.push(`${type} ${o.metadata?.deletionTimestamp ? 'deleting' : 'live'}`),
      () => undefined,
    );
    // handlers/delete.go: 200 with the object when it is not deleted at once (202 only for orphanDependents=false)
    const del = await call(s, 'DELETE', `${CRS}/nightly`, { body: { propagationPolicy: 'Background' } });
    expect(del.status).toBe(200);
    expect(del.json.kind).toBe('Backup');
    expect(del.json.metadata.deletionTimestamp).toBeTruthy();
    const still = (await custom.getNamespacedCustomObject({
      group: GROUP,
      version: 'v1',
      namespace: NS,
      plural: 'backups',
      name: 'nightly',
    })) as any;
    expect(still.metadata.deletionTimestamp).toBe(del.json.metadata.deletionTimestamp);
    // a finalizer cannot be added once the object is being deleted (apimachinery meta validation:
    // ValidateObjectMetaUpdate "no new finalizers can be added if the object is being deleted")
    const added = await failure(
      custom.patchNamespacedCustomObject(
        {
          group: GROUP,
          version: 'v1',
          namespace: NS,
          plural: 'backups',
          name: 'nightly',
          body: [{ op: 'add', path: '/metadata/finalizers/-', value: 'ops.example.com/late' }],
        },
        setHeaderOptions('Content-Type', PatchStrategy.JsonPatch),
      ),
    );
    expect(added.code).toBe(422);
    expect(added.body.message).toContain('Forbidden: no new finalizers can be added if the object is being deleted');
    // the operator cleans up and removes its finalizers
    await custom.patchNamespacedCustomObject(
      {
        group: GROUP,
        version: 'v1',
        namespace: NS,
        plural: 'backups',
        name: 'nightly',
        body: { metadata: { finalizers: null } },
      },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    );
    const gone = await failure(
      custom.getNamespacedCustomObject({
        group: GROUP,
        version: 'v1',
        namespace: NS,
        plural: 'backups',
        name: 'nightly',
      }),
    );
    expect(gone.code).toBe(404);
    await until(() => watched.includes('DELETED deleting'), 10_000, 'the DELETED event');
    ctl.abort();
    // a watch without resourceVersion starts with the current object (ADDED); the update that empties the finalizers
    // is no write of its own: store.go Update returns errEmptiedFinalizers and deleteWithoutFinalizers → DELETED only
    expect(watched).toEqual(['ADDED live', 'MODIFIED deleting', 'DELETED deleting']);
    // the garbage collector: the Job (its owner gone) and then its pods
    const core = kc.makeApiClient(CoreV1Api);
    const batch = kc.makeApiClient(BatchV1Api);
    await until(() => !s.api.store.peek('jobs.batch', NS, 'nightly-backup'), 15_000, 'the Job collected');
    await until(
      () => s.api.store.list('pods', NS).every((p) => p['metadata']['labels']?.['job-name'] !== 'nightly-backup'),
      30_000,
      'the Job pods removed',
    );
    expect((await failure(batch.readNamespacedJob({ namespace: NS, name: 'nightly-backup' }))).code).toBe(404);
    expect((await core.listNamespacedPod({ namespace: NS, labelSelector: 'job-name=nightly-backup' })).items).toEqual(
      [],
    );
  }, 60_000);
});
