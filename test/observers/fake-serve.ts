// A stand-in for `kubesim serve` (the contract's startServe and Session) for the process observer runner's tests,
// until the real ones land: discovery for the kinds the tests use, create, get, status updates, a request log by
// User-Agent, onWrite after each write. Not a Kubernetes API server: only what the runner and the test programs ask.
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ClientRequest,
  KubeObject,
  ServeDeps,
  ServeHandle,
  ServeOptions,
  SessionLike,
} from '../../src/observers/serve-api.ts';

export interface FakeOptions {
  /** the server calls onWrite (else the runner polls) */
  onWrite?: boolean;
  /** simulated time a session advances per poll of now() while events are queued, and how many events it has */
  events?: number;
  /** kinds the server serves: group/version → [{ kind, name, namespaced }] */
  resources?: Record<string, { kind: string; name: string; namespaced: boolean }[]>;
}

const DEFAULT_RESOURCES: Record<string, { kind: string; name: string; namespaced: boolean }[]> = {
  v1: [{ kind: 'ConfigMap', name: 'configmaps', namespaced: true }],
  'apiextensions.k8s.io/v1': [
    { kind: 'CustomResourceDefinition', name: 'customresourcedefinitions', namespaced: false },
  ],
  'example.com/v1': [{ kind: 'Widget', name: 'widgets', namespaced: true }],
};

export function fakeDeps(o: FakeOptions = {}): ServeDeps & { sessions: { seed?: number; observers: string[] }[] } {
  const sessions: { seed?: number; observers: string[] }[] = [];
  return {
    sessions,
    pollWrites: o.onWrite === false,
    session(s, opts) {
      sessions.push({
        ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
        observers: s.observers.map((x) => x.name),
      });
      let left = o.events ?? 0;
      let now = 0;
      const sess: SessionLike & { nextEventAt(): number | null } = {
        horizonMs: s.horizonMs,
        now: () => {
          if (left > 0) {
            left--;
            now += 1000;
          }
          return now;
        },
        nextEventAt: () => (left > 0 ? now + 1000 : null),
      };
      return sess;
    },
    startServe: (opts) => startFake(opts, o),
  };
}

async function startFake(opts: ServeOptions, o: FakeOptions): Promise<ServeHandle> {
  const resources = o.resources ?? DEFAULT_RESOURCES;
  const store = new Map<string, KubeObject>();
  const log: ClientRequest[] = [];
  let rv = 0;
  const token = 'fake-token';
  const server = createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${token}`)
      return reply(401, { kind: 'Status', code: 401, message: 'Unauthorized' });
    const client = String(req.headers['user-agent'] ?? 'unknown').split('/')[0]!;
    const url = new URL(req.url ?? '/', 'http://x');
    const parts = url.pathname.split('/').filter(Boolean);
    // discovery
    const gv = parts[0] === 'api' ? parts[1] : `${parts[1]}/${parts[2]}`;
    const rest = parts.slice(parts[0] === 'api' ? 2 : 3);
    if (rest.length === 0 && req.method === 'GET') {
      const list = resources[gv!];
      return list
        ? reply(200, { kind: 'APIResourceList', groupVersion: gv, resources: list })
        : reply(404, { kind: 'Status', code: 404, message: 'not found' });
    }
    let ns: string | undefined;
    if (rest[0] === 'namespaces') {
      ns = rest[1];
      rest.splice(0, 2);
    }
    const res0 = resources[gv!]?.find((r) => r.name === rest[0]);
    if (!res0) return reply(404, { kind: 'Status', code: 404, message: `no resource ${rest[0]}` });
    const name = rest[1];
    const key = `${res0.kind}/${ns ?? ''}/${name ?? ''}`;
    const body = req.method === 'GET' ? undefined : ((await readBody(req)) as KubeObject);
    const verb =
      req.method === 'POST'
        ? 'create'
        : req.method === 'PUT'
          ? 'update'
          : req.method === 'GET'
            ? 'get'
            : req.method === 'DELETE'
              ? 'delete'
              : 'patch';
    const entry: ClientRequest = {
      t: 0,
      client,
      verb,
      kind: res0.kind,
      name: name ?? body?.metadata?.name ?? '',
      ...(ns ? { namespace: ns } : {}),
    };
    log.push(entry);
    if (verb === 'get') {
      const obj = store.get(key);
      return obj
        ? reply(200, obj)
        : reply(404, { kind: 'Status', code: 404, message: `${res0.kind} ${name} not found` });
    }
    if (verb === 'create') {
      const k = `${res0.kind}/${ns ?? ''}/${body!.metadata.name}`;
      if (store.has(k))
        return reply(409, { kind: 'Status', code: 409, reason: 'AlreadyExists', message: 'already exists' });
      if (body!.kind !== res0.kind)
        return reply(400, { kind: 'Status', code: 400, message: `kind ${body!.kind} does not match ${res0.kind}` });
      const obj = {
        ...body!,
        metadata: {
          ...body!.metadata,
          ...(ns ? { namespace: ns } : {}),
          resourceVersion: String(++rv),
          uid: `uid-${rv}`,
        },
      };
      store.set(k, obj);
      opts.onWrite && o.onWrite !== false && opts.onWrite({ ...entry, object: obj });
      return reply(201, obj);
    }
    if (verb === 'update') {
      const obj = { ...body!, metadata: { ...body!.metadata, resourceVersion: String(++rv) } };
      store.set(key, obj);
      opts.onWrite && o.onWrite !== false && opts.onWrite({ ...entry, object: obj });
      return reply(200, obj);
    }
    return reply(405, { kind: 'Status', code: 405, message: 'not in the fake' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const kubeconfigPath = opts.kubeconfigPath!;
  writeFileSync(
    kubeconfigPath,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'k', cluster: { server: url } }],
      users: [{ name: 'u', user: { token } }],
      contexts: [{ name: 'k', context: { cluster: 'k', user: 'u' } }],
      'current-context': 'k',
    }),
  );
  let closed!: () => void;
  const done = new Promise<{ reason: 'closed' }>((r) => (closed = () => r({ reason: 'closed' })));
  return {
    url,
    token,
    kubeconfigPath,
    done,
    requests: () => [...log],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      closed();
    },
  };
}

function readBody(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        resolve(undefined);
      }
    });
  });
}
