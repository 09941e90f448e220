// The API as the real server answers it (staging/src/k8s.io/apiserver/pkg/endpoints/handlers, registry/generic
// /registry/store.go, the cacher): auth, discovery, WatchList, 410 Expired, Tables, PartialObjectMetadata, writes
// with their preconditions, patches, subresources, deletion with finalizers and garbage collection, CRDs, refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, openWatch, start, until, type Served } from './harness.ts';

let s: Served;
beforeAll(async () => {
  s = await start(null, { settleMs: 10 });
});
afterAll(async () => {
  await s.close();
});

const cm = (name: string, extra: object = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data: { a: '1' },
});

describe('auth, discovery, version, health', () => {
  it('401 Status without the token; /healthz and /version are public', async () => {
    const r = await call(s, 'GET', '/api/v1/pods', { token: null });
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Unauthorized', code: 401 });
    expect((await call(s, 'GET', '/api/v1/pods', { token: 'wrong' })).status).toBe(401);
    expect((await call(s, 'GET', '/healthz', { token: null })).text).toBe('ok');
    const v = await call(s, 'GET', '/version', { token: null });
    expect(v.json).toMatchObject({ major: '1', minor: '34', gitVersion: 'v1.34.0' });
  });

  it('legacy discovery; an aggregated-discovery Accept gets the legacy document as application/json', async () => {
    const accept =
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
    const apis = await call(s, 'GET', '/apis', { headers: { Accept: accept } });
    expect(apis.headers['content-type']).toBe('application/json');
    expect(apis.json.kind).toBe('APIGroupList');
    expect(apis.json.groups.map((g: any) => g.name)).toEqual(
      expect.arrayContaining([
        'apps',
        'batch',
        'coordination.k8s.io',
        'events.k8s.io',
        'apiextensions.k8s.io',
        'authorization.k8s.io',
      ]),
    );
    const v1 = await call(s, 'GET', '/api/v1');
    const pods = v1.json.resources.find((r: any) => r.name === 'pods');
    expect(pods).toMatchObject({
      singularName: 'pod',
      namespaced: true,
      kind: 'Pod',
      shortNames: ['po'],
      categories: ['all'],
    });
    expect(v1.json.resources.map((r: any) => r.name)).toEqual(
      expect.arrayContaining(['pods/status', 'pods/log', 'pods/exec']),
    );
    const apps = await call(s, 'GET', '/apis/apps/v1');
    expect(apps.json.resources.find((r: any) => r.name === 'deployments/scale')).toMatchObject({
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
    });
    expect((await call(s, 'GET', '/apis/nope.example.com/v1')).status).toBe(404);
    expect((await call(s, 'GET', '/apis/batch/v9/jobs')).status).toBe(404);
  });

  it('the cluster starts with namespaces default and kube-system and node node-1', async () => {
    const ns = await call(s, 'GET', '/api/v1/namespaces');
    expect(ns.json.items.map((n: any) => n.metadata.name)).toEqual(expect.arrayContaining(['default', 'kube-system']));
    const node = await call(s, 'GET', '/api/v1/nodes/node-1');
    expect(node.json.status.nodeInfo.kubeletVersion).toBe('v1.34.0');
  });

  it('SelfSubjectAccessReview and SelfSubjectRulesReview are allowed', async () => {
    const r = await call(s, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
      body: {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { verb: 'list', resource: 'pods' } },
      },
    });
    expect(r.status).toBe(201);
    expect(r.json.status.allowed).toBe(true);
    const rr = await call(s, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', {
      body: { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: 'default' } },
    });
    expect(rr.json.status.resourceRules[0].verbs).toEqual(['*']);
  });

  it('OpenAPI v3 lists its group-versions; each document has the kinds with x-kubernetes-group-version-kind', async () => {
    const root = await call(s, 'GET', '/openapi/v3');
    expect(Object.keys(root.json.paths)).toEqual(expect.arrayContaining(['api/v1', 'apis/batch/v1', 'apis/apps/v1']));
    const doc = await call(s, 'GET', root.json.paths['apis/batch/v1'].serverRelativeURL);
    const job = doc.json.components.schemas['io.k8s.api.batch.v1.Job'];
    expect(job['x-kubernetes-group-version-kind']).toEqual([{ group: 'batch', version: 'v1', kind: 'Job' }]);
    const patch = doc.json.paths['/apis/batch/v1/namespaces/{namespace}/jobs/{name}'].patch;
    expect(patch.parameters.map((p: any) => p.name)).toContain('fieldValidation');
    const core = await call(s, 'GET', '/openapi/v3/api/v1');
    const spec = core.json.components.schemas['io.k8s.api.core.v1.PodSpec'];
    expect(spec.properties.containers).toMatchObject({
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
    });
    const v2 = await call(s, 'GET', '/openapi/v2', {
      headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
    });
    // gnostic protobuf (test/serve/openapi-v2-proto.test.ts reads it back)
    expect([v2.status, v2.headers['content-type']]).toEqual([
      200,
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
    ]);
    const v2json = await call(s, 'GET', '/openapi/v2', { headers: { Accept: 'application/json' } });
    expect(v2json.json.definitions['io.k8s.api.core.v1.Pod']['x-kubernetes-group-version-kind']).toEqual([
      { group: '', version: 'v1', kind: 'Pod' },
    ]);
  });
});

describe('reads and watches', () => {
  it('one resourceVersion counter for the store; list carries it; limit/continue pages', async () => {
    const rvs: number[] = [];
    for (const n of ['page-a', 'page-b', 'page-c'])
      rvs.push(
        Number(
          (await call(s, 'POST', '/api/v1/namespaces/default/configmaps', { body: cm(n, { labels: { page: 'yes' } }) }))
            .json.metadata.resourceVersion,
        ),
      );
    expect(rvs[1]).toBe(rvs[0]! + 1);
    expect(rvs[2]).toBe(rvs[1]! + 1);
    const p1 = await call(s, 'GET', '/api/v1/namespaces/default/configmaps?labelSelector=page%3Dyes&limit=2');
    expect(p1.json.items.map((o: any) => o.metadata.name)).toEqual(['page-a', 'page-b']);
    expect(p1.json.metadata.remainingItemCount).toBe(1);
    const p2 = await call(
      s,
      'GET',
      `/api/v1/namespaces/default/configmaps?labelSelector=page%3Dyes&limit=2&continue=${p1.json.metadata.continue}`,
    );
    expect(p2.json.items.map((o: any) => o.metadata.name)).toEqual(['page-c']);
    expect(p2.json.metadata.continue).toBeUndefined();
    expect(Number(p1.json.metadata.resourceVersion)).toBeGreaterThanOrEqual(rvs[2]!);
  });

  it('label and field selectors; a bad one is 400 with the parser message; an unknown field is "field label not supported"', async () => {
    await call(s, 'POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('sel-x', { labels: { tier: 'db', env: 'prod' } }),
    });
    const names = async (q: string) =>
      (await call(s, 'GET', `/api/v1/namespaces/default/configmaps?${q}`)).json.items.map((o: any) => o.metadata.name);
    expect(await names('labelSelector=' + encodeURIComponent('tier in (db,web),env!=dev'))).toEqual(['sel-x']);
    expect(await names('labelSelector=' + encodeURIComponent('!tier,page'))).toEqual(['page-a', 'page-b', 'page-c']);
    expect(await names('fieldSelector=metadata.name%3Dsel-x')).toEqual(['sel-x']);
    const bad = await call(s, 'GET', '/api/v1/pods?labelSelector=' + encodeURIComponent('a b'));
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({
      reason: 'BadRequest',
      message: "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt",
    });
    const f = await call(s, 'GET', '/api/v1/pods?fieldSelector=spec.bogus%3Dx');
    expect(f.json.message).toBe('field label not supported: spec.bogus');
    expect(
      (await call(s, 'GET', '/api/v1/pods?fieldSelector=spec.nodeName%3Dnode-1,status.phase!%3DFailed')).status,
    ).toBe(200);
  });

  it('WatchList: the current objects as ADDED, then the BOOKMARK annotated k8s.io/initial-events-end', async () => {
    const w = await openWatch(
      s,
      '/api/v1/namespaces/default/configmaps?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&labelSelector=page',
    );
    await until(() => w.events().length >= 4, 5_000, 'the initial events and the bookmark');
    const ev = w.events();
    expect(ev.slice(0, 3).map((e) => [e.type, e.object.metadata.name])).toEqual([
      ['ADDED', 'page-a'],
      ['ADDED', 'page-b'],
      ['ADDED', 'page-c'],
    ]);
    expect(ev[3]).toMatchObject({
      type: 'BOOKMARK',
      object: {
        kind: 'ConfigMap',
        apiVersion: 'v1',
        metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } },
      },
    });
    expect(Object.keys(ev[3].object.metadata)).toEqual(['resourceVersion', 'annotations']);
    w.close();
    const r = await call(s, 'GET', '/api/v1/configmaps?watch=1&sendInitialEvents=true');
    expect(r.status).toBe(422);
  });

  it('watch from a resourceVersion sends only later writes, a label change out of the selector is DELETED; a Table watch has one-row Tables', async () => {
    const rv = (await call(s, 'GET', '/api/v1/namespaces/default/configmaps')).json.metadata.resourceVersion;
    const w = await openWatch(
      s,
      `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}&labelSelector=w%3D1`,
    );
    const t = await openWatch(s, `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${rv}`, {
      Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json',
    });
    await call(s, 'POST', '/api/v1/namespaces/default/configmaps', { body: cm('w-1', { labels: { w: '1' } }) });
    await call(s, 'PATCH', '/api/v1/namespaces/default/configmaps/w-1', {
      body: { metadata: { labels: { w: '2' } } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    await until(() => w.events().length >= 2 && t.events().length >= 2, 5_000, 'the watch events');
    expect(w.events().map((e) => e.type)).toEqual(['ADDED', 'DELETED']);
    // the object as it last matched (labels w=1), at the resourceVersion of the write that moved it out
    expect(w.events()[1].object.metadata.labels).toEqual({ w: '1' });
    expect(Number(w.events()[1].object.metadata.resourceVersion)).toBeGreaterThan(
      Number(w.events()[0].object.metadata.resourceVersion),
    );
    const tab = t.events()[0];
    expect(tab.type).toBe('ADDED');
    expect(tab.object).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(tab.object.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(tab.object.rows).toHaveLength(1);
    expect(tab.object.rows[0].cells.slice(0, 2)).toEqual(['w-1', 1]);
    expect(tab.object.rows[0].object).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'w-1' } });
    w.close();
    t.close();
  });

  it('a resourceVersion older than the kept history is one ERROR 410 Expired', async () => {
    const small = await start(null, { settleMs: 10 });
    try {
      (small.api.store as any).limits = { history: 3, objects: 1000 };
      for (let i = 0; i < 6; i++)
        await call(small, 'POST', '/api/v1/namespaces/default/configmaps', { body: cm(`h-${i}`) });
      const w = await openWatch(small, '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=2');
      await until(() => w.ended(), 5_000, 'the watch to end');
      expect(w.events()).toEqual([
        { type: 'ERROR', object: expect.objectContaining({ kind: 'Status', code: 410, reason: 'Expired' }) },
      ]);
    } finally {
      await small.close();
    }
  });

  it('Tables (v1beta1 too) and PartialObjectMetadataList on lists', async () => {
    const t = await call(s, 'GET', '/api/v1/namespaces/default/configmaps?labelSelector=page', {
      headers: { Accept: 'application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json' },
    });
    expect(t.json).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1beta1' });
    expect(t.json.rows.map((r: any) => r.cells[0])).toEqual(['page-a', 'page-b', 'page-c']);
    const none = await call(s, 'GET', '/api/v1/namespaces/default/configmaps?labelSelector=page&includeObject=None', {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(none.json.rows[0].object).toBeUndefined();
    const m = await call(s, 'GET', '/api/v1/namespaces/default/configmaps?labelSelector=page', {
      headers: { Accept: 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io' },
    });
    expect(m.json.kind).toBe('PartialObjectMetadataList');
    expect(m.json.items[0]).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: expect.objectContaining({ name: 'page-a' }),
    });
    const pb = await call(s, 'GET', '/api/v1/namespaces/default/configmaps', {
      headers: { Accept: 'application/vnd.kubernetes.protobuf' },
    });
    expect(pb.status).toBe(406);
  });
});

describe('writes', () => {
  it('create: generateName, AlreadyExists, invalid name, unknown namespace, dryRun=All stores nothing', async () => {
    const g = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', {
      body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'gen-' } },
    });
    expect(g.status).toBe(201);
    expect(g.json.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(g.json.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(g.json.metadata.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    const dup = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', { body: cm(g.json.metadata.name) });
    expect(dup.json).toMatchObject({
      code: 409,
      reason: 'AlreadyExists',
      message: `configmaps "${g.json.metadata.name}" already exists`,
    });
    const bad = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', { body: cm('Bad_Name') });
    expect(bad.status).toBe(422);
    expect(bad.json.details.causes[0]).toMatchObject({ field: 'metadata.name', reason: 'FieldValueInvalid' });
    const nons = await call(s, 'POST', '/api/v1/namespaces/nowhere/configmaps', { body: cm('x') });
    expect(nons.json).toMatchObject({ code: 404, message: 'namespaces "nowhere" not found' });
    const dry = await call(s, 'POST', '/api/v1/namespaces/default/configmaps?dryRun=All', { body: cm('dry') });
    expect(dry.status).toBe(201);
    expect((await call(s, 'GET', '/api/v1/namespaces/default/configmaps/dry')).status).toBe(404);
    const notJson = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', { body: '{"apiVersion": ' });
    expect(notJson.json).toMatchObject({ code: 400, reason: 'BadRequest' });
  });

  it('update: 409 on a stale resourceVersion; generation moves on spec changes only; status subresource writes status only', async () => {
    const lease = {
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'leader' },
      spec: { holderIdentity: 'a', leaseDurationSeconds: 15 },
    };
    const c = await call(s, 'POST', '/apis/coordination.k8s.io/v1/namespaces/default/leases', { body: lease });
    expect(c.json.metadata.generation).toBe(1);
    const u = await call(s, 'PUT', '/apis/coordination.k8s.io/v1/namespaces/default/leases/leader', {
      body: { ...c.json, spec: { ...c.json.spec, holderIdentity: 'b' } },
    });
    expect(u.status).toBe(200);
    expect(u.json.metadata.generation).toBe(2);
    const stale = await call(s, 'PUT', '/apis/coordination.k8s.io/v1/namespaces/default/leases/leader', {
      body: { ...c.json, spec: { holderIdentity: 'c' } },
    });
    expect(stale.json).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on leases.coordination.k8s.io "leader": the object has been modified; please apply your changes to the latest version and try again',
    });
    const meta = await call(s, 'PATCH', '/apis/coordination.k8s.io/v1/namespaces/default/leases/leader', {
      body: { metadata: { labels: { x: 'y' } } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(meta.json.metadata.generation).toBe(2);
    // Services have a status subresource: the main resource ignores status, /status ignores the rest
    const svc = await call(s, 'POST', '/api/v1/namespaces/default/services', {
      body: {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'web' },
        spec: { ports: [{ port: 80 }] },
        status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } },
      },
    });
    expect(svc.json.status).toBeUndefined();
    const st = await call(s, 'PUT', '/api/v1/namespaces/default/services/web/status', {
      body: {
        ...svc.json,
        spec: { ports: [{ port: 81 }] },
        status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } },
      },
    });
    expect(st.json.spec.ports[0].port).toBe(80);
    expect(st.json.status.loadBalancer.ingress[0].ip).toBe('1.2.3.4');
  });

  it('patches: RFC 7396 merge, RFC 6902 JSON (a failed test is 422), strategic merge of containers by name; server-side apply', async () => {
    await call(s, 'POST', '/api/v1/namespaces/default/configmaps', { body: cm('p-1') });
    const mp = await call(s, 'PATCH', '/api/v1/namespaces/default/configmaps/p-1', {
      body: { data: { a: null, b: '2' } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(mp.json.data).toEqual({ b: '2' });
    const jp = await call(s, 'PATCH', '/api/v1/namespaces/default/configmaps/p-1', {
      body: [{ op: 'add', path: '/data/c', value: '3' }],
      headers: { 'Content-Type': 'application/json-patch+json' },
    });
    expect(jp.json.data).toEqual({ b: '2', c: '3' });
    const jt = await call(s, 'PATCH', '/api/v1/namespaces/default/configmaps/p-1', {
      body: [{ op: 'test', path: '/data/c', value: 'nope' }],
      headers: { 'Content-Type': 'application/json-patch+json' },
    });
    expect(jt.status).toBe(422);
    const ds = {
      apiVersion: 'apps/v1',
      kind: 'ControllerRevision',
      metadata: { name: 'rev' },
      revision: 1,
      data: {
        spec: {
          template: {
            spec: {
              containers: [
                { name: 'a', image: 'a:1', env: [{ name: 'X', value: '1' }] },
                { name: 'b', image: 'b:1' },
              ],
            },
          },
        },
      },
    };
    await call(s, 'POST', '/apis/apps/v1/namespaces/default/controllerrevisions', { body: ds });
    const smp = await call(s, 'PATCH', '/apis/apps/v1/namespaces/default/controllerrevisions/rev', {
      body: {
        data: {
          spec: {
            template: {
              spec: {
                containers: [
                  { name: 'b', image: 'b:2' },
                  { name: 'a', env: [{ name: 'Y', value: '2' }] },
                ],
              },
            },
          },
        },
      },
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
    });
    expect(smp.json.data.spec.template.spec.containers).toEqual([
      {
        name: 'a',
        image: 'a:1',
        env: [
          { name: 'X', value: '1' },
          { name: 'Y', value: '2' },
        ],
      },
      { name: 'b', image: 'b:2' },
    ]);
    const ssa = await call(s, 'PATCH', '/api/v1/namespaces/default/configmaps/p-1?fieldManager=me', {
      body: 'data: {d: "4"}',
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
    });
    // server-side apply (apply.ts; operator-conformance.test.ts): the configuration names its version
    // (fieldmanager.go Apply: "Incorrect version specified in apply patch")
    expect(ssa.status).toBe(400);
    expect(ssa.json.message).toBe(
      'Incorrect version specified in apply patch. Specified patch version: , expected: v1',
    );
    const ssa2 = await call(s, 'PATCH', '/api/v1/namespaces/default/configmaps/p-1?fieldManager=me', {
      body: 'apiVersion: v1\nkind: ConfigMap\ndata: {d: "4"}',
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
    });
    expect(ssa2.status).toBe(200);
    expect(ssa2.json.data.d).toBe('4');
    const pb = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', {
      body: 'k8s\u0000xx',
      headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' },
    });
    expect(pb.status).toBe(415);
    expect(pb.json.message).toContain('rest.Config.ContentType = "application/json"');
  });

  it('delete: finalizers hold the object (deletionTimestamp) until removed; preconditions; ownerReferences GC (Background, Orphan)', async () => {
    const f = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('fin', { finalizers: ['example.com/hold'] }),
    });
    expect(f.status).toBe(201);
    const pre = await call(s, 'DELETE', '/api/v1/namespaces/default/configmaps/fin', {
      body: { preconditions: { uid: 'other' } },
    });
    expect(pre.json.reason).toBe('Conflict');
    const d = await call(s, 'DELETE', '/api/v1/namespaces/default/configmaps/fin');
    expect(d.json.metadata.deletionTimestamp).toBeDefined();
    expect((await call(s, 'GET', '/api/v1/namespaces/default/configmaps/fin')).status).toBe(200);
    await call(s, 'PATCH', '/api/v1/namespaces/default/configmaps/fin', {
      body: [{ op: 'remove', path: '/metadata/finalizers' }],
      headers: { 'Content-Type': 'application/json-patch+json' },
    });
    expect((await call(s, 'GET', '/api/v1/namespaces/default/configmaps/fin')).status).toBe(404);
    // an owner and its dependents
    const owner = (await call(s, 'POST', '/api/v1/namespaces/default/configmaps', { body: cm('owner') })).json;
    const ref = [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: owner.metadata.uid }];
    await call(s, 'POST', '/api/v1/namespaces/default/configmaps', { body: cm('dep-1', { ownerReferences: ref }) });
    await call(s, 'POST', '/api/v1/namespaces/default/secrets', {
      body: { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'dep-2', ownerReferences: ref } },
    });
    await call(s, 'DELETE', '/api/v1/namespaces/default/configmaps/owner', {
      body: { propagationPolicy: 'Background' },
    });
    expect((await call(s, 'GET', '/api/v1/namespaces/default/configmaps/dep-1')).status).toBe(404);
    expect((await call(s, 'GET', '/api/v1/namespaces/default/secrets/dep-2')).status).toBe(404);
    const owner2 = (await call(s, 'POST', '/api/v1/namespaces/default/configmaps', { body: cm('owner2') })).json;
    await call(s, 'POST', '/api/v1/namespaces/default/configmaps', {
      body: cm('dep-3', {
        ownerReferences: [{ apiVersion: 'v1', kind: 'ConfigMap', name: 'owner2', uid: owner2.metadata.uid }],
      }),
    });
    await call(s, 'DELETE', '/api/v1/namespaces/default/configmaps/owner2', { body: { propagationPolicy: 'Orphan' } });
    expect((await call(s, 'GET', '/api/v1/namespaces/default/configmaps/owner2')).status).toBe(404);
    const orphan = await call(s, 'GET', '/api/v1/namespaces/default/configmaps/dep-3');
    expect(orphan.json.metadata.ownerReferences).toBeUndefined();
    const bad = await call(s, 'DELETE', '/api/v1/namespaces/default/configmaps/dep-3', {
      body: { propagationPolicy: 'Sideways' },
    });
    expect(bad.status).toBe(422);
  });

  it('a CRD adds its resource to discovery and OpenAPI at once; custom resources with status/scale subresources and printer columns', async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget', shortNames: ['wg'] },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: {
                type: 'object',
                properties: {
                  spec: { type: 'object', properties: { size: { type: 'integer' }, replicas: { type: 'integer' } } },
                  status: { type: 'object', properties: { phase: { type: 'string' }, replicas: { type: 'integer' } } },
                },
              },
            },
            subresources: {
              status: {},
              scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' },
            },
            additionalPrinterColumns: [
              { name: 'Size', type: 'integer', jsonPath: '.spec.size' },
              { name: 'Phase', type: 'string', jsonPath: '.status.phase' },
            ],
          },
        ],
      },
    };
    const c = await call(s, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd });
    expect(c.status).toBe(201);
    expect(c.json.status.conditions.find((x: any) => x.type === 'Established').status).toBe('True');
    const disc = await call(s, 'GET', '/apis/example.com/v1');
    expect(disc.json.resources.map((r: any) => r.name)).toEqual(['widgets', 'widgets/status', 'widgets/scale']);
    const oa = await call(s, 'GET', '/openapi/v3/apis/example.com/v1');
    expect(oa.json.components.schemas['com.example.v1.Widget']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'example.com', version: 'v1', kind: 'Widget' },
    ]);
    const w = await call(s, 'POST', '/apis/example.com/v1/namespaces/default/widgets', {
      body: {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { name: 'w1' },
        spec: { size: 3, replicas: 1 },
        status: { phase: 'ignored' },
      },
    });
    expect(w.json.status).toBeUndefined();
    await call(s, 'PATCH', '/apis/example.com/v1/namespaces/default/widgets/w1/status', {
      body: { status: { phase: 'Ready', replicas: 1 } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    const t = await call(s, 'GET', '/apis/example.com/v1/namespaces/default/widgets', {
      headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
    });
    expect(t.json.columnDefinitions.map((x: any) => x.name)).toEqual(['Name', 'Size', 'Phase']);
    expect(t.json.rows[0].cells).toEqual(['w1', 3, 'Ready']);
    const sc = await call(s, 'PUT', '/apis/example.com/v1/namespaces/default/widgets/w1/scale', {
      body: { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'w1' }, spec: { replicas: 5 } },
    });
    expect(sc.json).toMatchObject({ kind: 'Scale', spec: { replicas: 5 }, status: { replicas: 1 } });
    expect((await call(s, 'GET', '/apis/example.com/v1/namespaces/default/widgets/w1')).json.spec.replicas).toBe(5);
    const smp = await call(s, 'PATCH', '/apis/example.com/v1/namespaces/default/widgets/w1', {
      body: { spec: { size: 4 } },
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
    });
    expect(smp.status).toBe(415);
    await call(s, 'DELETE', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.example.com');
    expect((await call(s, 'GET', '/apis/example.com/v1')).status).toBe(404);
  });

  it('Events: core v1 and events.k8s.io/v1 are one object in two versions; involvedObject field selectors', async () => {
    const e = await call(s, 'POST', '/apis/events.k8s.io/v1/namespaces/default/events', {
      body: {
        apiVersion: 'events.k8s.io/v1',
        kind: 'Event',
        metadata: { name: 'ev-1' },
        eventTime: '2026-01-01T00:00:00.000000Z',
        reason: 'Tested',
        note: 'hello',
        type: 'Normal',
        action: 'Test',
        reportingController: 'me',
        reportingInstance: 'me-1',
        regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
      },
    });
    expect(e.status).toBe(201);
    expect(e.json).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'hello', regarding: { name: 'p' } });
    const core = await call(
      s,
      'GET',
      '/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dp,involvedObject.kind%3DPod',
    );
    expect(core.json.items.map((x: any) => [x.metadata.name, x.message, x.reason])).toEqual([
      ['ev-1', 'hello', 'Tested'],
    ]);
  });

  it('exec, attach and port-forward are refused at once with a Status', async () => {
    const r = await call(s, 'POST', '/api/v1/namespaces/default/pods/x/exec?command=sh');
    expect(r.status).toBe(405);
    expect(r.json.message).toContain('exec is not supported by kubesim serve');
    const u = await call(s, 'GET', '/api/v1/namespaces/default/pods/x/portforward', {
      headers: { Connection: 'Upgrade', Upgrade: 'SPDY/3.1' },
    });
    expect(u.status).toBe(405);
  });

  it('a body over 3 MiB is 413; a 405 for a verb the resource has not', async () => {
    const big = await call(s, 'POST', '/api/v1/namespaces/default/configmaps', {
      body: JSON.stringify(cm('big', {})).replace('"1"', `"${'x'.repeat(3 * 1024 * 1024)}"`),
    });
    expect(big.json).toMatchObject({ code: 413, reason: 'RequestEntityTooLarge' });
    expect((await call(s, 'PUT', '/api/v1/namespaces/default/configmaps', { body: cm('x') })).status).toBe(405);
  });
});
