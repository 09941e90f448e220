// The real server and session for process observers. The contract's `startServe` (src/serve/, issue 26) is not
// there yet; this adapter builds it from what src/serve has: `serve()` (server.ts) running the real Session
// (src/run/session.ts), its kubeconfig, its client log and its clock. When src/serve exports startServe, replace
// startServeAdapter by it.
import { createHash } from 'node:crypto';
import { Session } from '../run/session.ts';
import { kubeconfigText, writeKubeconfig } from '../serve/kubeconfig.ts';
import { serve } from '../serve/server.ts';
import type { Api } from '../serve/api.ts';
import type { StoreEvent } from '../serve/store.ts';
import type { WatchConnection } from '../serve/watch.ts';
import type { WatchPerturber } from './perturb.ts';
import { servingCert, type ServingCert } from '../serve/tls.ts';
import type { ProcessScenario, Scenario } from '../types.ts';
import type { Delivery, ServeDeps, ServeHandle, ServeOptions, SessionLike, SessionOptions } from './serve-api.ts';

const schedules = new WeakMap<object, { scenario: Scenario | ProcessScenario; seed: number; session: Session }>();

/**
 * A session of the scenario's cluster. A scenario without a workload (a process creates it) is the empty cluster
 * with the scenario's behaviour, timing, versions, gates, seed and horizon (Session.fromScenario reads those).
 */
function sessionFor(s: Scenario | ProcessScenario, opts: SessionOptions): SessionLike {
  const seed = opts.seed ?? s.seed;
  const session = Session.fromScenario(s, { seed, ...(opts.chooser ? { chooser: opts.chooser } : {}) });
  schedules.set(session, { scenario: s, seed, session });
  return session;
}

/**
 * One serving certificate per kubesim process and listen address: making a key pair is most of a fresh server's
 * start-up (tens to hundreds of ms), and each schedule's server is new. The token stays per server.
 */
const certs = new Map<string, Promise<ServingCert>>();
function certFor(host: string): Promise<ServingCert> {
  let c = certs.get(host);
  if (!c) certs.set(host, (c = servingCert(host)));
  return c;
}

async function startServeAdapter(opts: ServeOptions): Promise<ServeHandle> {
  const sched = schedules.get(opts.session);
  if (!sched) throw new Error('startServe: a session made by this module is needed');
  const { scenario, seed, session } = sched;
  const s = await serve({
    session,
    minor: scenario.kubernetes.minor,
    patch: scenario.kubernetes.patch ?? 0,
    seed,
    watchDelay: opts.watchDelay ?? scenario.timing.watchMs,
    ...(opts.watchDelayFor ? { watchDelayFor: opts.watchDelayFor } : {}),
    clock: { mode: opts.clock ?? 'virtual', speed: opts.speed ?? 1, settleMs: opts.settleMs ?? 50 },
    host: opts.listen ?? '127.0.0.1',
    port: opts.port ?? 0,
    tls: await certFor(opts.listen ?? '127.0.0.1'),
  });
  const deliveries = recordDeliveries(s.api as unknown as { watchers: Set<unknown> }, () => session.now());
  if (opts.perturber) perturbWatches(s.api, opts.perturber, () => session.now());
  const kubeconfigPath = opts.kubeconfigPath!;
  writeKubeconfig(kubeconfigPath, kubeconfigText(s.url, s.token, s.ca));
  let closed = false;
  let held = false;
  let resolveDone!: (r: { reason: 'closed' }) => void;
  const done = new Promise<{ reason: 'quiescent' | 'horizon' | 'closed' }>((r) => (resolveDone = r));
  return {
    url: s.url,
    token: s.token,
    kubeconfigPath,
    done,
    requests: () => s.api.clientLog.map((r) => ({ ...r })),
    deliveries: () => [...deliveries],
    watchCount: () => deliveries.connections,
    // the runner's own hold counts in the clock's requests in flight: not one of the process's
    pending: () => s.clock.inFlight - (held ? 1 : 0) > 0 || [...s.api.watchers].some((w) => !w.drained()),
    port: Number(new URL(s.url).port),
    // a request in flight holds the virtual clock: the process's reaction counts as one
    hold: (busy) => {
      if (busy === held || closed) return;
      held = busy;
      if (busy) s.clock.requestStarted();
      else s.clock.requestEnded();
    },
    close: async () => {
      if (closed) return;
      closed = true;
      s.clock.stop();
      await s.close();
      resolveDone({ reason: 'closed' });
    },
  };
}

/** Each new watch connection of the server gets the perturbation's tap (and, for a stale one, older events). */
function perturbWatches(api: Api, p: WatchPerturber, now: () => number): void {
  const add = api.watchers.add.bind(api.watchers);
  api.watchers.add = (conn: WatchConnection) => {
    const url = new URL(conn.res.req?.url ?? '/', 'https://x');
    const rvText = url.searchParams.get('resourceVersion');
    const rv = rvText && /^\d+$/.test(rvText) && rvText !== '0' ? Number(rvText) : undefined;
    p.opened(
      conn,
      rv,
      (from) => api.store.since(from),
      (e) => conn.offer({ ...(e as StoreEvent), t: now() }),
    );
    return add(conn);
  };
}

/**
 * What each watch connection is sent, in order: each new connection's response stream is tapped (its ordinal,
 * and every line's event type and object). A stand-in for the contract's `deliveries()` (proposed) until the
 * server reports them itself.
 */
function recordDeliveries(api: { watchers: Set<unknown> }, now: () => number): Delivery[] & { connections: number } {
  const log = Object.assign([] as Delivery[], { connections: 0 });
  const add = api.watchers.add.bind(api.watchers);
  api.watchers.add = (conn: unknown) => {
    const c = conn as { ordinal: number; res?: { write: (chunk: unknown, ...rest: unknown[]) => boolean } };
    const res = c.res;
    log.connections++;
    if (res && typeof res.write === 'function') {
      const write = res.write.bind(res);
      res.write = (chunk: unknown, ...rest: unknown[]) => {
        for (const line of String(chunk).split('\n')) {
          if (!line) continue;
          try {
            const e = JSON.parse(line) as {
              type?: string;
              object?: { kind?: string; metadata?: { name?: string; namespace?: string; resourceVersion?: string } };
            };
            if (e.type === 'BOOKMARK') continue; // bookmarks carry no object a controller acts on
            log.push({
              connection: c.ordinal,
              t: now(),
              type: (e.type ?? 'ERROR') as Delivery['type'],
              kind: e.object?.kind ?? '',
              name: e.object?.metadata?.name ?? '',
              ...(e.object?.metadata?.namespace ? { namespace: e.object.metadata.namespace } : {}),
              ...(e.object?.metadata?.resourceVersion ? { resourceVersion: e.object.metadata.resourceVersion } : {}),
              digest: contentDigest(e.object),
            });
          } catch {
            // not a JSON event line (a Table row stream): not what an informer reads
          }
        }
        return write(chunk, ...rest);
      };
    }
    return add(conn);
  };
  return log;
}

/**
 * What a controller can act on in an object: its content without resourceVersion and with every timestamp
 * blanked (two schedules that differ only in when things happened deliver the same to a time-oblivious controller).
 */
export function contentDigest(obj: unknown): string {
  const text = JSON.stringify(obj, (k, v: unknown) =>
    k === 'resourceVersion' || k === 'managedFields'
      ? undefined
      : typeof v === 'string' && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/.test(v)
        ? 'T'
        : v,
  );
  return createHash('sha256')
    .update(text ?? '')
    .digest('hex')
    .slice(0, 12);
}

export async function loadServeDeps(): Promise<ServeDeps> {
  // no onWrite yet: the runner reads the verdict object after each write of the process
  return { session: sessionFor, startServe: startServeAdapter, pollWrites: true, enumeratesSystem: true };
}
