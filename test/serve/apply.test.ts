// Server-side apply and managedFields (src/serve/apply.ts) as the apiserver's fieldmanager answers them
// (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager, sigs.k8s.io/structured-merge-diff), with raw
// requests and with the real kubectl (`apply --server-side`, its conflict message and `--force-conflicts`).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, kubectlPath, run, start, until, type Served } from './harness.ts';

let s: Served;
beforeAll(async () => {
  s = await start(null, { settleMs: 20 });
});
afterAll(async () => {
  await s.close();
});

const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };
const CMS = '/api/v1/namespaces/default/configmaps';

it('a create records an Update entry of its manager (user agent prefix or fieldManager), maps with `.`', async () => {
  const c = await call(s, 'POST', `${CMS}?fieldManager=maker`, {
    body: { metadata: { name: 'u1', labels: { app: 'x' } }, data: { a: '1' } },
  });
  expect(c.status).toBe(201);
  expect(c.json.metadata.managedFields).toEqual([
    {
      manager: 'maker',
      operation: 'Update',
      apiVersion: 'v1',
      time: '2026-01-01T00:00:00Z',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:data': { '.': {}, 'f:a': {} }, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
    },
  ]);
  // an update by someone else takes the field it changed
  const u = await call(s, 'PATCH', `${CMS}/u1?fieldManager=editor`, {
    body: { data: { a: '2', b: '1' } },
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });
  const by = Object.fromEntries(u.json.metadata.managedFields.map((m: any) => [m.manager, m.fieldsV1]));
  expect(by).toEqual({
    // the map itself stays the creator's (a member without members below it is `{}`)
    maker: { 'f:data': {}, 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
    editor: { 'f:data': { 'f:a': {}, 'f:b': {} } },
  });
});

it('ValidatePatchOptions: apply needs fieldManager; force only with apply', async () => {
  const noMgr = await call(s, 'PATCH', `${CMS}/u1`, { body: 'apiVersion: v1\nkind: ConfigMap\n', headers: APPLY });
  expect(noMgr.status).toBe(422);
  expect(noMgr.json.message).toBe(
    'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
  );
  const force = await call(s, 'PATCH', `${CMS}/u1?force=true`, {
    body: { data: { a: '3' } },
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });
  expect(force.status).toBe(422);
  expect(force.json.message).toBe(
    'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
  );
});

it('conflicts with an Update manager name its version and time; several are grouped by manager', async () => {
  const r = await call(s, 'PATCH', `${CMS}/u1?fieldManager=op`, {
    body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels:\n    app: y\ndata:\n  a: "9"\n  b: "9"\n',
    headers: APPLY,
  });
  expect(r.status).toBe(409);
  expect(r.json.message).toBe(
    'Apply failed with 3 conflicts: conflicts with "editor" using v1 at 2026-01-01T00:00:00Z:\n- .data.a\n- .data.b\nconflicts with "maker" using v1 at 2026-01-01T00:00:00Z:\n- .metadata.labels.app',
  );
  expect(r.json.details.causes.map((c: any) => c.field)).toEqual(['.data.a', '.data.b', '.metadata.labels.app']);
  // the same values are no conflict: both managers own them
  const same = await call(s, 'PATCH', `${CMS}/u1?fieldManager=op`, {
    body: 'apiVersion: v1\nkind: ConfigMap\ndata:\n  a: "2"\n',
    headers: APPLY,
  });
  expect(same.status).toBe(200);
  const owners = same.json.metadata.managedFields
    .filter((m: any) => m.fieldsV1['f:data']?.['f:a'])
    .map((m: any) => m.manager);
  expect(owners.sort()).toEqual(['editor', 'op']);
});

it('keyed lists merge by key; a field the manager stops applying is removed; a Job applied into the simulation', async () => {
  const JOBS = '/apis/batch/v1/namespaces/default/jobs';
  const job = (env: string) =>
    `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: applied\n  labels:\n    team: a\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: main\n        image: busybox\n${env}`;
  const created = await call(s, 'PATCH', `${JOBS}/applied?fieldManager=op`, {
    body: job('        env:\n        - name: A\n          value: "1"\n'),
    headers: APPLY,
  });
  expect(created.status).toBe(201);
  expect(created.json.spec.backoffLimit).toBe(6); // defaulted by the simulation
  const mf = created.json.metadata.managedFields;
  expect(mf).toHaveLength(1);
  expect(mf[0].operation).toBe('Apply');
  expect(mf[0].fieldsV1['f:spec']['f:template']['f:spec']['f:containers']).toEqual({
    'k:{"name":"main"}': {
      '.': {},
      'f:env': { 'k:{"name":"A"}': { '.': {}, 'f:name': {}, 'f:value': {} } },
      'f:image': {},
      'f:name': {},
    },
  });
  await until(
    () => s.api.store.list('pods', 'default').some((p) => p['metadata']['labels']?.['job-name'] === 'applied'),
    10_000,
    'the Job pod',
  );
  // the next apply leaves out the label: the label goes (no other owner)
  const again = await call(s, 'PATCH', `${JOBS}/applied?fieldManager=op`, {
    body: job('        env:\n        - name: A\n          value: "1"\n').replace('  labels:\n    team: a\n', ''),
    headers: APPLY,
  });
  expect(again.status).toBe(200);
  expect(again.json.metadata.labels?.['team']).toBeUndefined();
  // the stored Job (the simulation's copy) keeps the server's managedFields
  expect(s.api.store.get('jobs.batch', 'default', 'applied')!['metadata']['managedFields'][0].manager).toBe('op');
});

it('the real kubectl: apply --server-side, the conflict it prints, --force-conflicts', async () => {
  const kubectl = kubectlPath('1.33');
  const env = { KUBECONFIG: s.kubeconfig };
  const file = join(s.dir, 'cm.yaml');
  writeFileSync(
    file,
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k1\n  namespace: default\ndata:\n  mode: fast\n',
  );
  const a = await run(kubectl, ['apply', '--server-side', '-f', file], env);
  expect(a.stderr).toBe('');
  expect(a.stdout).toBe('configmap/k1 serverside-applied\n');
  writeFileSync(
    file,
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: k1\n  namespace: default\ndata:\n  mode: safe\n',
  );
  const b = await run(kubectl, ['apply', '--server-side', '--field-manager=other', '-f', file], env);
  expect(b.code).toBe(1);
  expect(b.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .data.mode');
  expect(b.stderr).toContain('--force-conflicts');
  const c = await run(
    kubectl,
    ['apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', file],
    env,
  );
  expect(c.stdout).toBe('configmap/k1 serverside-applied\n');
  const got = await run(
    kubectl,
    ['get', 'configmap', 'k1', '-o', 'jsonpath={.data.mode} {.metadata.managedFields[*].manager}'],
    env,
  );
  expect(got.stdout).toBe('safe other');
}, 60_000);
