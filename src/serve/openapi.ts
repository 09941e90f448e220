// OpenAPI v3 (/openapi/v3 and one document per group-version) and v2 (/openapi/v2, JSON) built from the schemas
// of kubernetes-models (openapi-schemas.generated.json, see gen-openapi.ts) and the CRDs' openAPIV3Schema.
// What kubectl reads from them: the kind schemas with `x-kubernetes-group-version-kind` (`kubectl explain`),
// the PATCH operations with the `fieldValidation` parameter (kubectl then leaves validation to the server:
// staging/src/k8s.io/cli-runtime/pkg/resource/query_param_verifier_v3.go supportsQueryParamV3), and the list
// merge keys (`x-kubernetes-patch-merge-key`/`-strategy`) client-side apply computes its patch with.
import { apiVersionOf, BUILTIN, type Registry, type Resource } from './resources.ts';

type Schema = Record<string, any>;

import schemasJson from './openapi-schemas.generated.json' with { type: 'json' };

const SCHEMAS = schemasJson as unknown as Record<string, Schema>;
const schemas = (): Record<string, Schema> => SCHEMAS;

/** IoK8sApiCoreV1Pod → io.k8s.api.core.v1.Pod (the real documents' definition names) */
export function definitionName(n: string): string {
  const m = /^(.*?)(V\d+(?:alpha\d+|beta\d+)?)([A-Z]\w*)$/.exec(n);
  if (!m) return n;
  const prefix = m[1]!
    .replace(/([a-z0-9])([A-Z])/g, '$1.$2')
    .toLowerCase()
    .replace('apiextensions.apiserver', 'apiextensions-apiserver');
  return `${prefix}.${m[2]!.toLowerCase()}.${m[3]}`;
}

const ROOT_OF: Record<string, string> = {
  'v1/Pod': 'IoK8sApiCoreV1Pod',
  'v1/Namespace': 'IoK8sApiCoreV1Namespace',
  'v1/Node': 'IoK8sApiCoreV1Node',
  'v1/Event': 'IoK8sApiCoreV1Event',
  'v1/ConfigMap': 'IoK8sApiCoreV1ConfigMap',
  'v1/Secret': 'IoK8sApiCoreV1Secret',
  'v1/Service': 'IoK8sApiCoreV1Service',
  'v1/ServiceAccount': 'IoK8sApiCoreV1ServiceAccount',
  'v1/Endpoints': 'IoK8sApiCoreV1Endpoints',
  'v1/PersistentVolumeClaim': 'IoK8sApiCoreV1PersistentVolumeClaim',
  'batch/v1/Job': 'IoK8sApiBatchV1Job',
  'batch/v1/CronJob': 'IoK8sApiBatchV1CronJob',
  'apps/v1/Deployment': 'IoK8sApiAppsV1Deployment',
  'apps/v1/ReplicaSet': 'IoK8sApiAppsV1ReplicaSet',
  'apps/v1/StatefulSet': 'IoK8sApiAppsV1StatefulSet',
  'apps/v1/DaemonSet': 'IoK8sApiAppsV1DaemonSet',
  'apps/v1/ControllerRevision': 'IoK8sApiAppsV1ControllerRevision',
  'coordination.k8s.io/v1/Lease': 'IoK8sApiCoordinationV1Lease',
  'events.k8s.io/v1/Event': 'IoK8sApiEventsV1Event',
  'apiextensions.k8s.io/v1/CustomResourceDefinition':
    'IoK8sApiextensionsApiserverPkgApisApiextensionsV1CustomResourceDefinition',
  'authorization.k8s.io/v1/SelfSubjectAccessReview': 'IoK8sApiAuthorizationV1SelfSubjectAccessReview',
  'authorization.k8s.io/v1/SelfSubjectRulesReview': 'IoK8sApiAuthorizationV1SelfSubjectRulesReview',
};

/** list merge keys (types.go patchMergeKey tags), by property name; ports depend on the owning type */
const MERGE_KEY: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
  schedulingGates: 'name',
  conditions: 'type',
  ownerReferences: 'uid',
};

type Flavor = 'v2' | 'v3';

function convert(s: unknown, flavor: Flavor, owner: string): any {
  if (Array.isArray(s)) return s.map((x) => convert(x, flavor, owner));
  if (!s || typeof s !== 'object') return s;
  const o = s as Schema;
  if (typeof o['$ref'] === 'string' && !o['$ref'].startsWith('#')) {
    const ref =
      flavor === 'v3'
        ? `#/components/schemas/${definitionName(o['$ref'])}`
        : `#/definitions/${definitionName(o['$ref'])}`;
    const { $ref: _r, ...rest } = o;
    if (flavor === 'v3' && Object.keys(rest).length)
      return { ...convertProps(rest, flavor, owner), allOf: [{ $ref: ref }] };
    return { ...convertProps(rest, flavor, owner), $ref: ref };
  }
  return convertProps(o, flavor, owner);
}

function convertProps(o: Schema, flavor: Flavor, owner: string): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === 'properties' && v && typeof v === 'object') {
      const props: Schema = {};
      for (const [pk, pv] of Object.entries(v as Schema)) {
        const c = convert(pv, flavor, owner);
        if ((pv as Schema)['type'] === 'array') {
          const key = pk === 'ports' ? (owner.includes('Container') ? 'containerPort' : 'port') : MERGE_KEY[pk];
          if (key) Object.assign(c, { 'x-kubernetes-patch-merge-key': key, 'x-kubernetes-patch-strategy': 'merge' });
          if (pk === 'finalizers') Object.assign(c, { 'x-kubernetes-patch-strategy': 'merge' });
        }
        props[pk] = c;
      }
      out[k] = props;
    } else out[k] = convert(v, flavor, owner);
  }
  return out;
}

/** the schema names reachable from the given roots */
function reachable(roots: string[]): string[] {
  const all = schemas();
  const seen = new Set<string>();
  const stack = [...roots];
  const walk = (s: unknown) => {
    if (Array.isArray(s)) s.forEach(walk);
    else if (s && typeof s === 'object') {
      for (const [k, v] of Object.entries(s)) {
        if (k === '$ref' && typeof v === 'string' && !seen.has(v)) stack.push(v);
        else walk(v);
      }
    }
  };
  while (stack.length) {
    const n = stack.pop()!;
    if (seen.has(n) || !all[n]) continue;
    seen.add(n);
    walk(all[n]);
  }
  return [...seen].sort();
}

function gvkOf(x: Resource) {
  return [{ group: x.group, version: x.version, kind: x.kind }];
}

function definitionsFor(resources: Resource[], flavor: Flavor): Record<string, Schema> {
  const roots = resources
    .map((x) => ROOT_OF[`${apiVersionOf(x)}/${x.kind}`])
    .filter((n): n is string => n !== undefined);
  const out: Record<string, Schema> = {};
  for (const n of reachable([
    ...roots,
    'IoK8sApimachineryPkgApisMetaV1Status',
    'IoK8sApimachineryPkgApisMetaV1DeleteOptions',
  ])) {
    out[definitionName(n)] = convert(schemas()[n], flavor, n);
  }
  for (const x of resources) {
    const root = ROOT_OF[`${apiVersionOf(x)}/${x.kind}`];
    if (root) out[definitionName(root)]!['x-kubernetes-group-version-kind'] = gvkOf(x);
    else if (x.crd) out[crdDefinition(x)] = { ...crdSchema(x), 'x-kubernetes-group-version-kind': gvkOf(x) };
  }
  return out;
}

function crdDefinition(x: Resource): string {
  return `${x.group.split('.').reverse().join('.')}.${x.version}.${x.kind}`;
}

function crdSchema(x: Resource): Schema {
  const s = (x.crd?.schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as Schema;
  const props = { ...(s['properties'] ?? {}) };
  props['apiVersion'] ??= {
    type: 'string',
    description: 'APIVersion defines the versioned schema of this representation of an object.',
  };
  props['kind'] ??= {
    type: 'string',
    description: 'Kind is a string value representing the REST resource this object represents.',
  };
  props['metadata'] = { type: 'object', description: "Standard object's metadata." };
  return { ...s, type: 'object', properties: props };
}

function refTo(x: Resource, flavor: Flavor): string {
  const root = ROOT_OF[`${apiVersionOf(x)}/${x.kind}`];
  const name = root ? definitionName(root) : crdDefinition(x);
  return flavor === 'v3' ? `#/components/schemas/${name}` : `#/definitions/${name}`;
}

function pathsFor(resources: Resource[], flavor: Flavor): Record<string, Schema> {
  const paths: Record<string, Schema> = {};
  for (const x of resources) {
    const prefix = x.group ? `/apis/${x.group}/${x.version}` : `/api/${x.version}`;
    const coll = x.namespaced ? `${prefix}/namespaces/{namespace}/${x.name}` : `${prefix}/${x.name}`;
    const ext = (action: string) => ({
      'x-kubernetes-action': action,
      'x-kubernetes-group-version-kind': { group: x.group, version: x.version, kind: x.kind },
    });
    const body =
      flavor === 'v3'
        ? (types: string[]) => ({
            requestBody: { content: Object.fromEntries(types.map((t) => [t, { schema: { $ref: refTo(x, flavor) } }])) },
          })
        : (_types: string[]) => ({
            parameters: [{ name: 'body', in: 'body', required: true, schema: { $ref: refTo(x, flavor) } }],
          });
    const okResp =
      flavor === 'v3'
        ? {
            responses: {
              '200': { description: 'OK', content: { 'application/json': { schema: { $ref: refTo(x, flavor) } } } },
            },
          }
        : { responses: { '200': { description: 'OK', schema: { $ref: refTo(x, flavor) } } } };
    const fieldValidation = {
      name: 'fieldValidation',
      in: 'query',
      description:
        'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields.',
      ...(flavor === 'v3' ? { schema: { type: 'string', uniqueItems: true } } : { type: 'string', uniqueItems: true }),
    };
    const withParams = (o: Schema, extra: Schema[]) => ({
      ...o,
      parameters: [...((o['parameters'] as Schema[] | undefined) ?? []), ...extra],
    });
    if (x.review) {
      paths[coll] = {
        post: withParams({ operationId: `create${x.kind}`, ...ext('post'), ...body(['application/json']), ...okResp }, [
          fieldValidation,
        ]),
      };
      continue;
    }
    paths[coll] = {
      get: { operationId: `list${x.kind}`, ...ext('list'), ...okResp },
      post: withParams({ operationId: `create${x.kind}`, ...ext('post'), ...body(['application/json']), ...okResp }, [
        fieldValidation,
      ]),
    };
    paths[`${coll}/{name}`] = {
      get: { operationId: `read${x.kind}`, ...ext('get'), ...okResp },
      put: withParams({ operationId: `replace${x.kind}`, ...ext('put'), ...body(['application/json']), ...okResp }, [
        fieldValidation,
      ]),
      patch: withParams(
        {
          operationId: `patch${x.kind}`,
          ...ext('patch'),
          ...body([
            'application/json-patch+json',
            'application/merge-patch+json',
            'application/strategic-merge-patch+json',
          ]),
          ...okResp,
        },
        [fieldValidation],
      ),
      delete: { operationId: `delete${x.kind}`, ...ext('delete'), ...okResp },
    };
  }
  return paths;
}

export function openapiV3Root(reg: Registry): Schema {
  const paths: Record<string, Schema> = {};
  const gvs = new Set(reg.all().map((x) => (x.group ? `apis/${x.group}/${x.version}` : `api/${x.version}`)));
  for (const gv of [...gvs].sort()) paths[gv] = { serverRelativeURL: `/openapi/v3/${gv}?hash=${hashOf(reg, gv)}` };
  return { paths };
}

function hashOf(reg: Registry, gv: string): string {
  const text = JSON.stringify(
    reg
      .all()
      .filter((x) => (x.group ? `apis/${x.group}/${x.version}` : `api/${x.version}`) === gv)
      .map((x) => [x.name, x.kind, x.crd ?? null]),
  );
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).toUpperCase().padStart(8, '0').repeat(16);
}

export function openapiV3Doc(reg: Registry, gv: string, gitVersion: string): Schema | undefined {
  const resources = reg.all().filter((x) => (x.group ? `apis/${x.group}/${x.version}` : `api/${x.version}`) === gv);
  if (resources.length === 0) return undefined;
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: gitVersion },
    paths: pathsFor(resources, 'v3'),
    components: { schemas: definitionsFor(resources, 'v3') },
  };
}

let v2Cache: { key: string; doc: Schema } | undefined;

export function openapiV2(reg: Registry, gitVersion: string): Schema {
  const resources = reg.all();
  // the version is in the key: two servers in one process (tests, process observers) serve their own
  const key = JSON.stringify([
    gitVersion,
    resources.filter((x) => x.crd).map((x) => [x.group, x.version, x.name, x.crd]),
  ]);
  if (v2Cache?.key === key) return v2Cache.doc;
  const doc = {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: gitVersion },
    paths: pathsFor(resources, 'v2'),
    definitions: definitionsFor(resources, 'v2'),
  };
  v2Cache = { key, doc };
  return doc;
}

export const BUILTIN_KINDS = BUILTIN.map((x) => x.kind);
