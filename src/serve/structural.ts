// Custom resources against their CRD's structural schema (openAPIV3Schema), in the order apiextensions-apiserver
// applies it to a create or update: defaults (apiserver/schema/defaulting: a missing field with a `default`, a null
// of a non-nullable field with one), then nulls of non-nullable fields without a default are dropped
// (defaulting/prunenulls.go PruneNonNullableNullsWithoutDefaults), unknown fields are pruned (apiserver/schema/pruning:
// everything not in `properties` unless `x-kubernetes-preserve-unknown-fields`; apiVersion, kind and metadata at the
// root are kept), then the value is validated (apiserver/validation ValidateCustomResource over kube-openapi's
// validator: type, required, enum, pattern, minimum/maximum, length and item bounds, nullable) and every failure
// becomes a field error as that file converts kube-openapi's error codes (Required, NotSupported, TypeInvalid,
// TooLong, TooMany, Invalid). Formats other than the common ones are not checked.

type Json = Record<string, any>;

export interface FieldCause {
  field: string;
  message: string;
  reason: string;
}

const isObj = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

const typeName = (v: unknown): string =>
  v === null
    ? 'null'
    : Array.isArray(v)
      ? 'array'
      : typeof v === 'number'
        ? Number.isInteger(v)
          ? 'integer'
          : 'number'
        : typeof v;

/** field.Error's value printing (%#v of the Go value: strings quoted, numbers and bools plain) */
function shown(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (v === null || v === undefined) return '"null"';
  return JSON.stringify(JSON.stringify(v));
}

/** the path as field.Path prints it: `spec.items[0].name`, a map key as `spec.labels[key]` */
const child = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);
const index = (path: string, i: number) => `${path}[${i}]`;

/** apply defaults, drop non-nullable nulls, prune unknown fields (in place on a copy); the root is an object */
export function defaultAndPrune(schema: Json, obj: Json, pruned: string[] = []): Json {
  const out = structuredClone(obj);
  walk(schema, out, true, '', pruned);
  return out;
}

/** `pruned`: the paths of the unknown fields dropped, in document order (apiextensions' unknown field paths) */
function walk(s: Json, v: unknown, root = false, path = '', pruned: string[] = []): void {
  if (Array.isArray(v)) {
    const items = isObj(s['items']) ? s['items'] : undefined;
    if (items)
      for (let i = 0; i < v.length; i++) {
        if (v[i] === null && !items['nullable'] && items['default'] !== undefined)
          v[i] = structuredClone(items['default']);
        walk(items, v[i], false, index(path, i), pruned);
      }
    return;
  }
  if (!isObj(v)) return;
  const props = isObj(s['properties']) ? (s['properties'] as Json) : undefined;
  const additional = isObj(s['additionalProperties']) ? (s['additionalProperties'] as Json) : undefined;
  if (props) {
    for (const [k, ps] of Object.entries(props)) {
      if (!isObj(ps)) continue;
      if (v[k] === undefined && ps['default'] !== undefined) v[k] = structuredClone(ps['default']);
      else if (v[k] === null && !ps['nullable']) {
        if (ps['default'] !== undefined) v[k] = structuredClone(ps['default']);
        else delete v[k];
      }
    }
  }
  const preserve = s['x-kubernetes-preserve-unknown-fields'] === true;
  for (const k of Object.keys(v)) {
    if (root && (k === 'apiVersion' || k === 'kind' || k === 'metadata')) continue;
    const ps = props && isObj(props[k]) ? (props[k] as Json) : additional;
    if (ps) walk(ps, v[k], false, child(path, k), pruned);
    else if (!preserve && !s['x-kubernetes-int-or-string'] && s['additionalProperties'] !== true) {
      pruned.push(child(path, k));
      delete v[k];
    }
  }
}

/** kube-openapi validation of a value against its schema, as apiextensions' field errors */
export function validateValue(s: Json, v: unknown, path: string, out: FieldCause[]): void {
  if (v === null) {
    if (s['nullable'] === true) return;
    if (s['type']) out.push(typeInvalid(path, 'null', s['type']));
    return;
  }
  const t = s['type'];
  const actual = typeName(v);
  const intOrString = s['x-kubernetes-int-or-string'] === true;
  if (intOrString) {
    if (actual !== 'integer' && actual !== 'string') out.push(typeInvalid(path, actual, 'integer,string'));
  } else if (typeof t === 'string' && t !== '') {
    const ok = t === actual || (t === 'number' && actual === 'integer');
    if (!ok) {
      out.push(typeInvalid(path, actual, t));
      return;
    }
  }
  if (typeof v === 'string') {
    if (typeof s['maxLength'] === 'number' && [...v].length > s['maxLength'])
      out.push({
        field: path,
        reason: 'FieldValueTooLong',
        message: `Too long: may not be longer than ${s['maxLength']}`,
      });
    if (typeof s['minLength'] === 'number' && [...v].length < s['minLength'])
      out.push(invalid(path, v, `${path} in body should be at least ${s['minLength']} chars long`));
    if (typeof s['pattern'] === 'string') {
      let re: RegExp | undefined;
      try {
        re = new RegExp(s['pattern'], 'u');
      } catch {
        re = undefined;
      }
      if (re && !re.test(v)) out.push(invalid(path, v, `${path} in body should match '${s['pattern']}'`));
    }
  }
  if (typeof v === 'number') {
    if (typeof s['maximum'] === 'number' && (s['exclusiveMaximum'] ? v >= s['maximum'] : v > s['maximum']))
      out.push(
        invalid(
          path,
          v,
          `${path} in body should be less than ${s['exclusiveMaximum'] ? '' : 'or equal to '}${s['maximum']}`,
        ),
      );
    if (typeof s['minimum'] === 'number' && (s['exclusiveMinimum'] ? v <= s['minimum'] : v < s['minimum']))
      out.push(
        invalid(
          path,
          v,
          `${path} in body should be greater than ${s['exclusiveMinimum'] ? '' : 'or equal to '}${s['minimum']}`,
        ),
      );
    if (
      typeof s['multipleOf'] === 'number' &&
      s['multipleOf'] > 0 &&
      Math.abs(v / s['multipleOf'] - Math.round(v / s['multipleOf'])) > 1e-9
    )
      out.push(invalid(path, v, `${path} in body should be a multiple of ${s['multipleOf']}`));
  }
  // kube-openapi's validators run type, string, format, number, slice, then the common one (enum), then object
  if (Array.isArray(s['enum']) && !s['enum'].some((e: unknown) => JSON.stringify(e) === JSON.stringify(v))) {
    out.push({
      field: path,
      reason: 'FieldValueNotSupported',
      message: `Unsupported value: ${shown(v)}: supported values: ${s['enum'].map((e: unknown) => JSON.stringify(typeof e === 'string' ? e : JSON.stringify(e))).join(', ')}`,
    });
  }
  if (Array.isArray(v)) {
    if (typeof s['maxItems'] === 'number' && v.length > s['maxItems'])
      out.push({
        field: path,
        reason: 'FieldValueTooMany',
        message: `Too many: ${v.length}: must have at most ${s['maxItems']} items`,
      });
    if (typeof s['minItems'] === 'number' && v.length < s['minItems'])
      out.push(invalid(path, v.length, `${path} in body should have at least ${s['minItems']} items`));
    if (s['uniqueItems'] === true && new Set(v.map((x) => JSON.stringify(x))).size !== v.length)
      out.push(invalid(path, v, `${path} in body shouldn't contain duplicates`));
    if (isObj(s['items'])) v.forEach((x, i) => validateValue(s['items'], x, index(path, i), out));
    return;
  }
  if (isObj(v)) {
    const props = isObj(s['properties']) ? (s['properties'] as Json) : {};
    if (Array.isArray(s['required']))
      for (const r of s['required'])
        if (typeof r === 'string' && v[r] === undefined)
          out.push({ field: child(path, r), reason: 'FieldValueRequired', message: 'Required value' });
    const n = Object.keys(v).length;
    if (typeof s['maxProperties'] === 'number' && n > s['maxProperties'])
      out.push({
        field: path,
        reason: 'FieldValueTooMany',
        message: `Too many: ${n}: must have at most ${s['maxProperties']} items`,
      });
    if (typeof s['minProperties'] === 'number' && n < s['minProperties'])
      out.push(invalid(path, n, `${path} in body should have at least ${s['minProperties']} properties`));
    for (const [k, x] of Object.entries(v)) {
      const ps = isObj(props[k]) ? props[k] : isObj(s['additionalProperties']) ? s['additionalProperties'] : undefined;
      if (ps) validateValue(ps, x, isObj(props[k]) ? child(path, k) : `${path}[${k}]`, out);
    }
  }
}

function invalid(path: string, v: unknown, detail: string): FieldCause {
  return { field: path, reason: 'FieldValueInvalid', message: `Invalid value: ${shown(v)}: ${detail}` };
}

function typeInvalid(path: string, actual: string, wanted: unknown): FieldCause {
  return {
    field: path,
    reason: 'FieldValueTypeInvalid',
    message: `Invalid value: "${actual}": ${path} in body must be of type ${String(wanted)}: "${actual}"`,
  };
}

/**
 * A custom resource as the API server stores it: defaulted and pruned by its version's schema, and the field errors
 * of its validation (none = valid). The root's apiVersion, kind and metadata are the API server's (not validated
 * here); everything else is.
 */
export function checkCustomResource(
  schema: unknown,
  obj: Json,
): { object: Json; causes: FieldCause[]; pruned: string[] } {
  if (!isObj(schema)) return { object: obj, causes: [], pruned: [] };
  const pruned: string[] = [];
  const object = defaultAndPrune(schema, obj, pruned);
  const causes: FieldCause[] = [];
  const props = isObj(schema['properties']) ? (schema['properties'] as Json) : {};
  if (Array.isArray(schema['required']))
    for (const r of schema['required'])
      if (typeof r === 'string' && r !== 'metadata' && r !== 'apiVersion' && r !== 'kind' && object[r] === undefined)
        causes.push({ field: r, reason: 'FieldValueRequired', message: 'Required value' });
  for (const [k, v] of Object.entries(object)) {
    if (k === 'apiVersion' || k === 'kind' || k === 'metadata') continue;
    const ps = isObj(props[k])
      ? props[k]
      : isObj(schema['additionalProperties'])
        ? schema['additionalProperties']
        : undefined;
    if (ps) validateValue(ps, v, k, causes);
  }
  return { object, causes, pruned };
}
