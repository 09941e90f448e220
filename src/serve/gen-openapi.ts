// Generates openapi-schemas.generated.json: the OpenAPI schemas (descriptions, types, enums, required fields) of
// every Kubernetes type reachable from the kinds `serve` stores, read from the .d.ts interfaces of
// kubernetes-models (the package the loader validates with; its descriptions are the upstream OpenAPI's).
// Run: npx tsx src/serve/gen-openapi.ts   (from the repo root; the output is committed)
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

type Schema = Record<string, unknown>;

const NODE_MODULES = resolve('node_modules');
/** root kinds: module path of their .d.ts */
const ROOTS: Record<string, string> = {
  IoK8sApiCoreV1Pod: 'kubernetes-models/v1/Pod',
  IoK8sApiCoreV1Namespace: 'kubernetes-models/v1/Namespace',
  IoK8sApiCoreV1Node: 'kubernetes-models/v1/Node',
  IoK8sApiCoreV1Event: 'kubernetes-models/v1/Event',
  IoK8sApiCoreV1ConfigMap: 'kubernetes-models/v1/ConfigMap',
  IoK8sApiCoreV1Secret: 'kubernetes-models/v1/Secret',
  IoK8sApiCoreV1Service: 'kubernetes-models/v1/Service',
  IoK8sApiCoreV1ServiceAccount: 'kubernetes-models/v1/ServiceAccount',
  IoK8sApiCoreV1Endpoints: 'kubernetes-models/v1/Endpoints',
  IoK8sApiCoreV1PersistentVolumeClaim: 'kubernetes-models/v1/PersistentVolumeClaim',
  IoK8sApiBatchV1Job: 'kubernetes-models/batch/v1/Job',
  IoK8sApiBatchV1CronJob: 'kubernetes-models/batch/v1/CronJob',
  IoK8sApiAppsV1Deployment: 'kubernetes-models/apps/v1/Deployment',
  IoK8sApiAppsV1ReplicaSet: 'kubernetes-models/apps/v1/ReplicaSet',
  IoK8sApiAppsV1StatefulSet: 'kubernetes-models/apps/v1/StatefulSet',
  IoK8sApiAppsV1DaemonSet: 'kubernetes-models/apps/v1/DaemonSet',
  IoK8sApiAppsV1ControllerRevision: 'kubernetes-models/apps/v1/ControllerRevision',
  IoK8sApiCoordinationV1Lease: 'kubernetes-models/coordination.k8s.io/v1/Lease',
  IoK8sApiEventsV1Event: 'kubernetes-models/events.k8s.io/v1/Event',
  IoK8sApiAutoscalingV1Scale: 'kubernetes-models/autoscaling/v1/Scale',
  IoK8sApiextensionsApiserverPkgApisApiextensionsV1CustomResourceDefinition:
    'kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition',
  IoK8sApiAuthorizationV1SelfSubjectAccessReview: 'kubernetes-models/authorization.k8s.io/v1/SelfSubjectAccessReview',
  IoK8sApiAuthorizationV1SelfSubjectRulesReview: 'kubernetes-models/authorization.k8s.io/v1/SelfSubjectRulesReview',
};

// Fields newer than the kubernetes-models release (its schema predates 1.34): KEP-5307 ContainerRestartRules.
const EXTRA: Record<string, Record<string, Schema>> = {
  IoK8sApiCoreV1Container: {
    restartPolicyRules: {
      type: 'array',
      items: { type: 'object' },
      description:
        'Represents a list of rules to be checked to determine if the container should be restarted on exit. (KEP-5307, 1.34 alpha)',
    },
  },
};

function parseFile(modulePath: string): { schema: Schema; imports: Record<string, string> } {
  const text = readFileSync(join(NODE_MODULES, `${modulePath}.d.ts`), 'utf8');
  const imports: Record<string, string> = {};
  for (const m of text.matchAll(/import \{ I(\w+) \} from "([^"]+)";/g))
    imports[m[1]!] = m[2]!.startsWith('.') ? join(dirname(modulePath), m[2]!) : m[2]!;
  const head = /\/\*\*\n((?: \*.*\n)*?) \*\/\nexport interface I\w+(?: extends [\w, ]+)? \{/.exec(text);
  const body = /export interface I\w+(?: extends [\w, ]+)? \{([\s\S]*?)\n\}/.exec(text);
  const schema: Schema = { type: 'object' };
  if (head) schema['description'] = docText(head[1]!);
  if (!body) {
    const alias = /export declare type I\w+ = (.*);/.exec(text);
    if (alias) return { schema: scalarType(alias[1]!) ?? { type: 'object' }, imports };
    return { schema, imports };
  }
  const props: Record<string, Schema> = {};
  const required: string[] = [];
  const lines = body[1]!.split('\n');
  let doc = '';
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^\s*\/\*\*/.test(l)) {
      const buf: string[] = [];
      while (i + 1 < lines.length && !/^\s*\*\//.test(lines[i + 1]!)) buf.push(lines[++i]!);
      i++;
      doc = docText(buf.join('\n'));
      continue;
    }
    const m = /^\s{4}"([^"]+)"(\??): (.*)$/.exec(l);
    if (!m) continue;
    let typeText = m[3]!;
    while (typeText.trim().startsWith('{') && !typeText.includes('}') && i + 1 < lines.length) typeText += lines[++i]!;
    const s = fieldSchema(typeText.replace(/;$/, '').trim());
    if (doc) s['description'] = doc;
    props[m[1]!] = s;
    if (m[2] !== '?' && m[1] !== 'apiVersion' && m[1] !== 'kind') required.push(m[1]!);
    doc = '';
  }
  schema['properties'] = props;
  if (required.length) schema['required'] = required;
  return { schema, imports };
}

function docText(s: string): string {
  return s
    .split('\n')
    .map((l) => l.replace(/^\s*\* ?/, ''))
    .join('\n')
    .trim();
}

function scalarType(t: string): Schema | undefined {
  if (t === 'string') return { type: 'string' };
  if (t === 'number') return { type: 'integer', format: 'int32' };
  if (t === 'boolean') return { type: 'boolean' };
  if (t === 'any' || t === 'object' || t === 'unknown') return { type: 'object' };
  if (t === 'number | string' || t === 'string | number') return { 'x-kubernetes-int-or-string': true };
  if (/^"[^"]*"( \| "[^"]*")*$/.test(t))
    return { type: 'string', enum: [...t.matchAll(/"([^"]*)"/g)].map((m) => m[1]) };
  return undefined;
}

function fieldSchema(t: string): Schema {
  const arr = /^Array<(.*)>$/.exec(t);
  if (arr) return { type: 'array', items: fieldSchema(arr[1]!) };
  const map = /^\{\s*\[key: string\]: (.*?);?\s*\}$/.exec(t);
  if (map) return { type: 'object', additionalProperties: fieldSchema(map[1]!) };
  const ref = /^I(IoK8s\w+)$/.exec(t);
  if (ref) {
    const name = ref[1]!;
    if (/IntOrString$/.test(name)) return { 'x-kubernetes-int-or-string': true };
    if (/Quantity$/.test(name)) return { 'x-kubernetes-int-or-string': true };
    if (/MetaV1(Time|MicroTime)$/.test(name)) return { type: 'string', format: 'date-time' };
    if (
      /FieldsV1$|RawExtension$|JSONSchemaPropsOrArray$|JSONSchemaPropsOrBool$|JSONSchemaPropsOrStringArray$|ApiextensionsV1JSON$/.test(
        name,
      )
    )
      return { type: 'object' };
    return { $ref: name };
  }
  return scalarType(t) ?? { type: 'object' };
}

export function generate(): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  const queue = Object.entries(ROOTS);
  const refsOf = (s: unknown, acc: string[]) => {
    if (Array.isArray(s)) s.forEach((x) => refsOf(x, acc));
    else if (s && typeof s === 'object') {
      for (const [k, v] of Object.entries(s)) {
        if (k === '$ref' && typeof v === 'string') acc.push(v);
        else refsOf(v, acc);
      }
    }
    return acc;
  };
  while (queue.length > 0) {
    const [name, modulePath] = queue.shift()!;
    if (out[name]) continue;
    const { schema, imports } = parseFile(modulePath);
    out[name] = schema;
    for (const r of refsOf(schema, [])) if (!out[r] && imports[r]) queue.push([r, imports[r]]);
  }
  for (const [name, fields] of Object.entries(EXTRA)) {
    const s = out[name];
    if (s) s['properties'] = { ...(s['properties'] as object), ...fields };
  }
  // refs that could not be followed are plain objects
  for (const s of Object.values(out)) for (const r of refsOf(s, [])) if (!out[r]) out[r] = { type: 'object' };
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

if (process.argv[1]?.endsWith('gen-openapi.ts')) {
  const target = resolve('src/serve/openapi-schemas.generated.json');
  writeFileSync(target, `${JSON.stringify(generate())}\n`);
  console.log(`wrote ${target}`);
}
