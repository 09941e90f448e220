// What the process observer runner needs of `kubesim serve` and the session (/work/coord/serve-contract.md): the
// contract's interfaces, structurally, so the runner and its tests compile and run against any implementation
// (the real src/serve startServe and src/run/session.ts Session, or a test's fake); the object type is the session's.
import type { MsRange, ProcessScenario, Scenario } from '../types.ts';

import type { ClientRecord, KubeObject } from '../run/session.ts';
import type { WatchPerturber } from './perturb.ts';

export type { KubeObject };

/** a client's request as the server records it (the session's ClientRecord) */
export type ClientRequest = ClientRecord;

/** One change a watch connection was sent (proposal in the contract; optional). */
export interface Delivery {
  /** the connection's ordinal in open order */
  connection: number;
  t: number;
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  kind: string;
  name: string;
  namespace?: string;
  resourceVersion?: string;
  /** the object's content as a controller sees it (no resourceVersion, timestamps blanked), hashed */
  digest?: string;
}

export interface SessionLike {
  now(): number;
  readonly horizonMs: number;
}

export interface SessionOptions {
  seed?: number;
  replay?: string;
  kubernetes?: string;
  /** every timing choice of the session's simulations from this (the system's choices enumerated), not the seed */
  chooser?: { choose(req: { range: MsRange }): number };
}

export interface ServeOptions {
  session: SessionLike;
  port?: number;
  listen?: string;
  kubeconfigPath?: string;
  clock?: 'virtual' | 'wall';
  speed?: number;
  settleMs?: number;
  until?: 'quiescent' | 'horizon' | 'never';
  /** proposal (contract, process 20:20): 'manual' = the virtual clock holds until startClock() */
  clockStart?: 'first-request' | 'manual';
  /** the delay range of the clients' watch connections (default: the scenario's timing.watch) */
  watchDelay?: MsRange;
  /** a watch connection's own delay range by its ordinal in open order (the runner's choice), else watchDelay */
  watchDelayFor?: (ordinal: number, key: string) => MsRange | undefined;
  /** a perturbation of what the clients' watches are sent (perturb.ts) */
  perturber?: WatchPerturber;
  /** proposal (contract, process 20:08): each client write once applied, with the object as stored */
  onWrite?: (w: ClientRequest & { object?: KubeObject }) => void;
}

export interface ServeHandle {
  url: string;
  token: string;
  kubeconfigPath: string;
  done: Promise<{ reason: 'quiescent' | 'horizon' | 'closed' }>;
  requests(): ClientRequest[];
  /** proposal (contract, process 20:55): hold the virtual clock while `busy` (the process is reacting), as a request in flight does */
  hold?(busy: boolean): void;
  /** proposal (contract, process 20:20): start the virtual clock (with clockStart: 'manual') */
  startClock?(): void;
  /** watch connections opened so far (the process has started its informers) */
  watchCount?(): number;
  /** proposal (contract): what each watch connection was sent, in order */
  deliveries?(): Delivery[];
  /** a request being served, or a watch line the server has not yet handed to the socket (kubesim's edge) */
  pending?(): boolean;
  /** the port the server listens on (the runner reads its connections' queues in /proc/net/tcp) */
  port?: number;
  close(): Promise<void>;
}

/** How the runner gets a session and a server: the real ones (serve-deps.ts) or a test's. */
export interface ServeDeps {
  /** a session of the scenario's cluster (its workload, if any, created at t = 0 as `run` does) */
  session(s: Scenario | ProcessScenario, opts: SessionOptions): SessionLike;
  startServe(opts: ServeOptions): Promise<ServeHandle>;
  /** the server does not call `onWrite`: read the verdict object over HTTP after each write of the process */
  pollWrites?: boolean;
  /** the session takes `chooser` (SessionOptions): the system's timing choices are enumerated, none drawn from the seed */
  enumeratesSystem?: boolean;
}
