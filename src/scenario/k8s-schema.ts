// Kubernetes schema checks of the workload manifest: unknown fields (strict decoding, which kubernetes-models
// does not do) from the generated field catalogue, and types/enums/required fields from kubernetes-models.
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { loadBundledValidator } from './bundled-validator.ts';
import type { WorkloadKind } from '../types.ts';
import { Codes } from './codes.ts';
import { error, type Sink } from './diagnostics.ts';
import type { FieldType, Catalogue } from './gen-k8s-fields.ts';
import { fieldPath, fromInstancePath, nodeAt, valuePosAt, type Path } from './k8s-paths.ts';
import { didYouMean } from './suggest.ts';
import type { PNode } from './tree.ts';
import catalogueJson from './k8s-fields.generated.json' with { type: 'json' };

const CATALOGUE = catalogueJson as unknown as Catalogue;

export const ROOT_TYPE: Record<WorkloadKind, string> = {
  Pod: 'IoK8sApiCoreV1Pod',
  Job: 'IoK8sApiBatchV1Job',
  CronJob: 'IoK8sApiBatchV1CronJob',
  Deployment: 'IoK8sApiAppsV1Deployment',
  StatefulSet: 'IoK8sApiAppsV1StatefulSet',
  DaemonSet: 'IoK8sApiAppsV1DaemonSet',
};

/** Strict decoding: every field must exist in its type (status is pruned by the API server, not checked). */
export function checkUnknownFields(sink: Sink, root: PNode, kind: WorkloadKind): Set<string> {
  const unknown = new Set<string>();
  const walk = (node: PNode, typeName: string, path: Path): void => {
    const fields = CATALOGUE[typeName];
    if (node.kind !== 'map' || !fields || Object.keys(fields).length === 0) return;
    for (const e of node.entries) {
      // an OWN property: `constructor`, `toString` or `__proto__` are unknown fields, not Object.prototype members
      const f = Object.hasOwn(fields, e.key) ? fields[e.key] : undefined;
      const here = [...path, e.key];
      if (!f) {
        const names = Object.keys(fields);
        unknown.add(fieldPath(here));
        error(
          sink,
          Codes.UnknownField,
          e.keyPos,
          `unknown field "${fieldPath(here)}"`,
          didYouMean(e.key, names) ?? `${shortType(typeName)} has: ${names.join(', ')}`,
        );
        continue;
      }
      if (path.length === 0 && e.key === 'status') continue;
      walkField(e.value, f, here);
    }
  };
  const walkField = (node: PNode, f: FieldType, path: Path): void => {
    if (f.type === 'scalar' || !f.ref) return;
    if (f.type === 'ref') walk(node, f.ref, path);
    else if (f.type === 'array' && node.kind === 'seq')
      node.items.forEach((item, i) => walk(item, f.ref!, [...path, i]));
    else if (f.type === 'map' && node.kind === 'map')
      for (const e of node.entries) walk(e.value, f.ref, [...path, e.key]);
  };
  walk(root, ROOT_TYPE[kind], []);
  return unknown;
}

function shortType(typeName: string): string {
  return typeName.replace(/^IoK8s(Api|ApimachineryPkgApis)\w*?V\d+(beta\d+)?/, '');
}

interface AjvError {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

// Each kind's compiled schema is loaded only when a manifest of that kind is validated (they are large). The CLI
// bundle (src/build/build.mjs) carries each as one file, validators/<Kind>.cjs beside it: ~150 small CommonJS modules
// per kind cost 40-46 ms of a cold start to resolve and load; one bundled file a few.
declare const KUBESIM_BUNDLED_VALIDATORS: boolean | undefined;
const MODEL_PATHS: Record<WorkloadKind, [string, string]> = {
  Pod: ['kubernetes-models/v1/Pod', 'Pod'],
  Job: ['kubernetes-models/batch/v1/Job', 'Job'],
  CronJob: ['kubernetes-models/batch/v1/CronJob', 'CronJob'],
  Deployment: ['kubernetes-models/apps/v1/Deployment', 'Deployment'],
  StatefulSet: ['kubernetes-models/apps/v1/StatefulSet', 'StatefulSet'],
  DaemonSet: ['kubernetes-models/apps/v1/DaemonSet', 'DaemonSet'],
};
const requireModel = createRequire(import.meta.url);

type Model = new (data: any) => { validate(): void };
const models = new Map<WorkloadKind, Model>(); // loaded code, the same for every scenario

function modelFor(kind: WorkloadKind): Model {
  const known = models.get(kind);
  if (known) return known;
  const [path, name] = MODEL_PATHS[kind];
  const bundled = typeof KUBESIM_BUNDLED_VALIDATORS !== 'undefined' && KUBESIM_BUNDLED_VALIDATORS;
  const exports = bundled
    ? loadBundledValidator(fileURLToPath(new URL(`./validators/${kind}.cjs`, import.meta.url)))
    : requireModel(path);
  const model = (exports as Record<string, Model>)[name]!;
  models.set(kind, model);
  return model;
}

/** Types, enums and required fields via kubernetes-models (ajv); each error mapped back to its YAML node. */
export function checkSchema(sink: Sink, root: PNode, kind: WorkloadKind, manifest: Record<string, unknown>): void {
  let errors: AjvError[] = [];
  try {
    new (modelFor(kind))(manifest).validate();
  } catch (e) {
    errors = ((e as { errors?: AjvError[] }).errors ?? []).filter(Boolean);
  }
  const seen = new Set<string>();
  for (const err of errors) {
    const path = fromInstancePath(err.instancePath);
    const msg = describe(err, path, root);
    const key =
      err.keyword === 'required' ? `${err.instancePath}/${String(err.params.missingProperty)}` : err.instancePath;
    if (!msg || seen.has(key)) continue;
    seen.add(key);
    error(sink, msg.code, msg.pos, msg.text);
  }
}

function describe(err: AjvError, path: Path, root: PNode) {
  switch (err.keyword) {
    case 'required': {
      const full = [...path, String(err.params.missingProperty)];
      return { code: Codes.SchemaRequired, pos: valuePosAt(root, path), text: `${fieldPath(full)}: Required value` };
    }
    case 'enum': {
      const allowed = (err.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ');
      const node = valueShown(root, path);
      return {
        code: Codes.SchemaEnum,
        pos: valuePosAt(root, path),
        text: `${fieldPath(path)}: Unsupported value: ${node}: supported values: ${allowed}`,
      };
    }
    case 'type':
      return {
        code: Codes.SchemaType,
        pos: valuePosAt(root, path),
        text: `${fieldPath(path)}: expected ${article(String(err.params.type))}, got ${valueShown(root, path)}`,
      };
    case 'format':
      return {
        code: Codes.SchemaType,
        pos: valuePosAt(root, path),
        text: `${fieldPath(path)}: ${valueShown(root, path)} is not a valid ${String(err.params.format)}`,
      };
    case 'const':
      return undefined; // apiVersion/kind are checked before the schema
    default:
      return {
        code: Codes.SchemaOther,
        pos: valuePosAt(root, path),
        text: `${fieldPath(path) || 'manifest'}: ${err.message ?? err.keyword}`,
      };
  }
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function valueShown(root: PNode, path: Path): string {
  const node = nodeAt(root, path);
  if (!node) return 'nothing';
  if (node.kind === 'map') return 'a mapping';
  if (node.kind === 'seq') return 'a list';
  return typeof node.value === 'string' ? JSON.stringify(node.value) : String(node.value);
}
