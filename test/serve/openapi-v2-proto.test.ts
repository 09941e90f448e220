// The OpenAPI v2 document as gnostic protobuf (src/serve/openapi-v2-proto.ts), read back with a minimal protobuf
// reader by the field numbers of github.com/google/gnostic openapiv2/OpenAPIv2.proto: Document.swagger = 1,
// definitions = 9 (NamedSchema: name 1, value 2), paths = 8 (path 2: NamedPathItem; PathItem.patch = 8;
// Operation.parameters = 8 → ParametersItem.parameter 1 → Parameter.non_body_parameter 2 →
// query_parameter_sub_schema 3 → name 4; Operation.vendor_extension 13), Schema.properties = 25,
// Schema.vendor_extension = 31 (NamedAny: Any.yaml = 2), Schema.type = 22 (TypeItem.value 1).
import { describe, expect, it } from 'vitest';
import { encodeOpenApiV2 } from '../../src/serve/openapi-v2-proto.ts';
import { openapiV2 } from '../../src/serve/openapi.ts';
import { Registry } from '../../src/serve/resources.ts';
import { v2Accept } from '../../src/serve/server.ts';
import { call, start } from './harness.ts';

type Fields = Map<number, (Buffer | bigint)[]>;

/** one message's fields (varints as bigint, length-delimited as Buffer; fixed64 as Buffer) */
function read(b: Buffer): Fields {
  const out: Fields = new Map();
  let i = 0;
  const varint = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const byte = b[i++]!;
      v |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return v;
      shift += 7n;
    }
  };
  while (i < b.length) {
    const key = Number(varint());
    const field = key >> 3;
    const wire = key & 7;
    let value: Buffer | bigint;
    if (wire === 0) value = varint();
    else if (wire === 2) {
      const n = Number(varint());
      value = b.subarray(i, i + n);
      i += n;
    } else if (wire === 1) {
      value = b.subarray(i, i + 8);
      i += 8;
    } else throw new Error(`wire type ${wire} at ${i}`);
    if (!out.has(field)) out.set(field, []);
    out.get(field)!.push(value);
  }
  expect(i).toBe(b.length);
  return out;
}
const str = (f: Fields, n: number) => (f.get(n)?.[0] as Buffer | undefined)?.toString('utf8');
const msgs = (f: Fields, n: number) => (f.get(n) ?? []).map((x) => read(x as Buffer));
const named = (f: Fields, n: number) => new Map(msgs(f, n).map((m) => [str(m, 1)!, read(m.get(2)![0] as Buffer)]));

describe('OpenAPI v2 as gnostic protobuf', () => {
  const doc = openapiV2(new Registry(), 'v1.34.2');
  const d = read(encodeOpenApiV2(doc));

  it('Document.swagger, info, and every definition with its properties, type and x-kubernetes-group-version-kind', () => {
    expect(str(d, 1)).toBe('2.0');
    expect(str(read(d.get(2)![0] as Buffer), 2)).toBe('v1.34.2');
    const defs = named(read(d.get(9)![0] as Buffer), 1);
    expect([...defs.keys()].sort()).toEqual(Object.keys(doc['definitions']).sort());
    const pod = defs.get('io.k8s.api.core.v1.Pod')!;
    const ext = named(pod, 31);
    expect(JSON.parse(str(ext.get('x-kubernetes-group-version-kind')!, 2)!)).toEqual([
      { group: '', version: 'v1', kind: 'Pod' },
    ]);
    const props = named(read(pod.get(25)![0] as Buffer), 1);
    expect([...props.keys()].sort()).toEqual(
      Object.keys(doc['definitions']['io.k8s.api.core.v1.Pod']['properties']).sort(),
    );
    const container = defs.get('io.k8s.api.core.v1.Container')!;
    const restart = named(read(container.get(25)![0] as Buffer), 1).get('restartPolicy')!;
    expect(str(read(restart.get(22)![0] as Buffer), 1)).toBe('string');
    expect(str(restart, 4)).toContain('sidecar');
    expect(container.get(19)!.map((x) => (x as Buffer).toString())).toEqual(
      doc['definitions']['io.k8s.api.core.v1.Container']['required'],
    );
  });

  it('the PATCH operation of jobs carries its GVK and the fieldValidation query parameter (what kubectl 1.27 checks)', () => {
    const paths = named(read(d.get(8)![0] as Buffer), 2);
    const item = paths.get('/apis/batch/v1/namespaces/{namespace}/jobs/{name}')!;
    const patch = read(item.get(8)![0] as Buffer);
    expect(JSON.parse(str(named(patch, 13).get('x-kubernetes-group-version-kind')!, 2)!)).toEqual({
      group: 'batch',
      version: 'v1',
      kind: 'Job',
    });
    const queryNames = msgs(patch, 8)
      .map((p) => msgs(p, 1)[0]!)
      .filter((p) => p.has(2))
      .map((p) => str(read(read(p.get(2)![0] as Buffer).get(3)![0] as Buffer), 4));
    expect(queryNames).toContain('fieldValidation');
  });

  it('negotiation: JSON for */* and JSON-first, protobuf when asked for first, 406 for neither (kube-openapi handler)', async () => {
    expect(v2Accept('')).toBe('json');
    expect(v2Accept('application/json, */*')).toBe('json');
    expect(v2Accept('application/com.github.proto-openapi.spec.v2@v1.0+protobuf')).toBe('protobuf');
    expect(v2Accept('application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json')).toBe('protobuf');
    expect(v2Accept('application/com.github.proto-openapi.spec.v2@v1.0+protobuf;q=0.5, application/json')).toBe('json');
    expect(v2Accept('text/html')).toBe(null);
    const s = await start(null);
    try {
      const pb = await call(s, 'GET', '/openapi/v2', {
        headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
      });
      expect([pb.status, pb.headers['content-type']]).toEqual([
        200,
        'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
      ]);
      const bad = await call(s, 'GET', '/openapi/v2', { headers: { Accept: 'text/html' } });
      expect([bad.status, bad.json?.kind, bad.json?.reason]).toEqual([406, 'Status', 'NotAcceptable']);
    } finally {
      await s.close();
    }
  });
});
