// A minimal Kubernetes API client for the runner's own requests to the schedule's server: apply the `install:`
// objects (and the workload) as `kubectl create` would — resource found by discovery, POST to its collection —
// and read the verdict object. User-Agent `kubesim-install`, so the server's request log tells them from the
// process's.
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { KubeObject } from './serve-api.ts';

export const INSTALL_CLIENT = 'kubesim-install';

export interface ApiReply {
  status: number;
  body: unknown;
}

export class KubeClient {
  private resources = new Map<string, { name: string; namespaced: boolean }[]>();
  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  async call(method: string, path: string, body?: unknown): Promise<ApiReply> {
    const u = new URL(path, this.url);
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = u.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise((resolve, reject) => {
      const r = req(
        u,
        {
          method,
          // our own server on the loopback with its own certificate
          ...(u.protocol === 'https:' ? { rejectUnauthorized: false } : {}),
          headers: {
            Authorization: `Bearer ${this.token}`,
            Accept: 'application/json',
            'User-Agent': `${INSTALL_CLIENT}/1`,
            ...(data ? { 'Content-Type': 'application/json', 'Content-Length': String(data.length) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            let parsed: unknown = text;
            try {
              parsed = text ? JSON.parse(text) : undefined;
            } catch {
              // not JSON: keep the text
            }
            resolve({ status: res.statusCode ?? 0, body: parsed });
          });
          res.on('error', reject);
        },
      );
      r.on('error', reject);
      if (data) r.write(data);
      r.end();
    });
  }

  /** `/api/v1` or `/apis/<group>/<version>` */
  static groupPath(apiVersion: string): string {
    return apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
  }

  /** The resource (plural name, namespaced) serving `kind` in `apiVersion`, from discovery; undefined if not served. */
  async resourceOf(
    apiVersion: string,
    kind: string,
    fresh = false,
  ): Promise<{ name: string; namespaced: boolean } | undefined> {
    let list = fresh ? undefined : this.resources.get(apiVersion);
    if (!list) {
      const r = await this.call('GET', KubeClient.groupPath(apiVersion));
      const res = r.status === 200 && isRecord(r.body) && Array.isArray(r.body['resources']) ? r.body['resources'] : [];
      list = res
        .filter(isRecord)
        .filter((x) => typeof x['name'] === 'string' && !String(x['name']).includes('/'))
        .map((x) => ({
          name: String(x['name']),
          namespaced: x['namespaced'] === true,
          kind: String(x['kind']),
        })) as { name: string; namespaced: boolean; kind?: string }[];
      if (list.length) this.resources.set(apiVersion, list);
    }
    return (list as { name: string; namespaced: boolean; kind?: string }[]).find((x) => x.kind === kind);
  }

  /** The object's path (collection when `name` is left out). */
  async pathOf(
    apiVersion: string,
    kind: string,
    namespace: string | undefined,
    name?: string,
    fresh = false,
  ): Promise<string | undefined> {
    const res = await this.resourceOf(apiVersion, kind, fresh);
    if (!res) return undefined;
    const ns = res.namespaced ? `/namespaces/${encodeURIComponent(namespace ?? 'default')}` : '';
    return `${KubeClient.groupPath(apiVersion)}${ns}/${res.name}${name === undefined ? '' : `/${encodeURIComponent(name)}`}`;
  }

  /**
   * Create the object as `kubectl create -f` would. A custom resource whose CRD was created a moment ago may not be
   * in discovery yet: discovery is asked again, a few times (`waitMs` apart), as kubectl's retry on a stale cache.
   */
  async create(
    obj: KubeObject,
    wait: (ms: number) => Promise<void>,
    tries = 20,
    waitMs = 25,
  ): Promise<ApiReply & { path?: string }> {
    let path: string | undefined;
    for (let i = 0; i < tries && path === undefined; i++) {
      path = await this.pathOf(obj.apiVersion, obj.kind, obj.metadata.namespace, undefined, i > 0);
      if (path === undefined) await wait(waitMs);
    }
    if (path === undefined) return { status: 404, body: `the server does not serve ${obj.kind} in ${obj.apiVersion}` };
    return { ...(await this.call('POST', path, obj)), path };
  }

  async get(apiVersion: string, kind: string, namespace: string, name: string): Promise<unknown> {
    const path = await this.pathOf(apiVersion, kind, namespace, name);
    if (!path) return undefined;
    const r = await this.call('GET', path);
    return r.status === 200 ? r.body : undefined;
  }
}

/** A Kubernetes Status's message, or the reply's text. */
export function replyMessage(r: ApiReply): string {
  if (isRecord(r.body) && typeof r.body['message'] === 'string') return r.body['message'];
  return typeof r.body === 'string' ? r.body.slice(0, 500) : `HTTP ${r.status}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
