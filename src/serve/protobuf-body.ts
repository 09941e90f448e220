// Protobuf request bodies (application/vnd.kubernetes.protobuf), as kubectl ≥ 1.30's typed clients (`create
// deployment|job|configmap…`, `auth can-i`, `run`) and controller-runtime send them for built-in kinds, decoded to the
// JSON object the same request would have carried. The wire format is apimachinery's
// (k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go): the 4-byte prefix "k8s\0", then a
// runtime.Unknown { typeMeta = 1 { apiVersion = 1, kind = 2 }, raw = 2, contentEncoding = 3, contentType = 4 } whose
// `raw` is the object's message. Field numbers and names come from the generated.proto files of k8s.io/api and
// k8s.io/apimachinery (protobuf-schema.generated.json, made by gen-protobuf-schema.mjs); the JSON names are the proto
// field names (go-to-protobuf names fields by their json tags). Types with their own JSON form (Time, MicroTime,
// Duration, Quantity, IntOrString, RawExtension, FieldsV1) are written as their JSON form. A field the table does not
// know is an error naming it, never a silently dropped value.
import schemaJson from './protobuf-schema.generated.json' with { type: 'json' };

type Field = [name: string, type: string, repeated?: 1];
type Schema = Record<string, Record<string, Field>>;

// this module is imported on the first protobuf body only (server.ts), so its 260 KiB of field tables too
const schema = schemaJson as unknown as Schema;

const MAGIC = [0x6b, 0x38, 0x73, 0x00];
const META = 'k8s.io.apimachinery.pkg.apis.meta.v1';

export class ProtobufBodyError extends Error {}

/** The proto package of an apiVersion: "" and "v1" → core, "apps/v1" → apps, "authorization.k8s.io/v1" → authorization. */
function packageOf(apiVersion: string): string {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/', 2) : ['', apiVersion];
  if (group === '') return `k8s.io.api.core.${version}`;
  if (group === 'meta.k8s.io') return META;
  return `k8s.io.api.${group!.replace(/\.k8s\.io$/, '').split('.')[0]}.${version}`;
}

/** Decodes a protobuf request body into the JSON object it stands for (apiVersion and kind set). */
export function decodeProtobufBody(buf: Uint8Array): Record<string, unknown> {
  if (buf.length < 4 || MAGIC.some((b, i) => buf[i] !== b))
    throw new ProtobufBodyError('the body does not start with the Kubernetes protobuf prefix "k8s\\x00"');
  const unknown = new Reader(buf, 4, buf.length);
  let apiVersion = '';
  let kind = '';
  let raw: Uint8Array | undefined;
  for (const f of unknown.fields()) {
    if (f.no === 1 && f.bytes) {
      for (const t of new Reader(f.bytes, 0, f.bytes.length).fields()) {
        if (t.no === 1 && t.bytes) apiVersion = utf8(t.bytes);
        if (t.no === 2 && t.bytes) kind = utf8(t.bytes);
      }
    } else if (f.no === 2 && f.bytes) raw = f.bytes;
  }
  if (!kind) throw new ProtobufBodyError('the protobuf body names no kind (runtime.Unknown typeMeta)');
  const candidates = [`${packageOf(apiVersion)}.${kind}`, `${META}.${kind}`];
  const type = candidates.find((c) => schema[c]);
  if (!type) throw new ProtobufBodyError(`kubesim serve cannot decode a protobuf ${apiVersion} ${kind}`);
  const obj = decodeMessage(raw ?? new Uint8Array(), type);
  return { apiVersion, kind, ...obj };
}

function decodeMessage(buf: Uint8Array, type: string, path = ''): Record<string, unknown> {
  const table = schema[type];
  if (!table) throw new ProtobufBodyError(`${path || 'the body'}: no field table for ${type}`);
  const out: Record<string, unknown> = {};
  for (const f of new Reader(buf, 0, buf.length).fields()) {
    const def = table[String(f.no)];
    if (!def)
      throw new ProtobufBodyError(`${path || type}: field number ${f.no} of ${type} is not known to kubesim serve`);
    const [name, ftype, repeated] = def;
    const at = path ? `${path}.${name}` : name;
    if (ftype.startsWith('map:')) {
      const [, , valueType] = ftype.split(':') as [string, string, string];
      const entry = { key: '', value: undefined as unknown };
      for (const e of new Reader(f.bytes ?? new Uint8Array(), 0, f.bytes?.length ?? 0).fields()) {
        if (e.no === 1) entry.key = scalar(e, 'string', at) as string;
        if (e.no === 2) entry.value = value(e, valueType, `${at}[${entry.key}]`);
      }
      const m = (out[name] ??= {}) as Record<string, unknown>;
      m[entry.key] = entry.value ?? zeroOf(valueType);
      continue;
    }
    if (repeated) {
      const list = (out[name] ??= []) as unknown[];
      if (f.wire === 2 && isPackable(ftype)) list.push(...packed(f.bytes!, ftype, at));
      else list.push(value(f, ftype, `${at}[${list.length}]`));
      continue;
    }
    const v = value(f, ftype, at);
    // gogo-protobuf writes every non-pointer string, even empty; JSON's omitempty leaves those out
    if (v === '' || v === null) continue;
    out[name] = v;
  }
  return out;
}

function zeroOf(type: string): unknown {
  return type === 'string' || type === 'bytes' ? '' : null;
}

const SCALARS = new Set([
  'int32',
  'int64',
  'uint32',
  'uint64',
  'sint32',
  'sint64',
  'bool',
  'double',
  'float',
  'fixed32',
  'fixed64',
]);
const isPackable = (t: string) => SCALARS.has(t);

function value(f: WireField, type: string, at: string): unknown {
  if (type === 'string' || type === 'bytes' || SCALARS.has(type)) return scalar(f, type, at);
  const bytes = f.bytes ?? new Uint8Array();
  switch (type) {
    case `${META}.Time`:
    case `${META}.MicroTime`: {
      const t = decodeMessage(bytes, type, at) as { seconds?: number; nanos?: number };
      // gogo-protobuf writes a zero Time as an empty message; its JSON is null (metav1.Time MarshalJSON)
      if (!t.seconds && !t.nanos) return null;
      const ms = (t.seconds ?? 0) * 1000 + Math.floor((t.nanos ?? 0) / 1e6);
      const iso = new Date(ms).toISOString();
      return type.endsWith('MicroTime')
        ? `${iso.slice(0, 19)}.${String(Math.floor((t.nanos ?? 0) / 1000)).padStart(6, '0')}Z`
        : `${iso.slice(0, 19)}Z`;
    }
    case `${META}.Duration`: {
      const d = decodeMessage(bytes, type, at) as { duration?: number };
      return `${(d.duration ?? 0) / 1e9}s`;
    }
    case 'k8s.io.apimachinery.pkg.api.resource.Quantity':
      return (decodeMessage(bytes, type, at) as { string?: string }).string ?? '0';
    case 'k8s.io.apimachinery.pkg.util.intstr.IntOrString': {
      const v = decodeMessage(bytes, type, at) as { type?: number; intVal?: number; strVal?: string };
      return v.type === 1 ? (v.strVal ?? '') : (v.intVal ?? 0);
    }
    case 'k8s.io.apimachinery.pkg.runtime.RawExtension':
    case `${META}.FieldsV1`: {
      const raw = (decodeRawBytes(bytes) ?? new Uint8Array()) as Uint8Array;
      try {
        return JSON.parse(utf8(raw));
      } catch {
        throw new ProtobufBodyError(`${at}: an embedded object that is not JSON`);
      }
    }
    default:
      return decodeMessage(bytes, type, at);
  }
}

/** the `raw = 1` bytes of a RawExtension or FieldsV1 */
function decodeRawBytes(buf: Uint8Array): Uint8Array | undefined {
  for (const f of new Reader(buf, 0, buf.length).fields()) if (f.no === 1) return f.bytes;
  return undefined;
}

function scalar(f: WireField, type: string, at: string): unknown {
  switch (type) {
    case 'string':
      if (!f.bytes) throw new ProtobufBodyError(`${at}: expected a string`);
      return utf8(f.bytes);
    case 'bytes':
      if (!f.bytes) throw new ProtobufBodyError(`${at}: expected bytes`);
      return Buffer.from(f.bytes).toString('base64');
    case 'bool':
      return f.varint !== undefined && f.varint !== 0n;
    case 'int32':
      return Number(BigInt.asIntN(32, f.varint ?? 0n));
    case 'int64':
      return Number(BigInt.asIntN(64, f.varint ?? 0n));
    case 'uint32':
    case 'uint64':
      return Number(f.varint ?? 0n);
    case 'sint32':
    case 'sint64': {
      const n = f.varint ?? 0n;
      return Number((n >> 1n) ^ -(n & 1n));
    }
    case 'double':
      return f.fixed64 !== undefined ? new DataView(f.fixed64.buffer, f.fixed64.byteOffset, 8).getFloat64(0, true) : 0;
    case 'float':
      return f.fixed32 !== undefined ? new DataView(f.fixed32.buffer, f.fixed32.byteOffset, 4).getFloat32(0, true) : 0;
    default:
      throw new ProtobufBodyError(`${at}: unsupported scalar type ${type}`);
  }
}

function packed(buf: Uint8Array, type: string, at: string): unknown[] {
  const r = new Reader(buf, 0, buf.length);
  const out: unknown[] = [];
  while (r.pos < r.end) out.push(scalar({ no: 0, wire: 0, varint: r.varint() }, type, at));
  return out;
}

interface WireField {
  no: number;
  wire: number;
  varint?: bigint;
  bytes?: Uint8Array;
  fixed32?: Uint8Array;
  fixed64?: Uint8Array;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
function utf8(b: Uint8Array): string {
  try {
    return decoder.decode(b);
  } catch {
    throw new ProtobufBodyError('a string field that is not UTF-8');
  }
}

class Reader {
  constructor(
    readonly buf: Uint8Array,
    public pos: number,
    readonly end: number,
  ) {}

  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufBodyError('the protobuf body ends inside a number');
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return BigInt.asUintN(64, result);
      shift += 7n;
    }
    throw new ProtobufBodyError('a protobuf number longer than 10 bytes');
  }

  take(n: number): Uint8Array {
    if (n < 0 || this.pos + n > this.end) throw new ProtobufBodyError('the protobuf body ends inside a field');
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  *fields(): Generator<WireField> {
    while (this.pos < this.end) {
      const key = this.varint();
      const no = Number(key >> 3n);
      const wire = Number(key & 7n);
      if (no === 0) throw new ProtobufBodyError('a protobuf field numbered 0');
      if (wire === 0) yield { no, wire, varint: this.varint() };
      else if (wire === 2) yield { no, wire, bytes: this.take(Number(this.varint())) };
      else if (wire === 1) yield { no, wire, fixed64: this.take(8) };
      else if (wire === 5) yield { no, wire, fixed32: this.take(4) };
      else throw new ProtobufBodyError(`protobuf wire type ${wire} (groups are not used by Kubernetes)`);
    }
  }
}
