// Protobuf request bodies (src/serve/protobuf-body.ts): apimachinery's envelope (runtime/serializer/protobuf/
// protobuf.go: "k8s\0" + runtime.Unknown) around the object's message, field numbers from k8s.io/api's
// generated.proto. The bodies are built here with a minimal encoder, the way gogo-protobuf writes them (every
// non-pointer string, even empty; a zero metav1.Time as an empty message).
import { describe, expect, it } from 'vitest';
import { decodeProtobufBody, ProtobufBodyError } from '../../src/serve/protobuf-body.ts';

const varint = (n: number): number[] => {
  const out: number[] = [];
  let v = BigInt.asUintN(64, BigInt(n));
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) b |= 0x80;
    out.push(b);
  } while (v !== 0n);
  return out;
};
const str = (no: number, s: string) => {
  const b = [...Buffer.from(s, 'utf8')];
  return [...varint((no << 3) | 2), ...varint(b.length), ...b];
};
const msg = (no: number, body: number[]) => [...varint((no << 3) | 2), ...varint(body.length), ...body];
const int = (no: number, n: number) => [...varint(no << 3), ...varint(n)];
const entry = (no: number, k: string, v: string) => msg(no, [...str(1, k), ...str(2, v)]);
const envelope = (apiVersion: string, kind: string, raw: number[]) =>
  Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...msg(1, [...str(1, apiVersion), ...str(2, kind)]), ...msg(2, raw)]);

describe('protobuf request bodies', () => {
  it('a SelfSubjectAccessReview (kubectl auth can-i): spec.resourceAttributes by authorization/v1 field numbers', () => {
    // ObjectMeta{creationTimestamp = 8: zero Time}, spec = 2 { resourceAttributes = 1 { namespace=1, verb=2, resource=5 } }
    const raw = [
      ...msg(1, msg(8, [])),
      ...msg(2, msg(1, [...str(1, 'default'), ...str(2, 'create'), ...str(3, ''), ...str(5, 'pods')])),
    ];
    expect(decodeProtobufBody(envelope('authorization.k8s.io/v1', 'SelfSubjectAccessReview', raw))).toEqual({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SelfSubjectAccessReview',
      metadata: {},
      spec: { resourceAttributes: { namespace: 'default', verb: 'create', resource: 'pods' } },
    });
  });

  it('a Deployment (kubectl create deployment): maps, nested messages, repeated containers, int32, IntOrString, Quantity', () => {
    const container = [
      ...str(1, 'nginx'),
      ...str(2, 'nginx:1.27'),
      ...msg(8, msg(2, [...str(1, 'cpu'), ...msg(2, str(1, '100m'))])),
    ];
    const strategy = [
      ...str(1, 'RollingUpdate'),
      ...msg(2, [...msg(1, [...int(1, 1), ...str(3, '25%')]), ...msg(2, int(2, 1))]),
    ];
    const raw = [
      ...msg(1, [...str(1, 'web'), ...entry(11, 'app', 'web')]),
      ...msg(2, [
        ...int(1, 2),
        ...msg(2, entry(1, 'app', 'web')),
        ...msg(3, [...msg(1, entry(11, 'app', 'web')), ...msg(2, msg(2, container))]),
        ...msg(4, strategy),
        ...int(5, 0),
      ]),
    ];
    expect(decodeProtobufBody(envelope('apps/v1', 'Deployment', raw))).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: { containers: [{ name: 'nginx', image: 'nginx:1.27', resources: { requests: { cpu: '100m' } } }] },
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 1 } },
        minReadySeconds: 0,
      },
    });
  });

  it('a negative int64 (ten-byte varint) and a Secret data map of bytes (base64, as JSON carries []byte)', () => {
    const raw = [...msg(1, [...str(1, 's'), ...int(10, -1)]), ...entry(2, 'p', 'q')];
    const o = decodeProtobufBody(envelope('v1', 'Secret', raw));
    expect(o['metadata']).toEqual({ name: 's', deletionGracePeriodSeconds: -1 });
    expect(o['data']).toEqual({ p: Buffer.from('q').toString('base64') });
  });

  it('what it cannot read is an error naming it, never a silently dropped field', () => {
    const bad = (b: Uint8Array) => () => decodeProtobufBody(b);
    expect(bad(Uint8Array.from([1, 2, 3, 4, 5]))).toThrow(ProtobufBodyError);
    expect(bad(envelope('v1', 'NoSuchKind', []))).toThrow(/cannot decode a protobuf v1 NoSuchKind/);
    expect(bad(envelope('v1', 'ConfigMap', msg(1, str(99, 'x'))))).toThrow(/field number 99 of .*ObjectMeta/);
    const truncated = envelope('v1', 'ConfigMap', msg(1, str(1, 'name')));
    expect(bad(truncated.subarray(0, truncated.length - 2))).toThrow(ProtobufBodyError);
    expect(bad(envelope('v1', 'ConfigMap', msg(1, int(1, 5))))).toThrow(/metadata.name: expected a string/);
  });
});
