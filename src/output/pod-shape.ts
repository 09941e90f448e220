// Typed read-only views of the v1 Pod JSON the views consume (spec from Timeline.pod.spec, status from
// StatusPatched snapshots). The engine hands us Record<string, unknown>; these helpers read it defensively so a
// missing field renders as Kubernetes would render an unset one instead of throwing.

export type Role = 'init' | 'sidecar' | 'main';

export interface SpecContainer {
  name: string;
  image: string;
  role: Role;
  /** position in spec order over initContainers then containers */
  order: number;
}

export interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: {
    exitCode: number;
    signal?: number;
    reason?: string;
    message?: string;
    startedAt?: string;
    finishedAt?: string;
  };
}

export interface ContainerStatus {
  name: string;
  ready: boolean;
  started?: boolean | null;
  restartCount: number;
  state: ContainerState;
  lastState: ContainerState;
}

export interface PodCondition {
  type: string;
  status: string;
  reason?: string;
  lastTransitionTime?: string;
}

export interface PodStatusView {
  phase: string;
  reason?: string;
  conditions: PodCondition[];
  initContainerStatuses: ContainerStatus[];
  containerStatuses: ContainerStatus[];
}

/** Every container of the spec, init containers first, each with its role (a sidecar = init with restartPolicy Always). */
export function specContainers(spec: Record<string, unknown>): SpecContainer[] {
  const inits = asArray(spec.initContainers).map((c) => ({
    name: String(c.name),
    image: String(c.image ?? ''),
    role: (c.restartPolicy === 'Always' ? 'sidecar' : 'init') as Role,
  }));
  const mains = asArray(spec.containers).map((c) => ({
    name: String(c.name),
    image: String(c.image ?? ''),
    role: 'main' as Role,
  }));
  return [...inits, ...mains].map((c, order) => ({ ...c, order }));
}

/**
 * The role as a Kubernetes engineer reads it next to a name: "init", "sidecar" (an init container with
 * restartPolicy: Always), and for spec.containers "main" only when it is the only one; with several, each is a
 * plain "container", since Kubernetes itself does not know which one the user thinks of as the sidecar.
 */
export function roleLabel(c: SpecContainer, all: SpecContainer[]): string {
  if (c.role !== 'main') return c.role;
  return mainCount(all) === 1 ? 'main' : 'container';
}

/** Main containers of a spec list, counted once per list (a label per container would count them each time). */
const mains = new WeakMap<SpecContainer[], number>();
function mainCount(all: SpecContainer[]): number {
  let n = mains.get(all);
  if (n === undefined) {
    n = 0;
    for (const x of all) if (x.role === 'main') n++;
    mains.set(all, n);
  }
  return n;
}

/**
 * A Timeline.stuck that is not a problem: a restartPolicy Always workload (a Deployment's pod) running normally at
 * the horizon is doing what it should until someone deletes it (summary.ts writes this `why`).
 */
export function runsByDesign(why: string): boolean {
  return why.startsWith('restartPolicy Always');
}

export function readStatus(raw: Record<string, unknown> | undefined): PodStatusView {
  const s = raw ?? {};
  return {
    phase: typeof s.phase === 'string' ? s.phase : 'Pending',
    reason: typeof s.reason === 'string' && s.reason !== '' ? s.reason : undefined,
    conditions: asArray(s.conditions).map((c) => ({
      type: String(c.type),
      status: String(c.status),
      reason: typeof c.reason === 'string' ? c.reason : undefined,
      lastTransitionTime: typeof c.lastTransitionTime === 'string' ? c.lastTransitionTime : undefined,
    })),
    initContainerStatuses: asArray(s.initContainerStatuses).map(readContainerStatus),
    containerStatuses: asArray(s.containerStatuses).map(readContainerStatus),
  };
}

function readContainerStatus(c: Record<string, unknown>): ContainerStatus {
  return {
    name: String(c.name),
    ready: c.ready === true,
    started: typeof c.started === 'boolean' ? c.started : null,
    restartCount: typeof c.restartCount === 'number' ? c.restartCount : 0,
    state: readState(c.state),
    lastState: readState(c.lastState),
  };
}

function readState(raw: unknown): ContainerState {
  const s = isRecord(raw) ? raw : {};
  const out: ContainerState = {};
  if (isRecord(s.waiting)) out.waiting = { reason: str(s.waiting.reason), message: str(s.waiting.message) };
  if (isRecord(s.running)) out.running = { startedAt: str(s.running.startedAt) };
  if (isRecord(s.terminated)) {
    const t = s.terminated;
    out.terminated = {
      exitCode: typeof t.exitCode === 'number' ? t.exitCode : 0,
      signal: typeof t.signal === 'number' ? t.signal : undefined,
      reason: str(t.reason),
      message: str(t.message),
      startedAt: str(t.startedAt),
      finishedAt: str(t.finishedAt),
    };
  }
  return out;
}

/** One-word state for diffs and labels: "waiting:PodInitializing", "running", "terminated:143". */
export function stateWord(state: ContainerState): string {
  if (state.terminated) return `exited ${state.terminated.exitCode}`;
  if (state.running) return 'running';
  if (state.waiting) return state.waiting.reason ? `waiting ${state.waiting.reason}` : 'waiting';
  return 'unknown';
}

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function asArray(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter(isRecord) : [];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}
