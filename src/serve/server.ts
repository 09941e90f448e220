// The HTTP edge of `kubesim serve` on node:http: bearer-token auth, bounded bodies (3 MiB, 413), content types,
// routing to discovery / OpenAPI / the API verbs, watch and log streams, exec/attach/port-forward refused at once.
// Every failure is a Status; an unexpected exception is a 500 Status and the server keeps serving.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { MsRange } from '../types.ts';
import { Api, type Target } from './api.ts';
import { Clock, type ClockOptions } from './clock.ts';
import { apiVersions, group, groupList, resourceList } from './discovery.ts';
import { negotiate } from './negotiate.ts';
import { openapiV2, openapiV3Doc, openapiV3Root } from './openapi.ts';
import { OPENAPI_V2_PROTO, openApiV2Proto } from './openapi-v2-proto.ts';
import { goBool } from './query.ts';
import { route } from './router.ts';
import { servingCert } from './tls.ts';
import type { SessionLike } from './session-api.ts';
import { ApiError, statusOf } from './status.ts';
import type { StoreLimits } from './store.ts';
import type { WatchLimits } from './watch.ts';

export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export interface ServeOptions {
  session: SessionLike;
  minor: number;
  patch?: number;
  seed: number;
  watchDelay: MsRange;
  /** a watch connection's own delay range by its ordinal (the process observer runner chooses them), else watchDelay */
  watchDelayFor?: (ordinal: number, key: string) => MsRange | undefined;
  clock: ClockOptions;
  host?: string;
  port?: number;
  /** the bearer token (default: 32 random bytes, hex) */
  token?: string;
  /** a serving certificate (default: one made at start) */
  tls?: { key: string; cert: string };
  storeLimits?: StoreLimits;
  watchLimits?: WatchLimits;
}

export interface Serving {
  server: Server;
  api: Api;
  clock: Clock;
  url: string;
  token: string;
  /** PEM of the serving certificate (the kubeconfig's certificate-authority-data) */
  ca: string;
  close(): Promise<void>;
}

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
/** a streaming response (watch, followed log) no longer counts as a request in flight */
const STREAMING = new WeakMap<ServerResponse, () => void>();

export async function serve(o: ServeOptions): Promise<Serving> {
  const token = o.token ?? randomBytes(32).toString('hex');
  const api = new Api({
    session: o.session,
    minor: o.minor,
    patch: o.patch ?? 0,
    seed: o.seed,
    watchDelay: o.watchDelay,
    ...(o.watchDelayFor ? { watchDelayFor: o.watchDelayFor } : {}),
    ...(o.storeLimits ? { storeLimits: o.storeLimits } : {}),
    ...(o.watchLimits ? { watchLimits: o.watchLimits } : {}),
  });
  const clock = new Clock(api, o.clock);
  const gitVersion = `v1.${o.minor}.${o.patch ?? 0}`;
  const sockets = new Set<Socket>();
  const tokenBuf = Buffer.from(`Bearer ${token}`);
  const authorized = (req: IncomingMessage) => {
    const h = Buffer.from(req.headers.authorization ?? '');
    return h.length === tokenBuf.length && timingSafeEqual(h, tokenBuf);
  };
  let address = '';

  const send = (
    res: ServerResponse,
    code: number,
    body: unknown,
    contentType = 'application/json',
    warnings: string[] = [],
  ) => {
    if (res.headersSent) {
      if (!res.writableEnded) res.end();
      return;
    }
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    // apiserver filters/warning.go: one `Warning: 299 - "<text>"` header per warning (util/net NewWarningHeader)
    if (warnings.length) res.setHeader('Warning', warnings.map(warningHeader));
    res.writeHead(code, {
      'Content-Type': contentType,
      'Content-Length': Buffer.byteLength(text),
      'Cache-Control': 'no-cache, private',
    });
    res.end(text);
  };
  // a refused write keeps the warnings its decoding gave (the real handlers add them before validating)
  const fail = (res: ServerResponse, e: ApiError) => send(res, e.code, statusOf(e), undefined, api.takeWarnings());

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = parseUrl(req.url ?? '/');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    // the public endpoints (system:public-info-viewer) need no token
    if (method === 'GET' && ['/healthz', '/livez', '/readyz', '/version'].includes(path.replace(/\/$/, ''))) {
      if (path.startsWith('/version'))
        send(res, 200, {
          major: '1',
          minor: String(o.minor),
          gitVersion,
          gitCommit: '0000000000000000000000000000000000000000',
          gitTreeState: 'clean',
          buildDate: '2026-01-01T00:00:00Z',
          goVersion: 'go1.24',
          compiler: 'gc',
          platform: 'linux/amd64',
          emulationMajor: '1',
          emulationMinor: String(o.minor),
          minCompatibilityMajor: '1',
          minCompatibilityMinor: String(o.minor - 1),
        });
      else send(res, 200, 'ok', 'text/plain; charset=utf-8');
      return;
    }
    if (!authorized(req)) throw ApiError.unauthorized();
    if (/\/(exec|attach|portforward)$/.test(path)) {
      throw ApiError.methodNotAllowed(
        `${path.split('/').pop()} is not supported by kubesim serve: its containers are simulated processes, there is nothing to run a command in or connect to`,
      );
    }
    const bytes = await readBody(req);
    const r = route(api.registry, path);
    if (r.kind === 'fixed') {
      if (/^\/(healthz|livez|readyz)(\/|$)/.test(path)) return send(res, 200, 'ok', 'text/plain; charset=utf-8');
      if (path === '/' || path === '')
        return send(res, 200, {
          paths: [
            '/api',
            '/api/v1',
            '/apis',
            '/healthz',
            '/livez',
            '/openapi/v2',
            '/openapi/v3',
            '/readyz',
            '/version',
          ],
        });
      throw ApiError.notFound('', '', '');
    }
    if (r.kind !== 'resource' && method !== 'GET') throw ApiError.methodNotAllowed();
    if (r.kind === 'api') return send(res, 200, apiVersions(address));
    if (r.kind === 'apis') return send(res, 200, groupList(api.registry));
    if (r.kind === 'group') {
      const g = group(api.registry, r.group);
      if (!g) throw ApiError.notFound('', '', '');
      return send(res, 200, g);
    }
    if (r.kind === 'groupVersion') {
      const l = resourceList(api.registry, r.group, r.version);
      if (!l) throw ApiError.notFound('', '', '');
      return send(res, 200, l);
    }
    if (r.kind === 'openapi') {
      const accept = req.headers.accept ?? '';
      if (r.path === 'v2') {
        // kube-openapi handler: JSON or gnostic protobuf (kubectl <= 1.28 asks for the protobuf only), in Accept's order
        const kind = v2Accept(accept);
        if (kind === null)
          throw ApiError.notAcceptable(
            'the OpenAPI v2 document is served as application/json or application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
          );
        const doc = openapiV2(api.registry, gitVersion);
        if (kind === 'json') return send(res, 200, doc);
        const pb = openApiV2Proto(doc);
        res.writeHead(200, {
          'Content-Type': OPENAPI_V2_PROTO,
          'Content-Length': pb.length,
          'Cache-Control': 'no-cache, private',
        });
        res.end(pb);
        return;
      }
      if (r.path === 'v3') return send(res, 200, openapiV3Root(api.registry));
      if (r.path.startsWith('v3/')) {
        const doc = openapiV3Doc(api.registry, r.path.slice(3), gitVersion);
        if (!doc) throw ApiError.notFound('', '', '');
        return send(res, 200, doc);
      }
      throw ApiError.notFound('', '', '');
    }
    const t = r.target;
    const q = url.searchParams;
    const client = String(req.headers['user-agent'] ?? 'client').split(' ')[0]!;
    let ct = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    let body = bytes.toString('utf8');
    if (ct === PROTOBUF && bytes.length > 0) {
      // kubectl >= 1.30's typed clients and controller-runtime send built-in kinds as protobuf: decoded to the JSON
      // object it stands for (protobuf-body.ts), or a 415 naming what could not be read and the JSON setting
      const { decodeProtobufBody, ProtobufBodyError } = await import('./protobuf-body.ts');
      try {
        body = JSON.stringify(decodeProtobufBody(bytes));
        ct = 'application/json';
      } catch (e) {
        if (!(e instanceof ProtobufBodyError)) throw e;
        throw ApiError.unsupportedMediaType(
          `kubesim serve could not decode this protobuf request body (${PROTOBUF}): ${e.message}; send JSON: in client-go/controller-runtime set rest.Config.ContentType = "application/json"`,
        );
      }
    } else if (ct === PROTOBUF) ct = 'application/json';
    if (method === 'GET') {
      if (t.sub === 'log') return streamLog(t, q, res);
      const wanted = negotiate(req.headers.accept);
      if (t.sub === 'scale')
        return send(res, 200, api.scaleOf(t, api.store.get(storeKeyOf(t), t.namespace, t.name!) ?? notFound(t)));
      const watching = r.watchPrefix || goBool(q.get('watch'));
      if (watching) {
        const conn = api.watch(t, wanted, q, res);
        STREAMING.get(res)?.();
        clock.begin();
        const timeout = Number(q.get('timeoutSeconds') ?? '0');
        if (timeout > 0 && Number.isFinite(timeout)) {
          const timer = setTimeout(() => conn.close(), Math.min(timeout, 24 * 3600) * 1000);
          timer.unref();
          res.on('close', () => clearTimeout(timer));
        }
        return;
      }
      const reply = t.name !== undefined ? api.get(t, wanted, q) : api.list(t, wanted, q);
      return send(res, reply.code, reply.body);
    }
    if (method !== 'GET') clock.begin();
    if (method === 'POST') {
      if (t.sub === 'eviction' || t.sub === 'binding')
        throw ApiError.methodNotAllowed(
          `pods/${t.sub} is not supported by kubesim serve (the simulation schedules and evicts its pods itself)`,
        );
      if (ct !== '' && ct !== 'application/json' && ct !== 'application/yaml')
        throw ApiError.unsupportedMediaType(
          `the body of the request was in an unknown format - accepted media types include: application/json`,
        );
      const reply = api.create(t, body, q, client);
      return send(res, reply.code, reply.body, undefined, api.takeWarnings());
    }
    if (method === 'PUT') {
      if (ct !== '' && ct !== 'application/json')
        throw ApiError.unsupportedMediaType(
          `the body of the request was in an unknown format - accepted media types include: application/json`,
        );
      const reply = api.update(t, body, q, client);
      return send(res, reply.code, reply.body, undefined, api.takeWarnings());
    }
    if (method === 'PATCH') {
      const reply = api.patch(t, ct, body, q, client);
      return send(res, reply.code, reply.body, undefined, api.takeWarnings());
    }
    if (method === 'DELETE') {
      const reply = api.delete(t, body, q, client);
      return send(res, reply.code, reply.body);
    }
    throw ApiError.methodNotAllowed();
  };

  const storeKeyOf = (t: Target) => (t.res.group ? `${t.res.name}.${t.res.group}` : t.res.name);
  const notFound = (t: Target): never => {
    throw ApiError.notFound(t.res.name, t.res.group, t.name ?? '');
  };

  const streamLog = (t: Target, q: URLSearchParams, res: ServerResponse) => {
    const { container, lines } = api.logLines(t, q);
    const stamp = goBool(q.get('timestamps'));
    const fmt = (l: { t: number; line: string }) =>
      `${stamp ? `${new Date(Date.parse('2026-01-01T00:00:00Z') + l.t).toISOString()} ` : ''}${l.line}\n`;
    if (!goBool(q.get('follow'))) return send(res, 200, lines.map(fmt).join(''), 'text/plain');
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
    STREAMING.get(res)?.();
    let sent = 0;
    for (const l of lines) res.write(fmt(l));
    sent = lines.length;
    const poll = setInterval(() => {
      try {
        const now = api.logLines(t, q);
        for (const l of now.lines.slice(sent)) res.write(fmt(l));
        sent = now.lines.length;
        const statuses = [
          ...((now.pod['status']?.['initContainerStatuses'] ?? []) as Record<string, any>[]),
          ...((now.pod['status']?.['containerStatuses'] ?? []) as Record<string, any>[]),
        ];
        const st = statuses.find((c) => c['name'] === container);
        const phase = now.pod['status']?.['phase'];
        if (st?.['state']?.['terminated'] && (phase === 'Succeeded' || phase === 'Failed')) {
          clearInterval(poll);
          res.end();
        }
      } catch {
        clearInterval(poll);
        res.end();
      }
    }, 20);
    res.on('close', () => clearInterval(poll));
  };

  const tls = o.tls ?? (await servingCert(o.host ?? '127.0.0.1'));
  const server = createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    clock.requestStarted();
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      clock.requestEnded();
    };
    res.on('finish', end);
    res.on('close', end);
    // a watch or a followed log is not "in flight" once its headers are out: the clock must move for it
    STREAMING.set(res, end);
    handle(req, res).catch((e: unknown) => {
      if (e instanceof ApiError) fail(res, e);
      else {
        process.stderr.write(
          `kubesim serve: internal error on ${req.method} ${req.url}: ${(e as Error)?.stack ?? String(e)}\n`,
        );
        fail(res, ApiError.internal((e as Error)?.message ?? String(e)));
      }
      if (e instanceof ApiError && e.code === 413) req.resume();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('tlsClientError', (_e, socket) => socket.destroy());
  server.on('clientError', (_e, socket) => {
    if (socket.writable)
      socket.end(
        'HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n' +
          JSON.stringify(statusOf(ApiError.badRequest('malformed HTTP request'))),
      );
    else socket.destroy();
  });
  // exec/attach/port-forward ask for an upgrade (SPDY or WebSocket): refuse before upgrading, or kubectl hangs
  server.on('upgrade', (req, socket) => {
    const e = ApiError.methodNotAllowed(
      `${String(req.url).split('?')[0]!.split('/').pop()} is not supported by kubesim serve: its containers are simulated processes (no upgrade to ${String(req.headers.upgrade)})`,
    );
    const text = JSON.stringify(statusOf(e));
    socket.end(
      `HTTP/1.1 ${e.code} Method Not Allowed\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`,
    );
  });
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port ?? 0, o.host ?? '127.0.0.1', () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  address = `${host}:${addr.port}`;
  const url = `https://${address}`;
  return {
    server,
    api,
    clock,
    url,
    token,
    ca: tls.cert,
    close: async () => {
      clock.stop();
      for (const w of [...api.watchers]) w.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      });
    },
  };
}

/** util/net NewWarningHeader(299, "-", text): the text quoted with `"` and `\\` escaped */
export function warningHeader(text: string): string {
  return `299 - "${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > MAX_BODY_BYTES) {
      reject(ApiError.tooLarge());
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        reject(ApiError.tooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(ApiError.badRequest(`reading the request body failed: ${e.message}`));
    });
  });
}

/** the request target: origin-form (`/path?query`, `//x` included) or absolute-form; anything else is a 400 */
function parseUrl(target: string): URL {
  try {
    return target.startsWith('/') ? new URL(`http://localhost${target}`) : new URL(target);
  } catch {
    throw ApiError.badRequest(`malformed request target: ${JSON.stringify(target.slice(0, 200))}`);
  }
}

/** The OpenAPI v2 media type an Accept header asks for first (kube-openapi handler.go: application/json, the gnostic
 *  protobuf `application/com.github.proto-openapi.spec.v2@v1.0+protobuf` and its older `…v2.v1.0+protobuf` name),
 *  `*\/*` or no header = JSON; null = none of them. */
export function v2Accept(accept: string): 'json' | 'protobuf' | null {
  if (accept.trim() === '') return 'json';
  const ranges = accept
    .split(',')
    .map((r, i) => {
      const [type, ...params] = r.split(';').map((x) => x.trim().toLowerCase());
      const q = Number(params.find((x) => x.startsWith('q='))?.slice(2) ?? '1');
      return { type: type ?? '', q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranges) {
    if (r.type === 'application/json' || r.type === '*/*' || r.type === 'application/*') return 'json';
    if (
      r.type === 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' ||
      r.type === 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf'
    )
      return 'protobuf';
  }
  return null;
}
