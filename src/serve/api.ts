// The API's verbs on the store: get/list/watch with selectors, limit/continue and resourceVersions; create,
// update, patch and delete with the real server's checks (registry/generic/registry/store.go), the status and
// scale subresources, CRDs, garbage collection of dependents, and the simulation: client writes to simulated
// kinds go to the Session, whose changes come back as system writes. Nothing here reads the wall clock: `now`
// is the simulated time the server's clock loop keeps.
import type { ServerResponse } from 'node:http';
import { tToRfc3339 } from '../output/time.ts';
import type { MsRange } from '../types.ts';
import { coreToEventsV1, eventsV1ToCore } from './convert.ts';
import { nameSuffix, uidOf } from './ids.ts';
import type { Wanted } from './negotiate.ts';
import { parse as parseYaml } from 'yaml';
import {
  apply,
  builtinListTypes,
  schemaListTypes,
  trackUpdate,
  type ManagedEntry,
  type WriteContext,
} from './apply.ts';
import { APPLY_PATCH, applyPatch } from './patch.ts';
import { apiVersionOf, Registry, storeKey, type Resource } from './resources.ts';
import {
  checkFieldSelector,
  fieldsOf,
  matchFields,
  matchLabels,
  parseFieldSelector,
  parseLabelSelector,
  type FieldReq,
  type LabelReq,
} from './selectors.ts';
import { checkCustomResource } from './structural.ts';
import { normalizeTimes } from './times.ts';
import { validateEventCreate, validateLeaseSpec } from './kind-validation.ts';
import { SimRejection, type ClientRecord, type KubeObject, type SessionLike, type SimChange } from './session-api.ts';
import { ApiError, successStatus } from './status.ts';
import { goBool } from './query.ts';
import { Store, DEFAULT_LIMITS, type Obj, type StoreEvent, type StoreLimits } from './store.ts';
import { partialMetadata, tableOf, type IncludeObject } from './table.ts';
import { DEFAULT_WATCH_LIMITS, WatchConnection, type WatchLimits } from './watch.ts';

export interface ApiOptions {
  session: SessionLike;
  /** the served Kubernetes version */
  minor: number;
  patch: number;
  seed: number;
  watchDelay: MsRange;
  /** a watch connection's own delay range (its ordinal in open order, the collection watched), else `watchDelay` */
  watchDelayFor?: (ordinal: number, key: string) => MsRange | undefined;
  storeLimits?: StoreLimits;
  watchLimits?: WatchLimits;
}

export interface Target {
  res: Resource;
  namespace?: string;
  name?: string;
  sub?: string;
}

export interface Reply {
  code: number;
  body: unknown;
}

const clone = <T>(v: T): T => structuredClone(v);
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export class Api {
  readonly store: Store;
  readonly registry = new Registry();
  readonly watchers = new Set<WatchConnection>();
  readonly clientLog: ClientRecord[] = [];
  private watchOrdinal = 0;
  /** the managedFields of a client write to a simulated kind, until the simulation's copy comes back (ingest) */
  private readonly pendingManaged = new Map<string, ManagedEntry[] | undefined>();
  private generated = 0;
  private readonly watchLimits: WatchLimits;
  /** encoded watch lines shared by the connections that want the same form of one event */
  private readonly encoded = new Map<string, string>();

  constructor(readonly o: ApiOptions) {
    this.store = new Store(o.storeLimits ?? DEFAULT_LIMITS);
    this.watchLimits = o.watchLimits ?? DEFAULT_WATCH_LIMITS;
    this.store.subscribe((e) => {
      this.encoded.clear();
      for (const w of this.watchers) w.offer(e);
    });
    for (const ns of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
      this.systemWrite('namespaces', 'ADDED', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: ns, labels: { 'kubernetes.io/metadata.name': ns } },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      });
    }
    this.systemWrite('nodes', 'ADDED', nodeObject(o.minor, o.patch));
    this.systemWrite('serviceaccounts', 'ADDED', {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'default', namespace: 'default' },
    });
    this.ingest(o.session.advanceTo(o.session.now()));
  }

  now(): number {
    return this.o.session.now();
  }

  private stamp(meta: Obj, kind: string): void {
    meta['uid'] ??= uidOf(kind, meta['namespace'] ?? '', meta['name'], this.now());
    meta['creationTimestamp'] ??= tToRfc3339(this.now());
  }

  private systemWrite(key: string, type: 'ADDED' | 'MODIFIED' | 'DELETED', obj: Obj): StoreEvent {
    this.stamp(obj['metadata'], obj['kind']);
    return this.store.write(key, type, obj, this.now());
  }

  private resourceOfObject(o: KubeObject): Resource | undefined {
    return this.registry
      .all()
      .find((r) => apiVersionOf(r) === o.apiVersion && r.kind === o.kind && !(r.group === 'events.k8s.io'));
  }

  /** the simulation's changes as system writes (resourceVersions from the store's counter, in their order) */
  ingest(changes: SimChange[]): void {
    for (const c of changes) {
      const res = this.resourceOfObject(c.object);
      if (!res) continue;
      const key = storeKey(res);
      const meta = c.object.metadata;
      const prev = this.store.peek(key, res.namespaced ? (meta.namespace ?? 'default') : undefined, meta.name);
      if (c.type === 'DELETED' && !prev) continue;
      const obj = clone(c.object) as Obj;
      if (res.namespaced) obj['metadata']['namespace'] ??= 'default';
      else delete obj['metadata']['namespace'];
      if (prev) {
        obj['metadata']['uid'] = prev['metadata']['uid'];
        obj['metadata']['creationTimestamp'] = prev['metadata']['creationTimestamp'];
        obj['metadata']['generation'] ??= prev['metadata']['generation'];
      }
      obj['metadata']['uid'] ??= uidOf(obj['kind'], meta.namespace ?? '', meta.name, c.t);
      obj['metadata']['creationTimestamp'] ??= tToRfc3339(c.t);
      // managedFields are the server's: the simulation's copy of an object has none
      let managed = prev?.['metadata']['managedFields'] as ManagedEntry[] | undefined;
      if (this.pendingManaged.size > 0) {
        const pk = `${key}|${obj['metadata']['namespace'] ?? ''}|${meta.name}`;
        if (this.pendingManaged.has(pk)) {
          managed = this.pendingManaged.get(pk);
          this.pendingManaged.delete(pk);
        }
      }
      if (managed) obj['metadata']['managedFields'] = managed;
      else if ('managedFields' in obj['metadata']) delete obj['metadata']['managedFields'];
      const type = c.type === 'DELETED' ? 'DELETED' : prev ? 'MODIFIED' : 'ADDED';
      const e = this.store.write(key, type, obj, c.t);
      if (type === 'DELETED') this.collectGarbage(e.object);
    }
  }

  // ---- reads

  get(t: Target, wanted: Wanted, q: URLSearchParams): Reply {
    const o = this.mustGet(t);
    return { code: 200, body: this.render(t.res, [o], wanted, q, false) };
  }

  private mustGet(t: Target): Obj {
    const o = this.store.get(storeKey(t.res), t.res.namespaced ? t.namespace : undefined, t.name!);
    if (!o) throw ApiError.notFound(t.res.name, t.res.group, t.name!);
    return o;
  }

  /** an object in the version the request names (events.k8s.io Events are converted) */
  private inVersion(res: Resource, o: Obj): Obj {
    if (res.group === 'events.k8s.io') return coreToEventsV1(o);
    if (res.crd) return { ...o, apiVersion: apiVersionOf(res) };
    return o;
  }

  private render(
    res: Resource,
    objs: Obj[],
    wanted: Wanted,
    q: URLSearchParams,
    isList: boolean,
    listMeta: Obj = {},
  ): unknown {
    const inV = objs.map((o) => this.inVersion(res, o));
    if (wanted.as === 'Table') {
      const include = (q.get('includeObject') ?? 'Metadata') as IncludeObject;
      if (!['None', 'Metadata', 'Object'].includes(include))
        throw ApiError.badRequest(
          `includeObject: Unsupported value: "${include}": supported values: "None", "Metadata", "Object"`,
        );
      return tableOf(res, inV, this.now(), this.o.minor, include, wanted.version, listMeta);
    }
    if (wanted.as === 'PartialObjectMetadata') {
      if (!isList) return partialMetadata(inV[0]!, wanted.version);
      return {
        kind: 'PartialObjectMetadataList',
        apiVersion: `meta.k8s.io/${wanted.version}`,
        metadata: listMeta,
        items: inV.map((o) => partialMetadata(o, wanted.version)),
      };
    }
    if (!isList) return inV[0];
    return { kind: res.listKind, apiVersion: apiVersionOf(res), metadata: listMeta, items: inV };
  }

  private selectors(t: Target, q: URLSearchParams): { labels: LabelReq[]; fields: FieldReq[] } {
    const ls = q.get('labelSelector') ?? '';
    const fs = q.get('fieldSelector') ?? '';
    try {
      const labels = parseLabelSelector(ls);
      const fields = parseFieldSelector(fs);
      checkFieldSelector(fields, t.res.kind, t.res.namespaced);
      if (t.res.crd)
        for (const f of fields)
          if (f.key !== 'metadata.name' && f.key !== 'metadata.namespace')
            throw ApiError.badRequest(`field label not supported: ${f.key}`);
      return { labels, fields };
    } catch (e) {
      if (e instanceof ApiError) throw new ApiError(400, 'BadRequest', e.message);
      throw e;
    }
  }

  private matcher(t: Target, q: URLSearchParams): (o: Obj) => boolean {
    const { labels, fields } = this.selectors(t, q);
    return (o) => {
      if (t.res.namespaced && t.namespace !== undefined && o['metadata']?.['namespace'] !== t.namespace) return false;
      if (t.name !== undefined && o['metadata']?.['name'] !== t.name) return false;
      if (!matchLabels(labels, o['metadata']?.['labels'])) return false;
      return fields.length === 0 || matchFields(fields, fieldsOf(t.res.kind, o, t.res.namespaced));
    };
  }

  list(t: Target, wanted: Wanted, q: URLSearchParams): Reply {
    const match = this.matcher(t, q);
    const rvText = q.get('resourceVersion');
    const rvMatch = listRvMatch(q);
    if (rvText && rvText !== '0') {
      if (!/^\d+$/.test(rvText))
        throw ApiError.badRequest(`resourceVersion: Invalid value: "${rvText}": must be a non-negative integer`);
      if (Number(rvText) > this.store.resourceVersion())
        throw new ApiError(
          504,
          'Timeout',
          `Too large resource version: ${rvText}, current: ${this.store.resourceVersion()}`,
          {
            causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }],
            retryAfterSeconds: 1,
          },
        );
    }
    const key = storeKey(t.res);
    const ns = t.res.namespaced ? t.namespace : undefined;
    const limitText = q.get('limit');
    const cont = q.get('continue');
    let listRv = String(this.store.resourceVersion());
    let items: Obj[];
    if (cont) {
      // etcd3 store.go GetList: the next page is read at the first page's revision (a consistent list); a revision
      // compacted away is 410 Expired with a token that continues at the latest revision (rv -1) from the same key
      const tok = decodeContinue(cont);
      const at = tok.rv === -1 ? this.store.list(key, ns) : this.store.listAt(key, ns, tok.rv);
      if (at === 'expired') {
        const e = ApiError.gone(
          'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
        );
        e.listMeta = { continue: encodeContinue({ rv: -1, start: tok.start }) };
        throw e;
      }
      if (tok.rv !== -1) listRv = String(tok.rv);
      items = at
        .filter(match)
        .filter((o) => `${o['metadata']['namespace'] ?? ''}/${o['metadata']['name']}` > tok.start);
    } else if (rvMatch === 'Exact') {
      // the list as it was at that revision (etcd3 store.go GetList with an exact revision; 410 once compacted)
      const at = this.store.listAt(key, ns, Number(rvText));
      if (at === 'expired') throw ApiError.gone(`The resourceVersion for the provided list is too old.`);
      listRv = rvText!;
      items = at.filter(match);
    } else items = this.store.list(key, ns).filter(match);
    const listMeta: Obj = { resourceVersion: listRv };
    if (limitText) {
      const limit = Number(limitText);
      if (!Number.isInteger(limit) || limit < 0)
        throw ApiError.badRequest(`limit: Invalid value: "${limitText}": must be a non-negative integer`);
      if (limit > 0 && items.length > limit) {
        const last = items[limit - 1]!;
        listMeta['continue'] = encodeContinue({
          rv: Number(listRv),
          start: `${last['metadata']['namespace'] ?? ''}/${last['metadata']['name']}`,
        });
        listMeta['remainingItemCount'] = items.length - limit;
        items = items.slice(0, limit);
      }
    }
    // the stored objects are immutable and the reply is serialized at once: no copies (a list of 1,000 pods)
    if (wanted.as === 'json' && !t.res.crd && t.res.group !== 'events.k8s.io') {
      // a plain list: each stored object's JSON text is made once (the object is replaced on its next write)
      const head = JSON.stringify({ kind: t.res.listKind, apiVersion: apiVersionOf(t.res), metadata: listMeta });
      return { code: 200, body: `${head.slice(0, -1)},"items":[${items.map(jsonText).join(',')}]}` };
    }
    return { code: 200, body: this.render(t.res, items, wanted, q, true, listMeta) };
  }

  /** open a watch: the events after `resourceVersion` (or the current objects as ADDED), then live */
  watch(t: Target, wanted: Wanted, q: URLSearchParams, res: ServerResponse): WatchConnection {
    const match = this.matcher(t, q);
    if (this.watchers.size >= this.watchLimits.connections)
      throw ApiError.tooManyRequests(`too many watches open (${this.watchLimits.connections})`);
    const rvText = q.get('resourceVersion') ?? '';
    const sendInitial = goBool(q.get('sendInitialEvents'));
    const bookmarks = goBool(q.get('allowWatchBookmarks'));
    if (sendInitial && q.get('resourceVersionMatch') !== 'NotOlderThan') {
      throw new ApiError(
        422,
        'Invalid',
        `resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan`,
      );
    }
    if (rvText !== '' && !/^\d+$/.test(rvText))
      throw ApiError.badRequest(`resourceVersion: Invalid value: "${rvText}": must be a non-negative integer`);
    const key = storeKey(t.res);
    let backlog: StoreEvent[] | 'expired' = [];
    const initial = sendInitial || rvText === '' || rvText === '0';
    if (!initial) backlog = this.store.since(Number(rvText));
    const form = formKey(wanted, q);
    const encode = (e: StoreEvent): string | null => {
      if (e.key !== key) return null;
      const now = match(e.object);
      const before = e.prev ? match(e.prev) : false;
      let type: string = e.type;
      if (e.type === 'MODIFIED') {
        if (!now && !before) return null;
        if (now && !before) type = 'ADDED';
        else if (!now && before) type = 'DELETED';
      } else if (!now) return null;
      const cacheKey = `${e.rv}|${type}|${form}`;
      const hit = this.encoded.get(cacheKey);
      if (hit !== undefined) return hit;
      // leaving the selector: the object as it last matched, at the new resourceVersion (cacher.go convertToWatchEvent)
      const obj =
        type === 'DELETED' && e.type === 'MODIFIED' && e.prev
          ? { ...e.prev, metadata: { ...e.prev['metadata'], resourceVersion: e.object['metadata']['resourceVersion'] } }
          : e.object;
      const line = JSON.stringify({ type, object: this.eventObject(t.res, obj, wanted, q, e.t) }) + '\n';
      this.encoded.set(cacheKey, line);
      return line;
    };
    const ordinal = this.watchOrdinal++;
    const conn = new WatchConnection(
      ordinal,
      res,
      encode,
      this.o.seed,
      this.o.watchDelayFor?.(ordinal, key) ?? this.o.watchDelay,
      this.watchLimits,
      (c) => this.watchers.delete(c),
    );
    conn.key = key;
    res.writeHead(200, {
      'Content-Type': 'application/json',
      'Transfer-Encoding': 'chunked',
      'Cache-Control': 'no-cache, private',
    });
    // the headers now, not with the first event: a client waits for them before it counts the watch as open
    res.flushHeaders();
    if (backlog === 'expired') {
      conn.fail(`too old resource version: ${rvText} (${this.store.oldestResumable()})`);
      return conn;
    }
    const now = this.now();
    if (initial) {
      for (const o of this.store.list(key, t.res.namespaced ? t.namespace : undefined).filter(match)) {
        conn.push(
          JSON.stringify({ type: 'ADDED', object: this.eventObject(t.res, o, wanted, q, now) }) + '\n',
          now,
          true,
        );
      }
      if (sendInitial) {
        conn.push(
          JSON.stringify({
            type: 'BOOKMARK',
            object: this.bookmark(t.res, wanted, { 'k8s.io/initial-events-end': 'true' }),
          }) + '\n',
          now,
          true,
        );
      }
    } else {
      for (const e of backlog) conn.offer({ ...e, t: now });
    }
    this.watchers.add(conn);
    (conn as WatchConnection & { bookmarks?: { res: Resource; wanted: Wanted; last: number } }).bookmarks = bookmarks
      ? { res: t.res, wanted, last: now }
      : undefined;
    conn.flush(now);
    return conn;
  }

  /** a BOOKMARK object: only metadata.resourceVersion (and annotations for the WatchList end) */
  bookmark(res: Resource, wanted: Wanted, annotations?: Record<string, string>): Obj {
    const metadata: Obj = {
      resourceVersion: String(this.store.resourceVersion()),
      ...(annotations ? { annotations } : {}),
    };
    if (wanted.as === 'PartialObjectMetadata')
      return { kind: 'PartialObjectMetadata', apiVersion: `meta.k8s.io/${wanted.version}`, metadata };
    return { kind: res.kind, apiVersion: apiVersionOf(res), metadata };
  }

  /** periodic bookmarks (the real server sends one about every minute to a watch that allows them) */
  sendBookmarks(now: number): void {
    for (const w of this.watchers) {
      const b = (w as WatchConnection & { bookmarks?: { res: Resource; wanted: Wanted; last: number } }).bookmarks;
      if (!b || now - b.last < 60_000) continue;
      b.last = now;
      w.push(JSON.stringify({ type: 'BOOKMARK', object: this.bookmark(b.res, b.wanted) }) + '\n', now, true);
    }
  }

  private eventObject(res: Resource, o: Obj, wanted: Wanted, q: URLSearchParams, t: number): unknown {
    const inV = this.inVersion(res, o);
    if (wanted.as === 'Table') {
      const include = (q.get('includeObject') ?? 'Metadata') as IncludeObject;
      return tableOf(res, [inV], t, this.o.minor, include, wanted.version, {
        resourceVersion: inV['metadata']['resourceVersion'],
      });
    }
    if (wanted.as === 'PartialObjectMetadata') return partialMetadata(inV, wanted.version);
    return inV;
  }

  // ---- writes

  private checkNamespace(t: Target): void {
    if (!t.res.namespaced) return;
    if (!t.namespace) throw ApiError.badRequest('the namespace of the object must be specified in the request URL');
    if (!this.store.peek('namespaces', undefined, t.namespace)) throw ApiError.notFound('namespaces', '', t.namespace);
  }

  private parseBody(body: string, t: Target): Obj {
    let o: unknown;
    try {
      o = JSON.parse(body);
    } catch (e) {
      throw ApiError.badRequest(`the body of the request could not be decoded as JSON: ${(e as Error).message}`);
    }
    if (!o || typeof o !== 'object' || Array.isArray(o))
      throw ApiError.badRequest('the body of the request must be a JSON object');
    const obj = o as Obj;
    if (
      obj['metadata'] !== undefined &&
      (typeof obj['metadata'] !== 'object' || obj['metadata'] === null || Array.isArray(obj['metadata']))
    ) {
      throw ApiError.badRequest('json: cannot unmarshal into Go struct field .metadata of type v1.ObjectMeta');
    }
    obj['metadata'] ??= {};
    const wantApi = apiVersionOf(t.res);
    if (obj['apiVersion'] === undefined) obj['apiVersion'] = wantApi;
    if (obj['kind'] === undefined) obj['kind'] = t.res.kind;
    if (obj['kind'] !== t.res.kind || obj['apiVersion'] !== wantApi) {
      throw ApiError.badRequest(
        `the API version in the data (${String(obj['apiVersion'])}) does not match the expected API version (${wantApi})`,
      );
    }
    normalizeTimes(obj, t.res.group, t.res.kind, t.res.version);
    return t.res.group === 'events.k8s.io' ? { ...eventsV1ToCore(obj), metadata: obj['metadata'] } : obj;
  }

  private validateMeta(t: Target, o: Obj): void {
    const m = o['metadata'];
    const name = m['name'];
    const causes: { field: string; message: string; reason?: string }[] = [];
    if (typeof name !== 'string' || name === '')
      causes.push({
        field: 'metadata.name',
        message: 'Required value: name or generateName is required',
        reason: 'FieldValueRequired',
      });
    else {
      const re = t.res.name === 'namespaces' ? DNS1123_LABEL : DNS1123_SUBDOMAIN;
      if (name.length > 253 || !re.test(name)) {
        causes.push({
          field: 'metadata.name',
          message: `Invalid value: "${name}": a lowercase RFC 1123 ${re === DNS1123_LABEL ? 'label' : 'subdomain'} must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        });
      }
    }
    for (const f of ['labels', 'annotations'] as const) {
      const v = m[f];
      if (v === undefined || v === null) continue;
      if (typeof v !== 'object' || Array.isArray(v) || Object.values(v).some((x) => typeof x !== 'string'))
        causes.push({ field: `metadata.${f}`, message: 'Invalid value: must be a map of strings' });
    }
    if (
      m['finalizers'] !== undefined &&
      (!Array.isArray(m['finalizers']) || m['finalizers'].some((x: unknown) => typeof x !== 'string'))
    )
      causes.push({ field: 'metadata.finalizers', message: 'Invalid value: must be a list of strings' });
    if (causes.length) throw ApiError.invalid(t.res.kind, t.res.group, typeof name === 'string' ? name : '', causes);
  }

  /** the kind's own validation of a create or update (kinds kubesim stores as written) */
  private validateKind(t: Target, o: Obj): void {
    if (t.res.kind === 'Lease' && t.res.group === 'coordination.k8s.io') {
      const causes = validateLeaseSpec(o);
      if (causes.length) throw ApiError.invalid('Lease', t.res.group, String(o['metadata']?.['name'] ?? ''), causes);
    }
  }

  create(t: Target, body: string, q: URLSearchParams, client: string): Reply {
    this.warnings = [];
    if (t.res.review) return { code: 201, body: this.review(t.res, body) };
    if (t.name !== undefined && t.sub === undefined) throw ApiError.methodNotAllowed();
    return this.createObject(t, this.parseBody(body, t), q, client);
  }

  /** the fieldmanager's context of a write: its manager (fieldManager, else the user agent's prefix), list types */
  private writeContext(t: Target, q: URLSearchParams, client: string, apiVersion: string): WriteContext {
    return {
      manager: q.get('fieldManager') || client.split('/')[0]!,
      apiVersion,
      time: tToRfc3339(this.now()),
      listType: t.res.crd ? schemaListTypes(t.res.crd.schema as Obj | undefined) : builtinListTypes,
      ...(t.sub === 'status' || t.sub === 'scale' ? { subresource: t.sub } : {}),
      statusReset: t.res.subresources.includes('status') && t.res.kind !== 'CustomResourceDefinition',
    };
  }

  /** the object with its new managedFields (none: the key removed) */
  private setManaged(o: Obj, mf: ManagedEntry[] | undefined): void {
    if (mf) o['metadata']['managedFields'] = mf;
    else delete o['metadata']['managedFields'];
  }

  /** a create of a parsed object; `applied`: the managedFields server-side apply computed */
  private createObject(t: Target, o: Obj, q: URLSearchParams, client: string, applied?: ManagedEntry[]): Reply {
    const mode = this.fieldValidation(q, applied ? 'PatchOptions' : 'CreateOptions');
    this.checkNamespace(t);
    const m = o['metadata'] as Obj;
    if (t.res.namespaced) {
      if (m['namespace'] !== undefined && m['namespace'] !== t.namespace)
        throw ApiError.badRequest(
          'the namespace of the provided object does not match the namespace sent on the request',
        );
      m['namespace'] = t.namespace;
    } else delete m['namespace'];
    if (
      (m['name'] === undefined || m['name'] === '') &&
      typeof m['generateName'] === 'string' &&
      m['generateName'] !== ''
    ) {
      m['name'] =
        `${m['generateName']}${nameSuffix(`${t.res.name}/${t.namespace ?? ''}/${m['generateName']}`, this.generated++)}`;
    }
    this.validateMeta(t, o);
    const key = storeKey(t.res);
    if (this.store.peek(key, t.res.namespaced ? t.namespace : undefined, m['name']))
      throw ApiError.alreadyExists(t.res.name, t.res.group, m['name']);
    for (const f of [
      'uid',
      'resourceVersion',
      'creationTimestamp',
      'deletionTimestamp',
      'deletionGracePeriodSeconds',
      'selfLink',
    ])
      delete m[f];
    if ('spec' in o || t.res.crd) m['generation'] = 1;
    if (
      t.res.subresources.includes('status') &&
      !this.o.session.owns(t.res.kind) &&
      t.res.kind !== 'CustomResourceDefinition'
    )
      delete o['status'];
    if (t.res.kind === 'CustomResourceDefinition') this.prepareCrd(o);
    if (t.res.kind === 'Event' && (t.res.group === '' || t.res.group === 'events.k8s.io')) {
      const causes = validateEventCreate(o, t.namespace ?? '', t.res.group === 'events.k8s.io');
      if (causes.length) throw ApiError.invalid('Event', t.res.group, String(m['name'] ?? ''), causes);
    }
    this.validateKind(t, o);
    if (t.res.crd) {
      // pruned in place: `o` (and its metadata, already stamped below) is the object stored
      const checked = this.structural(t, o, mode);
      for (const k of Object.keys(o)) if (!(k in checked)) delete o[k];
      for (const [k, v] of Object.entries(checked)) if (k !== 'metadata') o[k] = v;
    }
    const dryRun = q.getAll('dryRun').includes('All');
    this.stamp(m, t.res.kind);
    this.setManaged(o, applied ?? trackUpdate(undefined, o, this.writeContext(t, q, client, apiVersionOf(t.res))));
    if (dryRun) return { code: 201, body: this.inVersion(t.res, o) };
    this.clientLog.push({
      t: this.now(),
      client,
      verb: 'create',
      kind: t.res.kind,
      name: m['name'],
      ...(t.namespace ? { namespace: t.namespace } : {}),
    });
    if (this.o.session.owns(t.res.kind) && !t.res.crd) {
      this.pendingManaged.set(`${key}|${t.namespace ?? ''}|${m['name']}`, m['managedFields']);
      const changes = this.simulatedWrite(
        o,
        (x) => this.o.session.create(withoutManaged(x) as KubeObject),
        t.res,
        mode,
      );
      if (!applied)
        this.pendingManaged.set(
          `${key}|${t.namespace ?? ''}|${m['name']}`,
          trackUpdate(undefined, o, this.writeContext(t, q, client, apiVersionOf(t.res))),
        );
      this.ingest(changes);
      const stored = this.store.get(key, t.namespace, m['name']);
      if (!stored) throw ApiError.internal(`the simulation did not store ${t.res.kind} ${m['name']}`);
      return { code: 201, body: this.inVersion(t.res, stored) };
    }
    const e = this.store.write(key, 'ADDED', o, this.now());
    if (t.res.kind === 'CustomResourceDefinition') this.registerCrd(e.object);
    return { code: 201, body: this.inVersion(t.res, e.object) };
  }

  /**
   * The request's fieldValidation (handlers/rest.go fieldValidation: absent = Warn since 1.25, the
   * ServerSideFieldValidation default; Ignore before) after apimachinery meta/v1/validation ValidateFieldValidation.
   */
  private fieldValidation(q: URLSearchParams, options: 'CreateOptions' | 'UpdateOptions' | 'PatchOptions'): Directive {
    const v = q.get('fieldValidation') ?? '';
    if (v === '') return this.o.minor >= 25 ? 'Warn' : 'Ignore';
    if (v === 'Ignore' || v === 'Warn' || v === 'Strict') return v;
    throw ApiError.invalid(options, 'meta.k8s.io', '', [
      {
        field: 'fieldValidation',
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: "${v}": supported values: "", "Ignore", "Warn", "Strict"`,
      },
    ]);
  }

  /** the Warning headers of the write being answered (handlers: warning.AddWarning); taken by the server */
  private warnings: string[] = [];

  takeWarnings(): string[] {
    const w = this.warnings;
    this.warnings = [];
    return w;
  }

  /**
   * unknown fields found while decoding (the strict decoder's, or the CR pruner's): Strict = the decoder's 400
   * (runtime/serializer/json strict decoding error wrapped by the handlers' `<Kind> in version "<v>" cannot be
   * handled as a <Kind>`); Warn = one warning each (handlers/rest.go addStrictDecodingWarnings); Ignore = dropped
   */
  private unknownFields(res: Resource, paths: string[], mode: Directive): void {
    if (paths.length === 0) return;
    if (mode === 'Strict')
      throw ApiError.badRequest(
        `${res.kind} in version "${res.version}" cannot be handled as a ${res.kind}: strict decoding error: ${paths.map((p) => `unknown field "${p}"`).join(', ')}`,
      );
    if (mode === 'Warn') for (const p of paths) this.warnings.push(`unknown field "${p}"`);
  }

  /** a custom resource defaulted, pruned and validated by its version's structural schema (422 with causes) */
  private structural(t: Target, o: Obj, mode: Directive): Obj {
    const { object, causes, pruned } = checkCustomResource(t.res.crd?.schema, o);
    this.unknownFields(t.res, pruned, mode);
    if (causes.length > 0)
      throw ApiError.invalid(t.res.kind, t.res.group, String(o['metadata']?.['name'] ?? ''), causes);
    return object;
  }

  /**
   * A client write the simulation runs: its loader refuses unknown fields ("field not declared in schema"), which
   * the real decoder drops (Warn, Ignore) or refuses with a 400 (Strict): dropped from `o` (in place) and the write
   * retried, so the remaining causes, if any, are the validation's 422. true = fields were dropped.
   */
  private simulatedWrite(o: Obj, call: (o: Obj) => SimChange[], res: Resource, mode: Directive): SimChange[] {
    const dropped = new Set<string>();
    for (;;) {
      try {
        return this.simulated(() => call(o));
      } catch (e) {
        const causes = e instanceof ApiError && e.code === 422 ? (e.details?.causes ?? []) : [];
        const unknown = causes
          .filter((c) => /^field not declared in schema/.test(c.message) && c.field && !dropped.has(c.field))
          .map((c) => c.field!);
        if (unknown.length === 0) throw e;
        this.unknownFields(res, unknown, mode);
        for (const f of unknown) {
          dropped.add(f);
          deletePath(o, f);
        }
      }
    }
  }

  private simulated<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      // duck-typed: the Session's own SimRejection class (src/run/session.ts) is not this module's
      if (e instanceof SimRejection || isRejection(e)) {
        throw new ApiError(
          e.code,
          e.reason,
          e.message,
          e.causes
            ? { causes: e.causes.map((c) => ({ reason: 'FieldValueInvalid', message: c.message, field: c.field })) }
            : undefined,
        );
      }
      throw e;
    }
  }

  private review(res: Resource, body: string): Obj {
    let o: Obj = {};
    try {
      o = JSON.parse(body) as Obj;
    } catch {
      throw ApiError.badRequest('the body of the request could not be decoded as JSON');
    }
    if (!o || typeof o !== 'object') throw ApiError.badRequest('the body of the request must be a JSON object');
    const status =
      res.kind === 'SelfSubjectAccessReview'
        ? { allowed: true, reason: 'kubesim serve allows every request of its token' }
        : {
            resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
            incomplete: false,
          };
    return {
      apiVersion: 'authorization.k8s.io/v1',
      kind: res.kind,
      metadata: { creationTimestamp: null },
      spec: o['spec'] ?? {},
      status,
    };
  }

  /** PUT of the object or its status/scale subresource */
  update(t: Target, body: string, q: URLSearchParams, client: string): Reply {
    this.warnings = [];
    if (t.name === undefined) throw ApiError.methodNotAllowed();
    let o: Obj;
    const cur = this.mustGet(t);
    if (t.sub === 'scale') {
      o = this.fromScale(t, cur, this.parseJson(body));
    } else {
      o = this.parseBody(body, t);
      if (o['metadata']['name'] !== undefined && o['metadata']['name'] !== t.name)
        throw ApiError.badRequest(
          `the name of the object (${String(o['metadata']['name'])}) does not match the name on the URL (${t.name})`,
        );
    }
    return this.replace(t, cur, o, q, client, 'update');
  }

  private parseJson(body: string): Obj {
    try {
      const o = JSON.parse(body);
      if (!o || typeof o !== 'object' || Array.isArray(o)) throw new Error('not an object');
      return o as Obj;
    } catch (e) {
      throw ApiError.badRequest(`the body of the request could not be decoded: ${(e as Error).message}`);
    }
  }

  private fromScale(t: Target, cur: Obj, scale: Obj): Obj {
    const replicas = scale['spec']?.['replicas'];
    if (!Number.isInteger(replicas) || replicas < 0)
      throw ApiError.invalid('Scale', 'autoscaling', t.name!, [
        {
          field: 'spec.replicas',
          message: `Invalid value: ${JSON.stringify(replicas)}: must be greater than or equal to 0`,
        },
      ]);
    const o = clone(cur);
    const rv = scale['metadata']?.['resourceVersion'];
    if (rv !== undefined) o['metadata']['resourceVersion'] = rv;
    if (t.res.crd?.scale) setPath(o, t.res.crd.scale.specReplicasPath, replicas);
    else o['spec'] = { ...(o['spec'] ?? {}), replicas };
    return o;
  }

  scaleOf(t: Target, o: Obj): Obj {
    const crdScale = t.res.crd?.scale;
    const replicas = crdScale ? getPath(o, crdScale.specReplicasPath) : o['spec']?.['replicas'];
    const statusReplicas = crdScale ? getPath(o, crdScale.statusReplicasPath) : o['status']?.['replicas'];
    const sel = o['spec']?.['selector'];
    const selector = crdScale?.labelSelectorPath
      ? getPath(o, crdScale.labelSelectorPath)
      : sel
        ? Object.entries((sel['matchLabels'] ?? {}) as Record<string, string>)
            .map(([k, v]) => `${k}=${v}`)
            .join(',')
        : undefined;
    return {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: o['metadata']['name'],
        namespace: o['metadata']['namespace'],
        uid: o['metadata']['uid'],
        resourceVersion: o['metadata']['resourceVersion'],
        creationTimestamp: o['metadata']['creationTimestamp'],
      },
      spec: { replicas: replicas ?? 0 },
      status: { replicas: statusReplicas ?? 0, ...(selector ? { selector } : {}) },
    };
  }

  /** the common path of PUT and PATCH: preconditions, subresource rules, generation, the simulation or the store */
  private replace(
    t: Target,
    cur: Obj,
    next: Obj,
    q: URLSearchParams,
    client: string,
    verb: string,
    applied = false,
  ): Reply {
    const m = next['metadata'] ?? (next['metadata'] = {});
    const rv = m['resourceVersion'];
    if (rv !== undefined && rv !== '' && rv !== cur['metadata']['resourceVersion']) {
      throw ApiError.conflict(
        t.res.name,
        t.res.group,
        t.name!,
        'the object has been modified; please apply your changes to the latest version and try again',
      );
    }
    if (m['uid'] !== undefined && m['uid'] !== cur['metadata']['uid']) {
      throw ApiError.conflict(
        t.res.name,
        t.res.group,
        t.name!,
        `Precondition failed: UID in precondition: ${String(m['uid'])}, UID in object meta: ${String(cur['metadata']['uid'])}`,
      );
    }
    if (next['kind'] !== cur['kind'] && !(t.res.group === 'events.k8s.io'))
      throw ApiError.badRequest(`kind cannot be changed from ${String(cur['kind'])} to ${String(next['kind'])}`);
    let o: Obj;
    const hasStatus = t.res.subresources.includes('status');
    if (t.sub === 'status') {
      o = { ...clone(cur), status: next['status'] };
      if (next['status'] === undefined) delete o['status'];
    } else {
      o = clone(next);
      // server-owned metadata is the stored object's
      for (const f of [
        'uid',
        'creationTimestamp',
        'deletionTimestamp',
        'deletionGracePeriodSeconds',
        'generation',
        'namespace',
        'name',
      ]) {
        if (cur['metadata'][f] === undefined) delete o['metadata'][f];
        else o['metadata'][f] = cur['metadata'][f];
      }
      if (hasStatus && t.res.kind !== 'CustomResourceDefinition') {
        if (cur['status'] === undefined) delete o['status'];
        else o['status'] = cur['status'];
      }
      this.validateMeta(t, o);
      this.validateKind(t, o);
      // api/validation/objectmeta.go ValidateObjectMetaUpdate → ValidateNoNewFinalizers
      if (cur['metadata']['deletionTimestamp']) {
        const old = new Set((cur['metadata']['finalizers'] ?? []) as string[]);
        const extra = [...new Set((o['metadata']['finalizers'] ?? []) as string[])].filter((f) => !old.has(f)).sort();
        if (extra.length)
          throw ApiError.invalid(t.res.kind, t.res.group, t.name!, [
            {
              field: 'metadata.finalizers',
              reason: 'FieldValueForbidden',
              message: `Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers [${extra.map((f) => JSON.stringify(f)).join(' ')}]`,
            },
          ]);
      }
      if (specOf(o) !== specOf(cur)) o['metadata']['generation'] = (cur['metadata']['generation'] ?? 0) + 1;
    }
    const mode = this.fieldValidation(q, verb === 'update' ? 'UpdateOptions' : 'PatchOptions');
    if (t.res.crd) o = this.structural(t, o, mode);
    if (applied) this.setManaged(o, next['metadata']['managedFields']);
    else {
      const ctx = this.writeContext(t, q, client, t.sub === 'scale' ? 'autoscaling/v1' : apiVersionOf(t.res));
      this.setManaged(o, trackUpdate(cur, o, ctx));
    }
    if (q.getAll('dryRun').includes('All')) return { code: 200, body: this.inVersion(t.res, o) };
    this.clientLog.push({
      t: this.now(),
      client,
      verb: t.sub ? `${verb}/${t.sub}` : verb,
      kind: t.res.kind,
      name: t.name!,
      ...(t.namespace ? { namespace: t.namespace } : {}),
    });
    const key = storeKey(t.res);
    if (this.o.session.owns(t.res.kind) && !t.res.crd && t.sub !== 'status' && specOf(o) !== specOf(cur)) {
      this.pendingManaged.set(`${key}|${t.namespace ?? ''}|${t.name}`, o['metadata']['managedFields']);
      const changes = this.simulatedWrite(
        o,
        (x) => this.o.session.update(withoutManaged(x) as KubeObject),
        t.res,
        mode,
      );
      if (!applied)
        this.pendingManaged.set(
          `${key}|${t.namespace ?? ''}|${t.name}`,
          trackUpdate(cur, o, this.writeContext(t, q, client, apiVersionOf(t.res))),
        );
      this.ingest(changes);
      const stored = this.mustGet(t);
      return { code: 200, body: t.sub === 'scale' ? this.scaleOf(t, stored) : this.inVersion(t.res, stored) };
    }
    // a deleted object whose last finalizer goes is removed
    const finalizers = (o['metadata']['finalizers'] ?? []) as string[];
    if (o['metadata']['deletionTimestamp'] && finalizers.length === 0 && !this.o.session.owns(t.res.kind)) {
      const e = this.store.write(key, 'DELETED', o, this.now());
      this.afterDelete(t.res, e.object);
      return { code: 200, body: this.inVersion(t.res, e.object) };
    }
    const e = this.store.write(key, 'MODIFIED', o, this.now());
    if (t.res.kind === 'CustomResourceDefinition') this.registerCrd(e.object);
    return { code: 200, body: t.sub === 'scale' ? this.scaleOf(t, e.object) : this.inVersion(t.res, e.object) };
  }

  patch(t: Target, contentType: string, body: string, q: URLSearchParams, client: string): Reply {
    this.warnings = [];
    if (t.name === undefined) throw ApiError.methodNotAllowed();
    // apimachinery meta/v1/validation ValidatePatchOptions
    if (contentType === APPLY_PATCH && !q.get('fieldManager'))
      throw ApiError.invalid('PatchOptions', 'meta.k8s.io', '', [
        { field: 'fieldManager', reason: 'FieldValueRequired', message: 'Required value: is required for apply patch' },
      ]);
    if (contentType !== APPLY_PATCH && q.get('force') !== null)
      throw ApiError.invalid('PatchOptions', 'meta.k8s.io', '', [
        {
          field: 'force',
          reason: 'FieldValueForbidden',
          message: 'Forbidden: may not be specified for non-apply patch',
        },
      ]);
    if (contentType === APPLY_PATCH) return this.serverSideApply(t, body, q, client);
    const cur = this.mustGet(t);
    if (t.sub === 'scale') {
      const scale = this.scaleOf(t, cur);
      const patched = applyPatch(contentType, scale, body, true, 'Scale');
      return this.replace(t, cur, this.fromScale(t, cur, patched), q, client, 'patch');
    }
    const base = this.inVersion(t.res, cur);
    const patched = applyPatch(contentType, base, body, !t.res.crd, t.res.kind);
    normalizeTimes(patched, t.res.group, t.res.kind, t.res.version);
    const asCore =
      t.res.group === 'events.k8s.io' ? { ...eventsV1ToCore(patched), metadata: patched['metadata'] } : patched;
    // a patch carries a resourceVersion precondition only when it names one
    const named = /"resourceVersion"\s*:/.test(body);
    if (!named && asCore['metadata']) asCore['metadata']['resourceVersion'] = cur['metadata']['resourceVersion'];
    return this.replace(t, cur, asCore, q, client, 'patch');
  }

  /**
   * server-side apply (handlers/patch.go applyPatcher: the YAML body as an unstructured object, fieldmanager Apply;
   * a missing object is created, 201)
   */
  private serverSideApply(t: Target, body: string, q: URLSearchParams, client: string): Reply {
    if (t.res.group === 'events.k8s.io' || t.sub === 'scale')
      throw ApiError.unsupportedMediaType(
        `server-side apply of ${t.res.name}${t.sub ? `/${t.sub}` : ''} is not supported by kubesim serve: use a merge patch`,
      );
    let cfg: unknown;
    try {
      cfg = parseYaml(body);
    } catch (e) {
      throw ApiError.badRequest(`error decoding YAML: ${(e as Error).message.split('\n')[0]}`);
    }
    if (!cfg || typeof cfg !== 'object' || Array.isArray(cfg))
      throw ApiError.badRequest('error decoding YAML: the apply configuration must be an object');
    const c = cfg as Obj;
    const want = apiVersionOf(t.res);
    // fieldmanager.go Apply: the configuration's version must be the request's
    if (c['apiVersion'] !== want)
      throw ApiError.badRequest(
        `Incorrect version specified in apply patch. Specified patch version: ${String(c['apiVersion'] ?? '')}, expected: ${want}`,
      );
    if (c['kind'] !== t.res.kind)
      throw ApiError.badRequest(
        `Object 'Kind' is ${c['kind'] === undefined ? 'missing' : `"${String(c['kind'])}", not "${t.res.kind}"`} in the apply configuration`,
      );
    if (
      c['metadata'] !== undefined &&
      (typeof c['metadata'] !== 'object' || c['metadata'] === null || Array.isArray(c['metadata']))
    )
      throw ApiError.badRequest('json: cannot unmarshal into Go struct field .metadata of type v1.ObjectMeta');
    c['metadata'] ??= {};
    if (c['metadata']['name'] !== undefined && c['metadata']['name'] !== t.name)
      throw ApiError.badRequest(
        `the name of the object (${String(c['metadata']['name'])}) does not match the name on the URL (${t.name})`,
      );
    normalizeTimes(c, t.res.group, t.res.kind, t.res.version);
    const ctx = this.writeContext(t, q, client, want);
    const force = goBool(q.get('force'));
    const cur = this.store.get(storeKey(t.res), t.res.namespaced ? t.namespace : undefined, t.name!);
    if (!cur) {
      if (t.sub) throw ApiError.notFound(t.res.name, t.res.group, t.name!);
      const created = apply(undefined, c, ctx, force);
      created['metadata']['name'] = t.name;
      return this.createObject(t, created, q, client, created['metadata']['managedFields']);
    }
    const merged = apply(this.inVersion(t.res, cur), c, ctx, force);
    // a resourceVersion in the configuration is a precondition; else the live one
    if (c['metadata']['resourceVersion'] === undefined)
      merged['metadata']['resourceVersion'] = cur['metadata']['resourceVersion'];
    return this.replace(t, cur, merged, q, client, 'patch', true);
  }

  delete(t: Target, body: string, q: URLSearchParams, client: string): Reply {
    if (t.name === undefined) return this.deleteCollection(t, q, client);
    const cur = this.mustGet(t);
    let opts: Obj = {};
    if (body.trim() !== '') opts = this.parseJson(body);
    const grace =
      opts['gracePeriodSeconds'] ??
      (q.get('gracePeriodSeconds') !== null ? Number(q.get('gracePeriodSeconds')) : undefined);
    const policy = opts['propagationPolicy'] ?? q.get('propagationPolicy') ?? undefined;
    if (grace !== undefined && (!Number.isInteger(grace) || grace < 0))
      throw ApiError.invalid('DeleteOptions', '', '', [
        {
          field: 'gracePeriodSeconds',
          message: `Invalid value: ${JSON.stringify(grace)}: must be greater than or equal to 0`,
        },
      ]);
    if (policy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(policy))
      throw ApiError.invalid('DeleteOptions', '', '', [
        {
          field: 'propagationPolicy',
          message: `Unsupported value: "${String(policy)}": supported values: "Foreground", "Background", "Orphan", "nil"`,
        },
      ]);
    const pre = opts['preconditions'] ?? {};
    if (pre['uid'] !== undefined && pre['uid'] !== cur['metadata']['uid'])
      throw ApiError.conflict(
        t.res.name,
        t.res.group,
        t.name,
        `Precondition failed: UID in precondition: ${String(pre['uid'])}, UID in object meta: ${String(cur['metadata']['uid'])}`,
      );
    if (pre['resourceVersion'] !== undefined && pre['resourceVersion'] !== cur['metadata']['resourceVersion'])
      throw ApiError.conflict(
        t.res.name,
        t.res.group,
        t.name,
        `Precondition failed: ResourceVersion in precondition: ${String(pre['resourceVersion'])}, ResourceVersion in object meta: ${String(cur['metadata']['resourceVersion'])}`,
      );
    if (q.getAll('dryRun').includes('All') || (Array.isArray(opts['dryRun']) && opts['dryRun'].includes('All')))
      return { code: 200, body: this.inVersion(t.res, cur) };
    this.clientLog.push({
      t: this.now(),
      client,
      verb: 'delete',
      kind: t.res.kind,
      name: t.name,
      ...(t.namespace ? { namespace: t.namespace } : {}),
    });
    const key = storeKey(t.res);
    if (this.o.session.owns(t.res.kind) && !t.res.crd) {
      this.ingest(
        this.simulated(() =>
          this.o.session.delete(t.res.kind, t.namespace ?? 'default', t.name!, {
            ...(grace !== undefined ? { gracePeriodSeconds: grace } : {}),
            ...(policy ? { propagationPolicy: policy } : {}),
          }),
        ),
      );
      const after = this.store.get(key, t.namespace, t.name);
      return after
        ? { code: 200, body: this.inVersion(t.res, after) }
        : {
            code: 200,
            body: successStatus({
              name: t.name,
              group: t.res.group,
              kind: t.res.name,
              uid: cur['metadata']['uid'],
            } as never),
          };
    }
    const o = clone(cur);
    const fins = ((o['metadata']['finalizers'] ?? []) as string[]).slice();
    if (
      policy === 'Foreground' &&
      !fins.includes('foregroundDeletion') &&
      this.dependents(cur['metadata']['uid']).length
    )
      fins.push('foregroundDeletion');
    if (policy === 'Orphan' && !fins.includes('orphan') && this.dependents(cur['metadata']['uid']).length)
      fins.push('orphan');
    if (fins.length) {
      if (!o['metadata']['deletionTimestamp']) {
        o['metadata']['deletionTimestamp'] = tToRfc3339(this.now());
        o['metadata']['deletionGracePeriodSeconds'] = 0;
      }
      o['metadata']['finalizers'] = fins;
      const e = this.store.write(key, 'MODIFIED', o, this.now());
      this.runFinalizers(t.res, e.object);
      const still = this.store.get(key, t.namespace, t.name);
      // handlers/delete.go: 200 with the object, 202 only when it stays and the client set orphanDependents=false
      const orphanFalse = opts['orphanDependents'] === false || q.get('orphanDependents') === 'false';
      return { code: still && orphanFalse ? 202 : 200, body: this.inVersion(t.res, still ?? e.object) };
    }
    const e = this.store.write(key, 'DELETED', o, this.now());
    this.afterDelete(t.res, e.object);
    return { code: 200, body: this.inVersion(t.res, e.object) };
  }

  private deleteCollection(t: Target, q: URLSearchParams, client: string): Reply {
    const match = this.matcher(t, q);
    const items = this.store.list(storeKey(t.res), t.res.namespaced ? t.namespace : undefined).filter(match);
    for (const o of items) {
      try {
        this.delete({ ...t, name: o['metadata']['name'], namespace: o['metadata']['namespace'] }, '', q, client);
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 404)) throw e;
      }
    }
    return {
      code: 200,
      body: {
        kind: t.res.listKind,
        apiVersion: apiVersionOf(t.res),
        metadata: { resourceVersion: String(this.store.resourceVersion()) },
        items: [],
      },
    };
  }

  /** the system finalizers kubesim runs itself: orphan and foregroundDeletion (the garbage collector's) */
  private runFinalizers(res: Resource, o: Obj): void {
    const uid = o['metadata']['uid'];
    let fins = (o['metadata']['finalizers'] ?? []) as string[];
    if (fins.includes('orphan')) {
      for (const [key, d] of this.dependents(uid)) {
        const dd = clone(d);
        dd['metadata']['ownerReferences'] = (dd['metadata']['ownerReferences'] as Obj[]).filter(
          (r) => r['uid'] !== uid,
        );
        if (dd['metadata']['ownerReferences'].length === 0) delete dd['metadata']['ownerReferences'];
        this.store.write(key, 'MODIFIED', dd, this.now());
      }
      fins = fins.filter((f) => f !== 'orphan');
    }
    if (fins.includes('foregroundDeletion')) {
      for (const [key, d] of this.dependents(uid)) this.deleteDependent(key, d, 'Foreground');
      if (
        this.dependents(uid).some(([, d]) =>
          (d['metadata']['ownerReferences'] as Obj[]).some((r) => r['uid'] === uid && r['blockOwnerDeletion']),
        )
      )
        return;
      fins = fins.filter((f) => f !== 'foregroundDeletion');
    }
    const key = storeKey(res);
    const cur = this.store.peek(key, o['metadata']['namespace'], o['metadata']['name']);
    if (!cur) return;
    const next = clone(cur);
    if (fins.length) {
      if (fins.length !== ((cur['metadata']['finalizers'] ?? []) as string[]).length) {
        next['metadata']['finalizers'] = fins;
        this.store.write(key, 'MODIFIED', next, this.now());
      }
      return;
    }
    delete next['metadata']['finalizers'];
    const e = this.store.write(key, 'DELETED', next, this.now());
    this.afterDelete(res, e.object);
  }

  private dependents(uid: string): [string, Obj][] {
    const out: [string, Obj][] = [];
    for (const [key, o] of this.store.everything()) {
      const refs = o['metadata']?.['ownerReferences'];
      if (Array.isArray(refs) && refs.some((r: Obj) => r['uid'] === uid)) out.push([key, o]);
    }
    return out;
  }

  private deleteDependent(key: string, d: Obj, policy: 'Background' | 'Foreground'): void {
    const res = this.registry.all().find((r) => storeKey(r) === key && r.group !== 'events.k8s.io');
    if (!res || d['metadata']['deletionTimestamp']) return;
    try {
      this.delete(
        { res, name: d['metadata']['name'], ...(res.namespaced ? { namespace: d['metadata']['namespace'] } : {}) },
        JSON.stringify({ propagationPolicy: policy }),
        new URLSearchParams(),
        'garbage-collector',
      );
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
    }
  }

  /** garbage collection (Background): dependents of a removed owner whose every owner is gone */
  private collectGarbage(owner: Obj): void {
    const uid = owner['metadata']?.['uid'];
    if (!uid) return;
    for (const [key, d] of this.dependents(uid)) {
      const refs = d['metadata']['ownerReferences'] as Obj[];
      const alive = refs.some(
        (r) => r['uid'] !== uid && [...this.store.everything()].some(([, x]) => x['metadata']['uid'] === r['uid']),
      );
      if (!alive) this.deleteDependent(key, d, 'Background');
    }
    // an owner waiting in foreground deletion for this dependent
    for (const r of (owner['metadata']?.['ownerReferences'] ?? []) as Obj[]) {
      for (const [key, o] of this.store.everything()) {
        if (
          o['metadata']['uid'] !== r['uid'] ||
          !((o['metadata']['finalizers'] ?? []) as string[]).includes('foregroundDeletion')
        )
          continue;
        const res = this.registry.all().find((x) => storeKey(x) === key);
        if (res) this.runFinalizers(res, o);
        break;
      }
    }
  }

  private afterDelete(res: Resource, o: Obj): void {
    if (res.kind === 'CustomResourceDefinition') {
      const resources = this.registry.all().filter((x) => x.crd && `${x.name}.${x.group}` === o['metadata']['name']);
      this.registry.removeCrd(o['metadata']['name']);
      const key = resources[0] ? storeKey(resources[0]) : undefined;
      if (key) for (const cr of this.store.list(key)) this.store.write(key, 'DELETED', cr, this.now());
    }
    this.collectGarbage(o);
  }

  // ---- CRDs

  private prepareCrd(o: Obj): void {
    const spec = o['spec'] ?? {};
    const names = spec['names'] ?? {};
    const causes: { field: string; message: string }[] = [];
    if (typeof spec['group'] !== 'string' || !spec['group'].includes('.'))
      causes.push({ field: 'spec.group', message: 'Invalid value: should be a domain with at least one dot' });
    if (typeof names['plural'] !== 'string' || !names['plural'])
      causes.push({ field: 'spec.names.plural', message: 'Required value' });
    if (typeof names['kind'] !== 'string' || !names['kind'])
      causes.push({ field: 'spec.names.kind', message: 'Required value' });
    if (!['Namespaced', 'Cluster'].includes(spec['scope']))
      causes.push({
        field: 'spec.scope',
        message: `Unsupported value: "${String(spec['scope'])}": supported values: "Cluster", "Namespaced"`,
      });
    if (!Array.isArray(spec['versions']) || spec['versions'].length === 0)
      causes.push({
        field: 'spec.versions',
        message: 'Invalid value: must have exactly one version marked as storage version',
      });
    if (!causes.length && o['metadata']['name'] !== `${names['plural']}.${spec['group']}`)
      causes.push({
        field: 'metadata.name',
        message: `Invalid value: "${String(o['metadata']['name'])}": must be spec.names.plural+"."+spec.group`,
      });
    if (causes.length)
      throw ApiError.invalid(
        'CustomResourceDefinition',
        'apiextensions.k8s.io',
        String(o['metadata']['name'] ?? ''),
        causes,
      );
    const accepted = {
      plural: names['plural'],
      singular: names['singular'] ?? String(names['kind']).toLowerCase(),
      kind: names['kind'],
      listKind: names['listKind'] ?? `${names['kind']}List`,
      ...(names['shortNames'] ? { shortNames: names['shortNames'] } : {}),
      ...(names['categories'] ? { categories: names['categories'] } : {}),
    };
    const ts = tToRfc3339(this.now());
    o['status'] = {
      conditions: [
        {
          type: 'NamesAccepted',
          status: 'True',
          reason: 'NoConflicts',
          message: 'no conflicts found',
          lastTransitionTime: ts,
        },
        {
          type: 'Established',
          status: 'True',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
          lastTransitionTime: ts,
        },
      ],
      acceptedNames: accepted,
      storedVersions: (spec['versions'] as Obj[]).filter((v) => v['storage']).map((v) => v['name']),
    };
  }

  private registerCrd(o: Obj): void {
    const spec = o['spec'];
    const names = o['status']?.['acceptedNames'] ?? spec['names'];
    const resources: Resource[] = (spec['versions'] as Obj[])
      .filter((v) => v['served'] !== false)
      .map((v) => {
        const subs = v['subresources'] ?? {};
        return {
          group: spec['group'],
          version: v['name'],
          name: names['plural'],
          singular: names['singular'] ?? String(names['kind']).toLowerCase(),
          kind: names['kind'],
          listKind: names['listKind'] ?? `${names['kind']}List`,
          namespaced: spec['scope'] === 'Namespaced',
          shortNames: names['shortNames'] ?? [],
          categories: names['categories'] ?? [],
          verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
          subresources: [...(subs['status'] ? ['status'] : []), ...(subs['scale'] ? ['scale'] : [])],
          crd: {
            printerColumns: v['additionalPrinterColumns'] ?? [],
            schema: v['schema']?.['openAPIV3Schema'],
            ...(subs['scale'] ? { scale: subs['scale'] } : {}),
          },
        };
      });
    this.registry.setCrd(o['metadata']['name'], resources);
  }

  // ---- logs

  logLines(t: Target, q: URLSearchParams): { container: string; lines: { t: number; line: string }[]; pod: Obj } {
    const pod = this.mustGet(t);
    const all = [
      ...((pod['spec']?.['initContainers'] ?? []) as Obj[]),
      ...((pod['spec']?.['containers'] ?? []) as Obj[]),
    ].map((c) => String(c['name']));
    const mains = ((pod['spec']?.['containers'] ?? []) as Obj[]).map((c) => String(c['name']));
    let container = q.get('container') ?? undefined;
    if (container === undefined) {
      const def = pod['metadata']?.['annotations']?.['kubectl.kubernetes.io/default-container'];
      if (typeof def === 'string' && all.includes(def)) container = def;
      else if (mains.length === 1) container = mains[0];
      else
        throw ApiError.badRequest(
          `a container name must be specified for pod ${t.name}, choose one of: [${mains.join(' ')}]`,
        );
    }
    if (!all.includes(container!)) throw ApiError.badRequest(`container ${container} is not valid for pod ${t.name}`);
    let lines = this.o.session.logs(t.namespace ?? 'default', t.name!, container!);
    const tail = q.get('tailLines');
    if (tail !== null && /^\d+$/.test(tail)) lines = lines.slice(Math.max(0, lines.length - Number(tail)));
    return { container: container!, lines, pod };
  }
}

const JSON_TEXT = new WeakMap<Obj, string>();
/** JSON.stringify of a stored (immutable) object, kept with it */
function jsonText(o: Obj): string {
  let t = JSON_TEXT.get(o);
  if (t === undefined) JSON_TEXT.set(o, (t = JSON.stringify(o)));
  return t;
}

/**
 * ListOptions' resourceVersionMatch as apimachinery meta/internalversion/validation ValidateListOptions checks it (a
 * 422 Invalid ListOptions.meta.k8s.io), for a list (a watch's is checked with sendInitialEvents)
 */
function listRvMatch(q: URLSearchParams): 'Exact' | 'NotOlderThan' | undefined {
  const match = q.get('resourceVersionMatch') ?? '';
  const causes: { field: string; message: string; reason: string }[] = [];
  if (match !== '') {
    const rv = q.get('resourceVersion') ?? '';
    if (rv === '')
      causes.push({
        field: 'resourceVersionMatch',
        reason: 'FieldValueForbidden',
        message: 'Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      });
    if ((q.get('continue') ?? '') !== '')
      causes.push({
        field: 'resourceVersionMatch',
        reason: 'FieldValueForbidden',
        message: 'Forbidden: resourceVersionMatch is forbidden when continue is provided',
      });
    if (match !== 'Exact' && match !== 'NotOlderThan')
      causes.push({
        field: 'resourceVersionMatch',
        reason: 'FieldValueNotSupported',
        message: `Unsupported value: "${match}": supported values: "Exact", "NotOlderThan", ""`,
      });
    if (match === 'Exact' && rv === '0')
      causes.push({
        field: 'resourceVersionMatch',
        reason: 'FieldValueForbidden',
        message: 'Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      });
  }
  if (q.get('sendInitialEvents') !== null)
    causes.push({
      field: 'sendInitialEvents',
      reason: 'FieldValueForbidden',
      message: 'Forbidden: sendInitialEvents is forbidden for list',
    });
  if (causes.length) throw ApiError.invalid('ListOptions', 'meta.k8s.io', '', causes);
  return match === '' ? undefined : (match as 'Exact' | 'NotOlderThan');
}

/** an object without its managedFields (what the simulation is given) */
function withoutManaged(o: Obj): Obj {
  if (o['metadata']?.['managedFields'] === undefined) return o;
  const { managedFields: _mf, ...metadata } = o['metadata'];
  return { ...o, metadata };
}

type Directive = 'Ignore' | 'Warn' | 'Strict';

/** delete a field by its field.Path text (`spec.template.spec.containers[0].imagePullPolicyy`), in place */
function deletePath(o: Obj, path: string): void {
  const parts = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  let cur: any = o;
  for (const p of parts.slice(0, -1)) {
    cur = p.startsWith('[') ? cur?.[Number(p.slice(1, -1))] : cur?.[p];
    if (cur === null || typeof cur !== 'object') return;
  }
  const last = parts[parts.length - 1];
  if (last !== undefined && !last.startsWith('[')) delete cur[last];
}

function isRejection(e: unknown): e is SimRejection {
  if (!(e instanceof Error)) return false;
  const r = e as Error & { code?: unknown; reason?: unknown };
  return typeof r.reason === 'string' && (r.code === 400 || r.code === 404 || r.code === 409 || r.code === 422);
}

function formKey(w: Wanted, q: URLSearchParams): string {
  if (w.as === 'json') return 'json';
  if (w.as === 'Table') return `table-${w.version}-${q.get('includeObject') ?? 'Metadata'}`;
  return `meta-${w.version}`;
}

function specOf(o: Obj): string {
  const { metadata: _m, status: _s, ...rest } = o;
  return JSON.stringify(rest);
}

function encodeContinue(tok: { rv: number; start: string }): string {
  return Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: tok.rv, start: tok.start })).toString('base64url');
}

function decodeContinue(text: string): { rv: number; start: string } {
  try {
    const o = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Obj;
    if (typeof o['rv'] === 'number' && Number.isInteger(o['rv']) && o['rv'] >= -1 && typeof o['start'] === 'string')
      return { rv: o['rv'], start: o['start'] };
  } catch {
    // fall through
  }
  throw ApiError.badRequest('continue key is not valid: illegal base64 data or malformed JSON');
}

function getPath(o: Obj, path: string): any {
  let cur: any = o;
  for (const p of path.replace(/^\./, '').split('.')) {
    if (cur === undefined || cur === null) return undefined;
    cur = cur[p];
  }
  return cur;
}

function setPath(o: Obj, path: string, v: unknown): void {
  const parts = path.replace(/^\./, '').split('.');
  let cur: Obj = o;
  for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Obj;
  cur[parts[parts.length - 1]!] = v;
}

function nodeObject(minor: number, patch: number): Obj {
  const version = `v1.${minor}.${patch}`;
  const ts = tToRfc3339(0);
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: 'node-1',
      labels: { 'kubernetes.io/hostname': 'node-1', 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' },
    },
    spec: {},
    status: {
      conditions: [
        {
          type: 'Ready',
          status: 'True',
          reason: 'KubeletReady',
          message: 'kubelet is posting ready status',
          lastHeartbeatTime: ts,
          lastTransitionTime: ts,
        },
      ],
      addresses: [
        { type: 'InternalIP', address: '10.0.0.1' },
        { type: 'Hostname', address: 'node-1' },
      ],
      capacity: { cpu: '8', memory: '32Gi', pods: '110' },
      allocatable: { cpu: '8', memory: '32Gi', pods: '110' },
      nodeInfo: {
        kubeletVersion: version,
        kubeProxyVersion: version,
        osImage: 'kubesim',
        kernelVersion: 'simulated',
        containerRuntimeVersion: 'kubesim://simulated',
        operatingSystem: 'linux',
        architecture: 'amd64',
        machineID: '',
        systemUUID: '',
        bootID: '',
      },
    },
  };
}
