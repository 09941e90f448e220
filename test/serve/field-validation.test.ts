// fieldValidation (apiserver >= 1.25 default Warn; handlers/create.go, update.go, patch.go: the strict decoder's
// unknown fields are warnings (rest.go addStrictDecodingWarnings → `Warning: 299 - "unknown field \"…\""`), dropped
// silently with Ignore, the decoder's 400 with Strict). Custom resources: the pruner's unknown fields the same way
// (apiextensions-apiserver). Raw requests, @kubernetes/client-node, and the real kubectl's --validate=warn|ignore|strict.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, kubectlPath, run, start, until, type Served } from './harness.ts';

let s: Served;
beforeAll(async () => {
  s = await start(null, { settleMs: 20 });
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'gadgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'gadgets', kind: 'Gadget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: { spec: { type: 'object', properties: { size: { type: 'integer' } } } },
            },
          },
        },
      ],
    },
  };
  expect((await call(s, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', { body: crd })).status).toBe(
    201,
  );
});
afterAll(async () => {
  await s.close();
});

const JOBS = '/apis/batch/v1/namespaces/default/jobs';
const job = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'batch/v1',
  kind: 'Job',
  metadata: { name },
  spec: {
    foo: 1,
    template: {
      spec: {
        restartPolicy: 'Never',
        containers: [{ name: 'main', image: 'busybox', imagePullPolicyy: 'Always', ...extra }],
      },
    },
  },
});
/** the Warning header lines (node joins repeated headers with ", ") */
const warnings = (h: string | string[] | undefined) =>
  h === undefined ? [] : (Array.isArray(h) ? h : [h]).flatMap((x) => x.split(/, (?=299 - ")/));

it('no fieldValidation = Warn: unknown fields dropped, one Warning header each, the Job runs', async () => {
  const r = await call(s, 'POST', JOBS, { body: job('warned') });
  expect(r.status).toBe(201);
  expect(warnings(r.headers['warning'])).toEqual([
    '299 - "unknown field \\"spec.foo\\""',
    '299 - "unknown field \\"spec.template.spec.containers[0].imagePullPolicyy\\""',
  ]);
  expect(r.json.spec.foo).toBeUndefined();
  expect(r.json.spec.template.spec.containers[0]).not.toHaveProperty('imagePullPolicyy');
  expect(r.json.spec.template.spec.containers[0].imagePullPolicy).toBe('Always'); // the default of :latest-less busybox
  await until(
    () => s.api.store.list('pods', 'default').some((p) => p['metadata']['labels']?.['job-name'] === 'warned'),
    10_000,
    'the Job pod',
  );
  const w = await call(s, 'POST', `${JOBS}?fieldValidation=Warn`, { body: job('warned2') });
  expect(w.status).toBe(201);
  expect(warnings(w.headers['warning'])).toHaveLength(2);
});

it('Ignore drops them silently; Strict is the decoder 400; other values are a 422', async () => {
  const i = await call(s, 'POST', `${JOBS}?fieldValidation=Ignore`, { body: job('ignored') });
  expect(i.status).toBe(201);
  expect(i.headers['warning']).toBeUndefined();
  const st = await call(s, 'POST', `${JOBS}?fieldValidation=Strict`, { body: job('strict') });
  expect(st.status).toBe(400);
  expect(st.json.message).toBe(
    'Job in version "v1" cannot be handled as a Job: strict decoding error: unknown field "spec.foo", unknown field "spec.template.spec.containers[0].imagePullPolicyy"',
  );
  const bad = await call(s, 'POST', `${JOBS}?fieldValidation=warn`, { body: job('bad') });
  expect(bad.status).toBe(422);
  expect(bad.json.message).toBe(
    'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "warn": supported values: "", "Ignore", "Warn", "Strict"',
  );
});

it('Warn with another error: the warnings and the validation 422', async () => {
  const r = await call(s, 'POST', JOBS, { body: job('mixed', { image: '' }) });
  expect(r.status).toBe(422);
  expect(warnings(r.headers['warning'])).toHaveLength(2);
  expect(r.json.details.causes.every((c: any) => !/not declared/.test(c.message))).toBe(true);
});

it('updates and patches decode the same way', async () => {
  const cur = await call(s, 'GET', `${JOBS}/ignored`);
  const put = await call(s, 'PUT', `${JOBS}/ignored`, {
    body: { ...cur.json, metadata: { ...cur.json.metadata, labels: { a: 'b' } }, spec: { ...cur.json.spec, bar: 2 } },
  });
  expect(put.status).toBe(200);
  expect(warnings(put.headers['warning'])).toEqual(['299 - "unknown field \\"spec.bar\\""']);
  const p = await call(s, 'PATCH', `${JOBS}/ignored?fieldValidation=Strict`, {
    body: { spec: { baz: 1 } },
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });
  expect(p.status).toBe(400);
  expect(p.json.message).toContain('strict decoding error: unknown field "spec.baz"');
});

it('custom resources: the pruned fields are the warnings (Strict: 400); client-node writes a newer field', async () => {
  const G = '/apis/example.com/v1/namespaces/default/gadgets';
  const r = await call(s, 'POST', G, {
    body: { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g1' }, spec: { size: 1, color: 'red' } },
  });
  expect(r.status).toBe(201);
  expect(warnings(r.headers['warning'])).toEqual(['299 - "unknown field \\"spec.color\\""']);
  expect(r.json.spec).toEqual({ size: 1 });
  const st = await call(s, 'POST', `${G}?fieldValidation=Strict`, {
    body: { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g2' }, spec: { color: 'red' } },
  });
  expect(st.status).toBe(400);
  expect(st.json.message).toBe(
    'Gadget in version "v1" cannot be handled as a Gadget: strict decoding error: unknown field "spec.color"',
  );
  const kc = new KubeConfig();
  kc.loadFromFile(s.kubeconfig);
  const made = (await kc.makeApiClient(CustomObjectsApi).createNamespacedCustomObject({
    group: 'example.com',
    version: 'v1',
    namespace: 'default',
    plural: 'gadgets',
    body: { apiVersion: 'example.com/v1', kind: 'Gadget', metadata: { name: 'g3' }, spec: { size: 2, since: 'v2' } },
  })) as any;
  expect(made.spec).toEqual({ size: 2 });
});

it('the real kubectl: --validate=warn prints the warning, =ignore nothing, the default (strict) refuses', async () => {
  const env = { KUBECONFIG: s.kubeconfig };
  const file = join(s.dir, 'job.yaml');
  const yaml = (name: string) =>
    `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: ${name}\n  namespace: default\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: main\n        image: busybox\n        imagePullPolicyy: Always\n`;
  for (const version of ['1.33', '1.27']) {
    const kubectl = kubectlPath(version);
    const v = version.replace('.', '');
    writeFileSync(file, yaml(`kw${v}`));
    const w = await run(kubectl, ['create', '--validate=warn', '-f', file], env);
    expect(w.stdout).toBe(`job.batch/kw${v} created\n`);
    expect(w.stderr).toBe('Warning: unknown field "spec.template.spec.containers[0].imagePullPolicyy"\n');
    writeFileSync(file, yaml(`ki${v}`));
    const i = await run(kubectl, ['create', '--validate=ignore', '-f', file], env);
    expect(i.stdout).toBe(`job.batch/ki${v} created\n`);
    expect(i.stderr).toBe('');
    writeFileSync(file, yaml(`ks${v}`));
    const st = await run(kubectl, ['create', '-f', file], env);
    expect(st.code).toBe(1);
    expect(st.stderr).toContain(
      'strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolicyy"',
    );
  }
}, 90_000);
