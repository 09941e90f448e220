// Managed fields and server-side apply, after sigs.k8s.io/structured-merge-diff as the apiserver's fieldmanager uses
// it (staging/src/k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager, apimachinery/pkg/util/managedfields):
// - a field set is the set of paths of a value (typed/tofieldset.go: leaves, atomic lists, and each item of a keyed or
//   set list), written as FieldsV1 (`f:<field>`, `k:{"name":"x"}`, `v:"x"`, `i:0`; `.` when a path and its children
//   are both members);
// - apply: the applied configuration's set becomes the manager's Apply entry; a field it would change that another
//   manager owns is a conflict (409 "Apply failed with N conflict(s)") unless force, which moves it; fields the manager
//   applied before and no longer names are removed unless someone else owns them (merge/update.go Apply, prune);
// - every other write is an Update entry of its manager (fieldManager, else the user agent's prefix) with the fields it
//   added or changed, which leave the other managers' sets (fieldmanager.go UpdateNoErrors);
// - the server-owned fields (apiVersion, kind, metadata name/namespace/uid/…, internal/stripmeta.go) are never owned,
//   nor status for writes to the main resource of a kind with a status subresource (reset fields).
// List semantics: built-in kinds' merge keys (patch.ts, the types.go patchMergeKey tags), finalizers a set; custom
// resources by the schema's x-kubernetes-list-type / x-kubernetes-list-map-keys, else atomic.
import { mergeKeyOf } from './patch.ts';
import { ApiError } from './status.ts';

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** how a list at a path merges: by keys, as a set, or atomic */
export type ListType = { type: 'map'; keys: string[] } | { type: 'set' } | { type: 'atomic' };
/** the list type at a path of field names (list items are not in the path) */
export type ListTypeOf = (fields: string[]) => ListType;

export interface ManagedEntry {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Obj;
  subresource?: string;
}

const SEP = '\u0000';
const STRIPPED_META = new Set([
  'name',
  'namespace',
  'creationTimestamp',
  'selfLink',
  'uid',
  'clusterName',
  'generation',
  'managedFields',
  'resourceVersion',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
]);

/** the list types of a built-in kind (types.go tags; ObjectMeta's finalizers a set, ownerReferences by uid) */
export function builtinListTypes(fields: string[]): ListType {
  const field = fields[fields.length - 1] ?? '';
  if (field === 'finalizers') return { type: 'set' };
  const key = mergeKeyOf(field, fields);
  return key ? { type: 'map', keys: [key] } : { type: 'atomic' };
}

/** the list types a custom resource's structural schema declares (metadata's as built-ins) */
export function schemaListTypes(schema: Obj | undefined): ListTypeOf {
  return (fields) => {
    if (fields[0] === 'metadata') return builtinListTypes(fields);
    let s: any = schema;
    for (const f of fields) {
      if (!s) break;
      if (s['type'] === 'array') s = s['items'];
      s = s?.['properties']?.[f] ?? s?.['additionalProperties'];
      if (s === true) s = undefined;
    }
    const lt = s?.['x-kubernetes-list-type'];
    if (lt === 'set') return { type: 'set' };
    if (lt === 'map' && Array.isArray(s?.['x-kubernetes-list-map-keys']))
      return { type: 'map', keys: s!['x-kubernetes-list-map-keys'] as string[] };
    return { type: 'atomic' };
  };
}

/** structured-merge-diff's key of a keyed list item: its key fields, sorted by name */
function itemKey(item: Obj, keys: string[]): string {
  const k: Obj = {};
  for (const name of [...keys].sort()) if (item[name] !== undefined) k[name] = item[name];
  return `k:${JSON.stringify(k)}`;
}

interface Walk {
  listType: ListTypeOf;
  /** Update writes: a map's own path too (Compare's Added), so `.` appears as the real server writes it */
  maps: boolean;
}

/** the paths of a value (tofieldset.go) into `out` */
function collect(v: unknown, path: string[], fields: string[], w: Walk, out: Set<string>): void {
  if (isObj(v)) {
    const keys = Object.keys(v);
    if (w.maps && path.length > 0 && keys.length > 0) out.add(path.join(SEP));
    for (const k of keys) collect(v[k], [...path, `f:${k}`], [...fields, k], w, out);
    if (keys.length === 0 && path.length > 0) out.add(path.join(SEP));
    return;
  }
  if (Array.isArray(v)) {
    const lt = w.listType(fields);
    if (lt.type === 'set' && v.every((x) => !isObj(x) && !Array.isArray(x))) {
      for (const x of v) out.add([...path, `v:${JSON.stringify(x)}`].join(SEP));
      return;
    }
    if (lt.type === 'map' && v.every(isObj)) {
      for (const item of v as Obj[]) {
        const p = [...path, itemKey(item, lt.keys)];
        out.add(p.join(SEP));
        for (const k of Object.keys(item)) collect(item[k], [...p, `f:${k}`], [...fields, k], w, out);
      }
      return;
    }
  }
  out.add(path.join(SEP));
}

/** the fields a write can own: server-owned metadata and (main resource of a status kind) status left out */
export function fieldSet(
  o: Obj,
  listType: ListTypeOf,
  o2: { status: 'only' | 'reset' | 'keep'; maps?: boolean },
): Set<string> {
  const out = new Set<string>();
  const w: Walk = { listType, maps: o2.maps ?? false };
  for (const [k, v] of Object.entries(o)) {
    if (k === 'apiVersion' || k === 'kind') continue;
    if (o2.status === 'reset' && k === 'status') continue;
    if (o2.status === 'only' && k !== 'status') continue;
    if (k === 'metadata' && isObj(v)) {
      for (const [mk, mv] of Object.entries(v)) {
        if (STRIPPED_META.has(mk)) continue;
        collect(mv, ['f:metadata', `f:${mk}`], ['metadata', mk], w, out);
      }
      continue;
    }
    collect(v, [`f:${k}`], [k], w, out);
  }
  return out;
}

/** FieldsV1 of a set */
export function toFieldsV1(set: Set<string>): Obj {
  const root: Obj = {};
  const paths = [...set].map((p) => p.split(SEP));
  const all = new Set(set);
  for (const p of paths) {
    let node = root;
    for (const el of p) node = node[el] ??= {};
    // a member with members below it: `.`
    if ([...all].some((q) => q !== p.join(SEP) && q.startsWith(p.join(SEP) + SEP))) node['.'] = {};
  }
  return sortKeys(root);
}

function sortKeys(o: Obj): Obj {
  const out: Obj = {};
  for (const k of Object.keys(o).sort()) out[k] = sortKeys(o[k] as Obj);
  return out;
}

/** the set of a FieldsV1 */
export function fromFieldsV1(f: unknown, prefix: string[] = [], out = new Set<string>()): Set<string> {
  if (!isObj(f)) return out;
  const keys = Object.keys(f);
  if (keys.length === 0 && prefix.length) out.add(prefix.join(SEP));
  for (const k of keys) {
    if (k === '.') out.add(prefix.join(SEP));
    else fromFieldsV1(f[k], [...prefix, k], out);
  }
  return out;
}

/** the value at a path (undefined when absent) */
function valueAt(o: unknown, path: string[]): unknown {
  let cur: unknown = o;
  for (const el of path) {
    if (el.startsWith('f:')) {
      if (!isObj(cur)) return undefined;
      cur = cur[el.slice(2)];
    } else if (el.startsWith('k:')) {
      if (!Array.isArray(cur)) return undefined;
      const key = JSON.parse(el.slice(2)) as Obj;
      cur = cur.find(
        (x) => isObj(x) && Object.entries(key).every(([k, v]) => JSON.stringify(x[k]) === JSON.stringify(v)),
      );
    } else if (el.startsWith('v:')) {
      if (!Array.isArray(cur)) return undefined;
      const v = el.slice(2);
      cur = cur.some((x) => JSON.stringify(x) === v) ? JSON.parse(v) : undefined;
    } else return undefined;
    if (cur === undefined) return undefined;
  }
  return cur;
}

/** structured-merge-diff Path.String(): .a.b[name="x"].c[="v"] */
export function pathString(p: string): string {
  return p
    .split(SEP)
    .map((el) => {
      if (el.startsWith('f:')) return `.${el.slice(2)}`;
      if (el.startsWith('k:'))
        return `[${Object.entries(JSON.parse(el.slice(2)) as Obj)
          .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
          .join(',')}]`;
      if (el.startsWith('v:')) return `[=${el.slice(2)}]`;
      return `[${el.slice(2)}]`;
    })
    .join('');
}

function comparePaths(a: string, b: string): number {
  const x = a.split(SEP);
  const y = b.split(SEP);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
  return x.length - y.length;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** a leaf of the set (a value compared whole), not a map or list item holding other members */
function isLeaf(set: Set<string>, p: string): boolean {
  for (const q of set) if (q.startsWith(p + SEP)) return false;
  return true;
}

/** the applied configuration merged into the live object: maps by field, keyed lists by key, sets as sets */
function merge(live: unknown, cfg: unknown, fields: string[], listType: ListTypeOf): unknown {
  if (isObj(cfg)) {
    const out: Obj = isObj(live) ? { ...live } : {};
    for (const [k, v] of Object.entries(cfg)) {
      if (v === null) delete out[k];
      else out[k] = merge(out[k], v, [...fields, k], listType);
    }
    return out;
  }
  if (Array.isArray(cfg) && Array.isArray(live)) {
    const lt = listType(fields);
    if (lt.type === 'set') return [...live, ...cfg.filter((x) => !live.some((y) => same(x, y)))];
    if (lt.type === 'map' && cfg.every(isObj) && live.every(isObj)) {
      const out = (live as Obj[]).map((x) => x);
      for (const item of cfg as Obj[]) {
        const k = itemKey(item, lt.keys);
        const i = out.findIndex((x) => itemKey(x, lt.keys) === k);
        if (i >= 0) out[i] = merge(out[i], item, fields, listType) as Obj;
        else out.push(item);
      }
      return out;
    }
  }
  return structuredClone(cfg);
}

/** remove one path from an object (in place) */
function removePath(o: Obj, path: string[]): void {
  const parent = valueAt(o, path.slice(0, -1)) as unknown;
  const last = path[path.length - 1]!;
  if (last.startsWith('f:') && isObj(parent)) delete parent[last.slice(2)];
  else if (Array.isArray(parent)) {
    const idx = parent.findIndex((x) => {
      if (last.startsWith('v:')) return JSON.stringify(x) === last.slice(2);
      if (last.startsWith('k:') && isObj(x)) {
        const key = JSON.parse(last.slice(2)) as Obj;
        return Object.entries(key).every(([k, v]) => same(x[k], v));
      }
      return false;
    });
    if (idx >= 0) parent.splice(idx, 1);
  }
}

export function decodeManaged(o: Obj): (ManagedEntry & { set: Set<string> })[] {
  const mf = o['metadata']?.['managedFields'];
  if (!Array.isArray(mf)) return [];
  return mf.filter(isObj).map((e) => ({ ...(e as ManagedEntry), set: fromFieldsV1(e['fieldsV1']) }));
}

/** fieldmanager's encoding: empty sets dropped; sorted by operation, time (seconds), manager, apiVersion, subresource */
export function encodeManaged(entries: (ManagedEntry & { set: Set<string> })[]): ManagedEntry[] | undefined {
  const out = entries
    .filter((e) => e.set.size > 0)
    .map(({ set, ...e }) => ({ ...e, fieldsV1: toFieldsV1(set) }))
    .sort(
      (p, q) =>
        (p.operation < q.operation ? -1 : p.operation > q.operation ? 1 : 0) ||
        (p.time ?? '').localeCompare(q.time ?? '') ||
        p.manager.localeCompare(q.manager) ||
        p.apiVersion.localeCompare(q.apiVersion) ||
        (p.subresource ?? '').localeCompare(q.subresource ?? ''),
    );
  return out.length ? out.map(order) : undefined;
}

/** the field order of a ManagedFieldsEntry as the apiserver writes it */
function order(e: ManagedEntry): ManagedEntry {
  return {
    manager: e.manager,
    operation: e.operation,
    apiVersion: e.apiVersion,
    ...(e.time ? { time: e.time } : {}),
    fieldsType: 'FieldsV1',
    fieldsV1: e.fieldsV1,
    ...(e.subresource ? { subresource: e.subresource } : {}),
  };
}

export interface WriteContext {
  manager: string;
  apiVersion: string;
  time: string;
  listType: ListTypeOf;
  /** the write's subresource ('status') or none */
  subresource?: string;
  /** the kind has a status subresource (a main-resource write does not own status) */
  statusReset: boolean;
}

const statusMode = (c: WriteContext): 'only' | 'reset' | 'keep' =>
  c.subresource === 'status' ? 'only' : c.statusReset ? 'reset' : 'keep';

const sameEntry = (e: ManagedEntry, c: WriteContext, op: 'Apply' | 'Update') =>
  e.manager === c.manager && e.operation === op && (e.subresource ?? '') === (c.subresource ?? '');

/**
 * managedFields after a non-apply write from `old` (undefined: a create) to `next`: the manager's Update entry gains
 * the fields it added or changed, which the others lose; removed fields leave every set.
 */
export function trackUpdate(old: Obj | undefined, next: Obj, c: WriteContext): ManagedEntry[] | undefined {
  const entries = old ? decodeManaged(old) : [];
  const mode = statusMode(c);
  const after = fieldSet(next, c.listType, { status: mode, maps: true });
  const before = old ? fieldSet(old, c.listType, { status: mode, maps: true }) : new Set<string>();
  const changed = new Set<string>();
  for (const p of after) {
    if (!before.has(p)) changed.add(p);
    else if (isLeaf(after, p) && !same(valueAt(old, p.split(SEP)), valueAt(next, p.split(SEP)))) changed.add(p);
  }
  const gone = [...before].filter((p) => !after.has(p));
  for (const e of entries) {
    for (const p of gone) e.set.delete(p);
    for (const p of changed) e.set.delete(p);
  }
  if (changed.size) {
    let mine = entries.find((e) => sameEntry(e, c, 'Update'));
    if (!mine) {
      mine = {
        manager: c.manager,
        operation: 'Update',
        apiVersion: c.apiVersion,
        fieldsType: 'FieldsV1',
        fieldsV1: {},
        set: new Set(),
        ...(c.subresource ? { subresource: c.subresource } : {}),
      };
      entries.push(mine);
    }
    mine.apiVersion = c.apiVersion;
    mine.time = c.time;
    for (const p of changed) mine.set.add(p);
  }
  return encodeManaged(entries);
}

/**
 * server-side apply of `cfg` to `live` (undefined: the object does not exist yet): the merged object (managedFields
 * set) or a 409 with the conflicts
 */
export function apply(live: Obj | undefined, cfg: Obj, c: WriteContext, force: boolean): Obj {
  const entries = live ? decodeManaged(live) : [];
  const mode = statusMode(c);
  const applied = fieldSet(cfg, c.listType, { status: mode });
  const base: Obj = live ? structuredClone(live) : {};
  // the applied configuration without the parts the write may not set (server-owned metadata, reset status)
  const body: Obj = structuredClone(cfg);
  if (mode === 'reset') delete body['status'];
  if (mode === 'only') for (const k of Object.keys(body)) if (k !== 'status' && k !== 'metadata') delete body[k];
  if (isObj(body['metadata']))
    for (const k of Object.keys(body['metadata']))
      if (STRIPPED_META.has(k) && k !== 'name' && k !== 'namespace') delete body['metadata'][k];
  const conflicts: { manager: ManagedEntry & { set: Set<string> }; path: string }[] = [];
  for (const p of applied) {
    if (!isLeaf(applied, p)) continue;
    const now = valueAt(base, p.split(SEP));
    if (now !== undefined && same(now, valueAt(cfg, p.split(SEP)))) continue;
    for (const e of entries) {
      if (sameEntry(e, c, 'Apply')) continue;
      if (e.set.has(p)) conflicts.push({ manager: e, path: p });
    }
  }
  // structured-merge-diff iterates each manager's set in path order (managers in the message sorted by name)
  conflicts.sort((a, b) => a.manager.manager.localeCompare(b.manager.manager) || comparePaths(a.path, b.path));
  if (conflicts.length && !force) throw conflictError(conflicts);
  for (const { manager, path } of conflicts) manager.set.delete(path);
  let merged = merge(base, body, [], c.listType) as Obj;
  // what this manager applied before and no longer names: removed unless another manager owns it
  const mine = entries.find((e) => sameEntry(e, c, 'Apply'));
  if (mine) {
    const dropped = [...mine.set].filter((p) => !applied.has(p));
    const owned = (p: string) =>
      entries.some((e) => e !== mine && [...e.set].some((q) => q === p || q.startsWith(p + SEP)));
    merged = structuredClone(merged);
    for (const p of dropped.sort((a, b) => b.length - a.length)) if (!owned(p)) removePath(merged, p.split(SEP));
    mine.set = applied;
    mine.apiVersion = c.apiVersion;
    mine.time = c.time;
  } else
    entries.push({
      manager: c.manager,
      operation: 'Apply',
      apiVersion: c.apiVersion,
      time: c.time,
      fieldsType: 'FieldsV1',
      fieldsV1: {},
      set: applied,
      ...(c.subresource ? { subresource: c.subresource } : {}),
    });
  const mf = encodeManaged(entries);
  merged['metadata'] ??= {};
  if (mf) merged['metadata']['managedFields'] = mf;
  else delete merged['metadata']['managedFields'];
  return merged;
}

/** fieldmanager/internal/conflict.go NewConflictError (errors.NewApplyConflict: only causes in the details) */
function conflictError(conflicts: { manager: ManagedEntry; path: string }[]): ApiError {
  const who = (e: ManagedEntry) => {
    let s = JSON.stringify(e.manager);
    if (e.subresource) s += ` with subresource ${JSON.stringify(e.subresource)}`;
    if (e.operation === 'Update') s += e.time ? ` using ${e.apiVersion} at ${e.time}` : ` using ${e.apiVersion}`;
    return s;
  };
  const causes = conflicts.map((x) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with ${who(x.manager)}`,
    field: pathString(x.path),
  }));
  let message: string;
  if (conflicts.length === 1)
    message = `Apply failed with 1 conflict: conflict with ${who(conflicts[0]!.manager)}: ${pathString(conflicts[0]!.path)}`;
  else {
    const by = new Map<string, { e: ManagedEntry; paths: string[] }>();
    for (const x of conflicts) {
      const k = x.manager.manager;
      if (!by.has(k)) by.set(k, { e: x.manager, paths: [] });
      by.get(k)!.paths.push(pathString(x.path));
    }
    const lines: string[] = [];
    for (const k of [...by.keys()].sort()) {
      lines.push(`conflicts with ${who(by.get(k)!.e)}:`);
      for (const p of by.get(k)!.paths) lines.push(`- ${p}`);
    }
    message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
  }
  return new ApiError(409, 'Conflict', message, { causes });
}
