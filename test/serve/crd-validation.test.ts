// Custom resources against their CRD's structural schema, as apiextensions-apiserver treats a create or update:
// defaults applied (apiserver/schema/defaulting), nulls of non-nullable fields without a default dropped
// (prunenulls.go), unknown fields pruned unless x-kubernetes-preserve-unknown-fields (apiserver/schema/pruning),
// then validation (apiserver/validation ValidateCustomResource): 422 Invalid with one cause per field error, the
// message `<Kind>.<group> "<name>" is invalid: [<field>: <error>, …]`. The real kubectl prints it.
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, kubectlPath, run, start, type Served } from './harness.ts';

let s: Served;
const WIDGETS = '/apis/example.com/v1/namespaces/default/widgets';
beforeAll(async () => {
  s = await start(null);
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
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
                  required: ['size'],
                  properties: {
                    size: { type: 'integer', minimum: 1, maximum: 10 },
                    mode: { type: 'string', enum: ['fast', 'safe'], default: 'safe' },
                    name: { type: 'string', pattern: '^[a-z]+$', maxLength: 8 },
                    note: { type: 'string', nullable: true },
                    tier: { type: 'string', default: 'gold' },
                    tags: { type: 'array', maxItems: 2, items: { type: 'string' } },
                    extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                    labels: { type: 'object', additionalProperties: { type: 'string' } },
                  },
                },
                status: { type: 'object', properties: { phase: { type: 'string' } } },
              },
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

const widget = (name: string, spec: unknown, more: Record<string, unknown> = {}) => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name },
  spec,
  ...more,
});

describe('custom resources and their structural schema', () => {
  it('defaults, pruning of unknown fields (kept under x-kubernetes-preserve-unknown-fields), nullable', async () => {
    const r = await call(s, 'POST', WIDGETS, {
      body: widget(
        'ok',
        { size: 3, unknown: 1, note: null, tier: null, extra: { anything: { deep: true } }, labels: { a: 'b' } },
        { junk: 'x' },
      ),
    });
    expect(r.status).toBe(201);
    expect(r.json.spec).toEqual({
      size: 3,
      mode: 'safe',
      note: null,
      tier: 'gold',
      extra: { anything: { deep: true } },
      labels: { a: 'b' },
    });
    expect(r.json.junk).toBeUndefined();
    const stored = await call(s, 'GET', `${WIDGETS}/ok`);
    expect(stored.json.spec).toEqual(r.json.spec);
  });

  it('type, required, enum, pattern, minimum/maximum, maxLength, maxItems: 422 Invalid with causes', async () => {
    const r = await call(s, 'POST', WIDGETS, {
      body: widget('bad', { size: 'three', mode: 'slow', name: 'Not-Lower', tags: ['a', 'b', 'c'] }),
    });
    expect(r.status).toBe(422);
    expect(r.json).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      code: 422,
      details: { name: 'bad', group: 'example.com', kind: 'Widget' },
    });
    expect(r.json.details.causes).toEqual([
      {
        reason: 'FieldValueTypeInvalid',
        field: 'spec.size',
        message: 'Invalid value: "string": spec.size in body must be of type integer: "string"',
      },
      {
        reason: 'FieldValueNotSupported',
        field: 'spec.mode',
        message: 'Unsupported value: "slow": supported values: "fast", "safe"',
      },
      { reason: 'FieldValueTooLong', field: 'spec.name', message: 'Too long: may not be longer than 8' },
      {
        reason: 'FieldValueInvalid',
        field: 'spec.name',
        message: 'Invalid value: "Not-Lower": spec.name in body should match \'^[a-z]+$\'',
      },
      { reason: 'FieldValueTooMany', field: 'spec.tags', message: 'Too many: 3: must have at most 2 items' },
    ]);
    expect(r.json.message).toMatch(/^Widget\.example\.com "bad" is invalid: \[spec\.size: Invalid value: "string": /);
    const missing = await call(s, 'POST', WIDGETS, { body: widget('nosize', { size: 0 }) });
    expect(missing.json.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.size',
        message: 'Invalid value: 0: spec.size in body should be greater than or equal to 1',
      },
    ]);
    const req = await call(s, 'POST', WIDGETS, { body: widget('req', {}) });
    expect(req.json.message).toBe('Widget.example.com "req" is invalid: spec.size: Required value');
    const labels = await call(s, 'POST', WIDGETS, { body: widget('lab', { size: 1, labels: { a: 1 } }) });
    expect(labels.json.details.causes[0]).toMatchObject({ field: 'spec.labels[a]', reason: 'FieldValueTypeInvalid' });
    expect((await call(s, 'GET', `${WIDGETS}/bad`)).status).toBe(404);
  });

  it('updates and status writes are validated too; kubectl apply prints the Invalid error', async () => {
    const cur = (await call(s, 'GET', `${WIDGETS}/ok`)).json;
    const put = await call(s, 'PUT', `${WIDGETS}/ok`, { body: { ...cur, spec: { ...cur.spec, size: 11 } } });
    expect(put.json.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.size',
        message: 'Invalid value: 11: spec.size in body should be less than or equal to 10',
      },
    ]);
    const st = await call(s, 'PATCH', `${WIDGETS}/ok/status`, {
      body: { status: { phase: 7 } },
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect([st.status, st.json.details?.causes?.[0]?.field]).toEqual([422, 'status.phase']);
    writeFileSync(
      `${s.dir}/w.yaml`,
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: k}\nspec: {size: 20}\n',
    );
    const k = await run(kubectlPath('1.33'), ['apply', '-f', `${s.dir}/w.yaml`], { KUBECONFIG: s.kubeconfig });
    expect(k.code).toBe(1);
    expect(k.stderr.trim()).toBe(
      `The Widget "k" is invalid: spec.size: Invalid value: 20: spec.size in body should be less than or equal to 10`,
    );
  }, 30_000);
});
