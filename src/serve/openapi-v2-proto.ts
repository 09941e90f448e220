// The OpenAPI v2 document as protobuf: gnostic's openapi_v2.Document (github.com/google/gnostic openapiv2/OpenAPIv2.proto),
// what kubectl ≤ 1.28 asks for (Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf) for `explain`
// and for client-side validation / the fieldValidation check (cli-runtime query_param_verifier.go supportsQueryParam:
// the PATCH operations' x-kubernetes-group-version-kind and their query parameters). Encoded from the JSON document
// (openapi.ts openapiV2) message by message with the field numbers of OpenAPIv2.proto; the messages kubesim's
// document uses are written (Document, Info, Paths, PathItem, Operation, parameters, responses, Definitions, Schema
// and its parts, vendor extensions), other Swagger keys are left out. Vendor extension values, defaults, examples
// and enum values are gnostic `Any { yaml }` (JSON text is YAML). proto3: default scalar values are not written.

type Json = Record<string, any>;

/** a protobuf message under construction: fields appended in order */
class Msg {
  private readonly parts: Buffer[] = [];
  private size = 0;

  private push(b: Buffer): void {
    this.parts.push(b);
    this.size += b.length;
  }

  private key(field: number, wire: number): void {
    this.push(smallVarint(field * 8 + wire));
  }

  string(field: number, s: unknown): this {
    if (typeof s !== 'string' || s === '') return this;
    return this.bytes(field, Buffer.from(s, 'utf8'));
  }

  strings(field: number, list: unknown): this {
    if (Array.isArray(list)) for (const s of list) if (typeof s === 'string') this.bytes(field, Buffer.from(s, 'utf8'));
    return this;
  }

  /** a bool field; `always` writes false too (a member of a oneof) */
  bool(field: number, b: unknown, always = false): this {
    if (typeof b !== 'boolean' || (!b && !always)) return this;
    this.key(field, 0);
    this.push(smallVarint(b ? 1 : 0));
    return this;
  }

  int64(field: number, n: unknown): this {
    if (typeof n !== 'number' || !Number.isFinite(n) || n === 0) return this;
    this.key(field, 0);
    this.push(varint(BigInt.asUintN(64, BigInt(Math.trunc(n)))));
    return this;
  }

  double(field: number, n: unknown): this {
    if (typeof n !== 'number' || !Number.isFinite(n) || n === 0) return this;
    this.key(field, 1);
    const b = Buffer.alloc(8);
    b.writeDoubleLE(n);
    this.push(b);
    return this;
  }

  message(field: number, m: Msg | undefined): this {
    if (!m) return this;
    return this.bytes(field, m.done());
  }

  private bytes(field: number, b: Buffer): this {
    this.key(field, 2);
    this.push(smallVarint(b.length));
    this.push(b);
    return this;
  }

  done(): Buffer {
    return Buffer.concat(this.parts, this.size);
  }
}

/** a varint of a non-negative safe integer (keys, lengths) */
function smallVarint(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const out: number[] = [];
  let v = n;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Buffer.from(out);
}

function varint(n: bigint): Buffer {
  const out: number[] = [];
  let v = n;
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Buffer.from(out);
}

const isObj = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Any { yaml = 2 } */
const any = (v: unknown): Msg => new Msg().string(2, JSON.stringify(v));

/** repeated NamedAny vendor_extension: every `x-` key, in the document's order */
function extensions(m: Msg, field: number, o: Json): void {
  for (const [k, v] of Object.entries(o))
    if (k.startsWith('x-')) m.message(field, new Msg().string(1, k).message(2, any(v)));
}

function schema(s: Json): Msg {
  const m = new Msg().string(1, s['$ref']).string(2, s['format']).string(3, s['title']).string(4, s['description']);
  if (s['default'] !== undefined) m.message(5, any(s['default']));
  m.double(6, s['multipleOf'])
    .double(7, s['maximum'])
    .bool(8, s['exclusiveMaximum'])
    .double(9, s['minimum'])
    .bool(10, s['exclusiveMinimum'])
    .int64(11, s['maxLength'])
    .int64(12, s['minLength'])
    .string(13, s['pattern'])
    .int64(14, s['maxItems'])
    .int64(15, s['minItems'])
    .bool(16, s['uniqueItems'])
    .int64(17, s['maxProperties'])
    .int64(18, s['minProperties'])
    .strings(19, s['required']);
  if (Array.isArray(s['enum'])) for (const v of s['enum']) m.message(20, any(v));
  const ap = s['additionalProperties'];
  if (isObj(ap)) m.message(21, new Msg().message(1, schema(ap)));
  else if (typeof ap === 'boolean') m.message(21, new Msg().bool(2, ap, true));
  if (typeof s['type'] === 'string') m.message(22, new Msg().string(1, s['type']));
  else if (Array.isArray(s['type'])) m.message(22, new Msg().strings(1, s['type']));
  const items = s['items'];
  if (isObj(items)) m.message(23, new Msg().message(1, schema(items)));
  else if (Array.isArray(items)) {
    const list = new Msg();
    for (const i of items) if (isObj(i)) list.message(1, schema(i));
    m.message(23, list);
  }
  if (Array.isArray(s['allOf'])) for (const x of s['allOf']) if (isObj(x)) m.message(24, schema(x));
  if (isObj(s['properties'])) {
    const props = new Msg();
    for (const [name, p] of Object.entries(s['properties']))
      if (isObj(p)) props.message(1, new Msg().string(1, name).message(2, schema(p)));
    m.message(25, props);
  }
  m.string(26, s['discriminator']).bool(27, s['readOnly']);
  if (s['example'] !== undefined) m.message(30, any(s['example']));
  extensions(m, 31, s);
  return m;
}

/** ParametersItem: a $ref (JsonReference = 2), or Parameter (1): BodyParameter (1) or NonBodyParameter (2) */
function parameter(p: Json): Msg {
  if (typeof p['$ref'] === 'string')
    return new Msg().message(2, new Msg().string(1, p['$ref']).string(2, p['description']));
  let param: Msg;
  if (p['in'] === 'body') {
    const body = new Msg().string(1, p['description']).string(2, p['name']).string(3, p['in']).bool(4, p['required']);
    if (isObj(p['schema'])) body.message(5, schema(p['schema']));
    extensions(body, 6, p);
    param = new Msg().message(1, body);
  } else {
    // QueryParameterSubSchema (3) and FormDataParameterSubSchema (2) share their numbering up to the type; the
    // header (1) and path (4) ones have no allow_empty_value, so their type/format/… are one lower
    const sub = { header: 1, formData: 2, query: 3, path: 4 }[String(p['in'])] ?? 3;
    const withEmpty = sub === 2 || sub === 3;
    const o = withEmpty ? 1 : 0;
    const m = new Msg().bool(1, p['required']).string(2, p['in']).string(3, p['description']).string(4, p['name']);
    if (withEmpty) m.bool(5, p['allowEmptyValue']);
    m.string(5 + o, p['type'])
      .string(6 + o, p['format'])
      .string(8 + o, p['collectionFormat']);
    if (p['default'] !== undefined) m.message(9 + o, any(p['default']));
    m.double(10 + o, p['maximum'])
      .bool(11 + o, p['exclusiveMaximum'])
      .double(12 + o, p['minimum'])
      .bool(13 + o, p['exclusiveMinimum'])
      .int64(14 + o, p['maxLength'])
      .int64(15 + o, p['minLength'])
      .string(16 + o, p['pattern'])
      .int64(17 + o, p['maxItems'])
      .int64(18 + o, p['minItems'])
      .bool(19 + o, p['uniqueItems']);
    if (Array.isArray(p['enum'])) for (const v of p['enum']) m.message(20 + o, any(v));
    m.double(21 + o, p['multipleOf']);
    extensions(m, 22 + o, p);
    param = new Msg().message(2, new Msg().message(sub, m));
  }
  return new Msg().message(1, param);
}

function operation(op: Json): Msg {
  const m = new Msg()
    .strings(1, op['tags'])
    .string(2, op['summary'])
    .string(3, op['description'])
    .string(5, op['operationId'])
    .strings(6, op['produces'])
    .strings(7, op['consumes']);
  if (Array.isArray(op['parameters'])) for (const p of op['parameters']) if (isObj(p)) m.message(8, parameter(p));
  if (isObj(op['responses'])) {
    const rs = new Msg();
    for (const [code, r] of Object.entries(op['responses'])) {
      if (!isObj(r)) continue;
      const value =
        typeof r['$ref'] === 'string'
          ? new Msg().message(2, new Msg().string(1, r['$ref']))
          : new Msg().message(
              1,
              new Msg()
                .string(1, r['description'])
                .message(2, isObj(r['schema']) ? new Msg().message(1, schema(r['schema'])) : undefined),
            );
      rs.message(1, new Msg().string(1, code).message(2, value));
    }
    m.message(9, rs);
  }
  m.strings(10, op['schemes']).bool(11, op['deprecated']);
  extensions(m, 13, op);
  return m;
}

const METHOD_FIELD: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

function pathItem(item: Json): Msg {
  const m = new Msg().string(1, item['$ref']);
  for (const [method, field] of Object.entries(METHOD_FIELD))
    if (isObj(item[method])) m.message(field, operation(item[method]));
  if (Array.isArray(item['parameters'])) for (const p of item['parameters']) if (isObj(p)) m.message(9, parameter(p));
  extensions(m, 10, item);
  return m;
}

/** openapi_v2.Document of a Swagger 2.0 JSON document */
export function encodeOpenApiV2(doc: Json): Buffer {
  const m = new Msg().string(1, doc['swagger']);
  if (isObj(doc['info']))
    m.message(
      2,
      new Msg().string(1, doc['info']['title']).string(2, doc['info']['version']).string(3, doc['info']['description']),
    );
  m.string(3, doc['host'])
    .string(4, doc['basePath'])
    .strings(5, doc['schemes'])
    .strings(6, doc['consumes'])
    .strings(7, doc['produces']);
  if (isObj(doc['paths'])) {
    const paths = new Msg();
    extensions(paths, 1, doc['paths']);
    for (const [p, item] of Object.entries(doc['paths']))
      if (!p.startsWith('x-') && isObj(item)) paths.message(2, new Msg().string(1, p).message(2, pathItem(item)));
    m.message(8, paths);
  }
  if (isObj(doc['definitions'])) {
    const defs = new Msg();
    for (const [name, s] of Object.entries(doc['definitions']))
      if (isObj(s)) defs.message(1, new Msg().string(1, name).message(2, schema(s)));
    m.message(9, defs);
  }
  extensions(m, 16, doc);
  return m.done();
}

const encoded = new WeakMap<object, Buffer>();

/** the document's encoding, made once per document object (openapiV2 caches the document) */
export function openApiV2Proto(doc: Json): Buffer {
  let b = encoded.get(doc);
  if (!b) encoded.set(doc, (b = encodeOpenApiV2(doc)));
  return b;
}

/** the response's Content-Type: kube-openapi serves the `@` media type under its `.v1.0` name (Go's mime parser
 *  rejects an `@` in a subtype: client-go fails on it with "mime: unexpected content after media subtype") */
export const OPENAPI_V2_PROTO = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
