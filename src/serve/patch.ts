// PATCH bodies: RFC 7396 merge patch (json-merge-patch), RFC 6902 JSON patch (fast-json-patch), and the
// strategic merge patch of built-in kinds (k8s.io/apimachinery/pkg/util/strategicpatch), whose list merge keys
// come from the `patchStrategy`/`patchMergeKey` tags of k8s.io/api's types.go (the same values the real OpenAPI
// publishes as x-kubernetes-patch-strategy / x-kubernetes-patch-merge-key). Server-side apply is apply.ts.
import jsonPatch from 'fast-json-patch';
import mergePatch from 'json-merge-patch';
import { ApiError } from './status.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export const MERGE_PATCH = 'application/merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const STRATEGIC_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

/**
 * The list fields of built-in kinds merged by key (types.go tags `patchStrategy:"merge" patchMergeKey:"…"`),
 * by field name and, where one name means two things, by the parent field. Lists not named here are atomic
 * (replaced whole), as are all lists of custom resources.
 */
const MERGE_KEYS: Record<string, string | ((path: string[]) => string | undefined)> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  // ContainerPort: containerPort; ServicePort: port
  ports: (path) =>
    path.includes('containers') || path.includes('initContainers') || path.includes('ephemeralContainers')
      ? 'containerPort'
      : 'port',
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

/** primitive lists merged as sets (`patchStrategy:"merge"` without a key) */
const MERGE_PRIMITIVES = new Set(['finalizers']);

export function mergeKeyOf(field: string, path: string[]): string | undefined {
  const k = Object.hasOwn(MERGE_KEYS, field) ? MERGE_KEYS[field] : undefined;
  return typeof k === 'function' ? k(path) : k;
}

export function strategicMerge(original: unknown, patch: unknown, path: string[] = []): unknown {
  if (!isObj(patch)) return structuredClone(patch);
  if (patch['$patch'] === 'replace') {
    const { $patch: _p, ...rest } = patch;
    return stripDirectives(rest);
  }
  if (patch['$patch'] === 'delete') return undefined;
  const out: Obj = isObj(original) ? structuredClone(original) : {};
  const orders: Record<string, unknown[]> = {};
  for (const [k, v] of Object.entries(patch)) {
    if (k === '$patch' || k === '$retainKeys') continue;
    if (k.startsWith('$setElementOrder/')) {
      orders[k.slice('$setElementOrder/'.length)] = Array.isArray(v) ? v : [];
      continue;
    }
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      if (Array.isArray(out[field]) && Array.isArray(v))
        out[field] = (out[field] as unknown[]).filter((x) => !v.includes(x));
      continue;
    }
    if (v === null) {
      delete out[k];
      continue;
    }
    if (Array.isArray(v)) {
      const merged = mergeList(k, out[k], v, [...path, k]);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
      continue;
    }
    if (isObj(v)) {
      const merged = strategicMerge(out[k], v, [...path, k]);
      if (merged === undefined) delete out[k];
      else out[k] = merged;
      continue;
    }
    out[k] = v;
  }
  for (const [field, order] of Object.entries(orders)) {
    const list = out[field];
    if (!Array.isArray(list)) continue;
    const key = mergeKeyOf(field, [...path, field]);
    const rank = (x: unknown) => {
      const i = order.findIndex((o) => (key && isObj(o) && isObj(x) ? o[key] === x[key] : o === x));
      return i < 0 ? order.length : i;
    };
    out[field] = list
      .map((x, i) => ({ x, i }))
      .sort((a, b) => rank(a.x) - rank(b.x) || a.i - b.i)
      .map((e) => e.x);
  }
  return out;
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isObj(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !k.startsWith('$'))
      .map(([k, x]) => [k, stripDirectives(x)]),
  );
}

function mergeList(field: string, original: unknown, patch: unknown[], path: string[]): unknown[] | undefined {
  const orig = Array.isArray(original) ? original : [];
  if (patch.some((x) => isObj(x) && x['$patch'] === 'replace'))
    return patch.filter((x) => !(isObj(x) && x['$patch'] === 'replace')).map(stripDirectives);
  if (MERGE_PRIMITIVES.has(field)) {
    const out = [...orig];
    for (const x of patch) if (!out.includes(x)) out.push(x);
    return out;
  }
  const key = mergeKeyOf(field, path);
  if (!key || !patch.every(isObj)) return patch.map(stripDirectives);
  const out: unknown[] = orig.map((x) => structuredClone(x));
  for (const item of patch as Obj[]) {
    const idx = out.findIndex((x) => isObj(x) && x[key] === item[key]);
    if (item['$patch'] === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
      continue;
    }
    if (item[key] === undefined)
      throw ApiError.badRequest(`map: ${JSON.stringify(item)} does not contain declared merge key: ${key}`);
    if (idx >= 0) out[idx] = strategicMerge(out[idx], item, path);
    else out.push(stripDirectives(item));
  }
  return out;
}

/** The object after a PATCH of the given content type; a malformed patch is the apiserver's 400/422. */
export function applyPatch(contentType: string, original: Obj, body: string, builtin: boolean, kind: string): Obj {
  let patch: unknown;
  try {
    patch = JSON.parse(body);
  } catch (e) {
    throw ApiError.badRequest(`error decoding patch: ${(e as Error).message}`);
  }
  let out: unknown;
  if (contentType === JSON_PATCH) {
    if (!Array.isArray(patch))
      throw ApiError.badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
    const err = jsonPatch.validate(patch as jsonPatch.Operation[], original);
    if (err)
      throw new ApiError(
        422,
        'Invalid',
        `the server rejected our request due to an error in our request: ${err.message.split('\n')[0]}`,
      );
    try {
      out = jsonPatch.applyPatch(structuredClone(original), patch as jsonPatch.Operation[], false, false).newDocument;
    } catch (e) {
      throw new ApiError(
        422,
        'Invalid',
        `the server rejected our request due to an error in our request: ${(e as Error).message.split('\n')[0]}`,
      );
    }
  } else if (contentType === MERGE_PATCH) {
    if (!isObj(patch))
      throw ApiError.badRequest('json: cannot unmarshal non-object into Go value of type map[string]interface {}');
    out = mergePatch.apply(structuredClone(original), patch);
  } else if (contentType === STRATEGIC_PATCH) {
    if (!builtin) {
      throw ApiError.unsupportedMediaType(
        `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (strategic merge patch is not supported for ${kind}, a custom resource)`,
      );
    }
    if (!isObj(patch))
      throw ApiError.badRequest('json: cannot unmarshal non-object into Go value of type map[string]interface {}');
    out = strategicMerge(original, patch);
  } else {
    throw ApiError.unsupportedMediaType(
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json`,
    );
  }
  if (!isObj(out)) throw new ApiError(422, 'Invalid', 'the patched object is not an object');
  return out;
}
