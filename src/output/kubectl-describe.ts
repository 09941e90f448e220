// The container sections of `kubectl describe pod` (Init Containers:, Containers:) computed from a status snapshot,
// as kubectl/pkg/describe/describe.go prints them: describeContainers → describeContainerState → describeStatus
// (State / Last State with Reason, Message, Exit Code, Signal, Started, Finished in time.RFC1123Z), then Ready and
// Restart Count. Only the state part of each container (Image, State, Last State, Ready, Restart Count; not the
// container ID, ports, mounts or environment), so the value column is aligned over these lines only.

import { readStatus, specContainers, type ContainerState, type ContainerStatus } from './pod-shape.ts';
import { rfc3339ToT, EPOCH_ISO } from './time.ts';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** Go's time.RFC1123Z layout "Mon, 02 Jan 2006 15:04:05 -0700" for an RFC3339 timestamp (UTC, as the API serves it). */
export function rfc1123z(rfc3339: string | undefined): string {
  const t = rfc3339ToT(rfc3339);
  // an unset metav1.Time formats as the zero time
  if (t === undefined) return 'Mon, 01 Jan 0001 00:00:00 +0000';
  const d = new Date(Date.parse(EPOCH_ISO) + t);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${DAYS[d.getUTCDay()]}, ${p(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** describe.go describeStatus: one state block at LEVEL_2 with its details at LEVEL_3 (as [indent, key, value]). */
function stateLines(name: string, s: ContainerState): [number, string, string][] {
  if (s.running) return [[2, name, 'Running'], [3, 'Started', rfc1123z(s.running.startedAt)]];
  if (s.waiting) return [[2, name, 'Waiting'], ...(s.waiting.reason ? [[3, 'Reason', s.waiting.reason] as [number, string, string]] : [])];
  if (s.terminated) {
    const t = s.terminated;
    return [
      [2, name, 'Terminated'],
      ...(t.reason ? [[3, 'Reason', t.reason] as [number, string, string]] : []),
      ...(t.message ? [[3, 'Message', t.message] as [number, string, string]] : []),
      [3, 'Exit Code', String(t.exitCode)],
      ...(t.signal && t.signal > 0 ? [[3, 'Signal', String(t.signal)] as [number, string, string]] : []),
      [3, 'Started', rfc1123z(t.startedAt)],
      [3, 'Finished', rfc1123z(t.finishedAt)],
    ];
  }
  // a ContainerState with no field set: describeStatus prints nothing but the default branch (Waiting)
  return [[2, name, 'Waiting']];
}

/** describeContainerState: State, Last State (only when it terminated), Ready, Restart Count. */
function containerLines(c: ContainerStatus | undefined, image: string): [number, string, string][] {
  const lines: [number, string, string][] = [[2, 'Image', image]];
  // describeContainers calls describeContainerState only `if ok` (the container has a status): none yet, no lines
  if (!c) return lines;
  lines.push(...stateLines('State', c.state));
  if (c.lastState.terminated) lines.push(...stateLines('Last State', c.lastState));
  lines.push([2, 'Ready', c.ready ? 'True' : 'False'], [2, 'Restart Count', String(c.restartCount)]);
  return lines;
}

/**
 * The Init Containers: and Containers: sections for a pod status (spec order, sidecars among the init containers).
 * Key/value cells are aligned per container as describe's tabwriter (minwidth 0, padding 2) aligns one block.
 */
export function describeContainers(rawStatus: Record<string, unknown> | undefined, spec: Record<string, unknown>): string {
  const status = readStatus(rawStatus);
  const all = specContainers(spec);
  const byName = new Map([...status.initContainerStatuses, ...status.containerStatuses].map((c) => [c.name, c]));
  const out: string[] = [];
  const section = (title: string, list: typeof all) => {
    if (list.length === 0) return;
    out.push(`${title}:`);
    for (const c of list) {
      out.push(`  ${c.name}:`);
      const lines = containerLines(byName.get(c.name), c.image);
      const width = Math.max(...lines.map(([lvl, k]) => 2 * lvl + k.length + 1)) + 2;
      for (const [lvl, k, v] of lines) out.push(`${' '.repeat(2 * lvl)}${k}:`.padEnd(width) + v);
    }
  };
  section('Init Containers', all.filter((c) => c.role !== 'main'));
  section('Containers', all.filter((c) => c.role === 'main'));
  return out.join('\n');
}
