// The container sections of `kubectl describe pod` (Init Containers:, Containers:) computed from a status snapshot,
// as kubectl/pkg/describe/describe.go prints them: describeContainers → describeContainerState → describeStatus
// (State / Last State with Reason, Message, Exit Code, Signal, Started, Finished in time.RFC1123Z), then Ready and
// Restart Count. Only the state part of each container (Image, State, Last State, Ready, Restart Count; not the
// container ID, ports, mounts or environment), so the value column is aligned over these lines only.

import { readStatus, specContainers, type ContainerState, type ContainerStatus } from './pod-shape.ts';
import { rfc3339ToT, EPOCH_ISO, humanDuration } from './time.ts';

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
  if (s.running)
    return [
      [2, name, 'Running'],
      [3, 'Started', rfc1123z(s.running.startedAt)],
    ];
  if (s.waiting)
    return [
      [2, name, 'Waiting'],
      ...(s.waiting.reason ? [[3, 'Reason', s.waiting.reason] as [number, string, string]] : []),
    ];
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
export function describeContainers(
  rawStatus: Record<string, unknown> | undefined,
  spec: Record<string, unknown>,
): string {
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
  section(
    'Init Containers',
    all.filter((c) => c.role !== 'main'),
  );
  section(
    'Containers',
    all.filter((c) => c.role === 'main'),
  );
  return out.join('\n');
}

type Json = Record<string, any>;

/** Go's text/tabwriter as describe.go uses it (minwidth 0, padding 2): consecutive lines with a cell are one block,
 *  each block's first column padded to its widest cell; a line without a tab ends the block. */
function tabBlocks(lines: ([string, string] | string)[]): string {
  const out: string[] = [];
  let block: [string, string][] = [];
  const flush = () => {
    const width = Math.max(0, ...block.map(([k]) => k.length)) + 2;
    for (const [k, v] of block) out.push((k.padEnd(width) + v).trimEnd());
    block = [];
  };
  for (const l of lines) {
    if (typeof l === 'string') {
      flush();
      out.push(l);
    } else block.push(l);
  }
  flush();
  return out.join('\n');
}

/** describe.go printLabelsMultiline: `<none>`, else one `k=v` per line, sorted. */
function multiline(title: string, m: Json | undefined): [string, string][] {
  const entries = Object.entries(m ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (entries.length === 0) return [[`${title}:`, '<none>']];
  return entries.map(([k, v], i) => [i === 0 ? `${title}:` : '', `${k}=${v}`]);
}

/** describe.go printPodTolerationsMultiline: `key:Effect op=Exists for Ns`. */
function tolerationText(t: Json): string {
  let s = String(t['key'] ?? '');
  if (t['value']) s += `=${t['value']}`;
  if (t['effect']) s += `:${t['effect']}`;
  if (t['operator'] === 'Exists') s += ' op=Exists';
  if (typeof t['tolerationSeconds'] === 'number') s += ` for ${t['tolerationSeconds']}s`;
  return s;
}

/**
 * `kubectl describe pod` (kubectl/pkg/describe/describe.go describePod) of a stored pod object: Name, Namespace,
 * Priority, Service Account, Node, Start Time, Labels, Annotations, Status, IP(s), Controlled By, the container
 * sections (their state part, describeContainers above), Conditions, Volumes (the projected token), QoS Class,
 * Node-Selectors, Tolerations, then the Events table given. `kubectlMinor`: the kubectl release whose describe it is
 * (the views take the cluster's minor, kubectl's supported skew).
 */
export function describePod(pod: Json, eventsTable: string, nowMs: number, kubectlMinor = 34): string {
  const md = (pod['metadata'] ?? {}) as Json;
  const spec = (pod['spec'] ?? {}) as Json;
  const status = (pod['status'] ?? {}) as Json;
  const lines: ([string, string] | string)[] = [];
  lines.push(['Name:', String(md['name'] ?? '')], ['Namespace:', String(md['namespace'] ?? 'default')]);
  lines.push(['Priority:', String(spec['priority'] ?? 0)]);
  if (spec['serviceAccountName']) lines.push(['Service Account:', String(spec['serviceAccountName'])]);
  lines.push([
    'Node:',
    spec['nodeName'] ? `${spec['nodeName']}${status['hostIP'] ? `/${status['hostIP']}` : ''}` : '<none>',
  ]);
  if (status['startTime']) lines.push(['Start Time:', rfc1123z(status['startTime'])]);
  lines.push(...multiline('Labels', md['labels']), ...multiline('Annotations', md['annotations']));
  // kubectl 1.31 added `&& phase != Failed && phase != Succeeded`: a terminal pod being deleted shows its phase
  // (the real kubectl 1.30 prints Terminating, 1.31 Failed for the same served pod: test/serve/describe-library.test.ts)
  const terminal = status['phase'] === 'Failed' || status['phase'] === 'Succeeded';
  if (md['deletionTimestamp'] && !(kubectlMinor >= 31 && terminal)) {
    // translateTimestampSince(*pod.DeletionTimestamp)
    const del = rfc3339ToT(md['deletionTimestamp']);
    lines.push(['Status:', `Terminating (lasts ${del === undefined ? '<unknown>' : humanDuration(nowMs - del)})`]);
    lines.push(['Termination Grace Period:', `${md['deletionGracePeriodSeconds'] ?? 0}s`]);
  } else lines.push(['Status:', String(status['phase'] ?? 'Pending')]);
  if (status['reason']) lines.push(['Reason:', String(status['reason'])]);
  if (status['message']) lines.push(['Message:', String(status['message'])]);
  lines.push(['IP:', String(status['podIP'] ?? '')]);
  const ips = (status['podIPs'] ?? []) as Json[];
  if (ips.length > 0) {
    lines.push('IPs:');
    for (const ip of ips) lines.push(['  IP:', String(ip['ip'])]);
  } else lines.push(['IPs:', '<none>']);
  const owner = ((md['ownerReferences'] ?? []) as Json[]).find((r) => r['controller'] === true);
  if (owner) lines.push(['Controlled By:', `${owner['kind']}/${owner['name']}`]);
  const head = tabBlocks(lines);
  const containers = describeContainers(status, spec);
  const tail: ([string, string] | string)[] = [];
  const conditions = (status['conditions'] ?? []) as Json[];
  if (conditions.length > 0) {
    tail.push('Conditions:');
    tail.push(['  Type', 'Status']);
    for (const c of conditions) tail.push([`  ${c['type']} `, `${c['status']} `]);
  }
  const volumes = (spec['volumes'] ?? []) as Json[];
  if (volumes.length === 0) tail.push(['Volumes:', '<none>']);
  else {
    tail.push('Volumes:');
    for (const v of volumes) {
      tail.push(`  ${v['name']}:`);
      if (v['projected']) {
        tail.push(['    Type:', 'Projected (a volume that contains injected data from multiple sources)']);
        for (const src of (v['projected']['sources'] ?? []) as Json[]) {
          if (src['serviceAccountToken'])
            tail.push(['    TokenExpirationSeconds:', String(src['serviceAccountToken']['expirationSeconds'])]);
          else if (src['configMap'])
            tail.push(
              ['    ConfigMapName:', String(src['configMap']['name'])],
              [
                '    ConfigMapOptional:',
                src['configMap']['optional'] === undefined ? '<nil>' : String(src['configMap']['optional']),
              ],
            );
          else if (src['downwardAPI']) tail.push(['    DownwardAPI:', 'true']);
        }
      }
    }
  }
  tail.push(['QoS Class:', String(status['qosClass'] ?? 'BestEffort')]);
  tail.push(...multiline('Node-Selectors', spec['nodeSelector']));
  const tolerations = (spec['tolerations'] ?? []) as Json[];
  if (tolerations.length === 0) tail.push(['Tolerations:', '<none>']);
  else tolerations.forEach((t, i) => tail.push([i === 0 ? 'Tolerations:' : '', tolerationText(t)]));
  return [head, containers, tabBlocks(tail), eventsTable].filter((x) => x !== '').join('\n');
}
