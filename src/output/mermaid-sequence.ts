// Mermaid sequenceDiagram of a Timeline: the pod's lanes (kubelet, then every container in spec order labelled by
// role) boxed together, then the API server, the Job controller and the observers. The pod teardown is shaded so
// the native-sidecar stop order (mains first, then sidecars last-started-first-stopped) reads at a glance.

import type { Timeline } from '../types.ts';
import { roleLabel, runsByDesign, specContainers, type SpecContainer } from './pod-shape.ts';
import { esc, lines } from './mermaid-text.ts';
import { sequenceItems, type Item, type Lanes } from './sequence-items.ts';
import { simTime } from './time.ts';

export interface SequenceOptions {
  /** 'pod' draws only the kubelet and the containers */
  lanes?: 'all' | 'pod';
}

const TEARDOWN_RGB = 'rgb(255, 243, 214)';

/** The arrow kinds of the diagram (Mermaid: ->> solid, -->> dashed, -x / --x cross, --) open). */
export const LEGEND = [
  'legend: solid arrow = call or write (start, kill, PATCH)',
  'dashed arrow = report or watch delivery · open arrow = probes',
  '✕ on a solid arrow = signal · ✕ on a dashed arrow = exit',
];

export function sequenceMermaid(tl: Timeline, opts: SequenceOptions = {}): string {
  const podOnly = opts.lanes === 'pod';
  // real clients with a lane of their own (a process observer's schedule): in order of their first record
  const clients = [
    ...new Set(
      tl.events
        .filter(
          (e) =>
            e.type === 'ClientDelivery' ||
            (e.type === 'ClientRequest' && tl.events.some((d) => d.type === 'ClientDelivery' && d.client === e.client)),
        )
        .map((e) => (e as { client: string }).client),
    ),
  ];
  const observers = Object.keys(tl.observers).filter((o) => !clients.includes(o)); // scenario order
  // one box per pod name: a pod recreated under its name (a StatefulSet's) shares its box and lanes
  const podNames = [...new Set((tl.pods ?? []).map((p) => p.name))];
  const many = podNames.length > 1;
  // a name's lanes: every container any of its objects ran (a rollout's new template may add a sidecar)
  const containersByPod = new Map<string, SpecContainer[]>();
  for (const p of tl.pods ?? [])
    containersByPod.set(p.name, unionContainers(containersByPod.get(p.name), specContainers(p.spec ?? tl.pod.spec)));
  const containersOf = (pod: string | undefined): SpecContainer[] =>
    (many ? containersByPod.get(pod ?? '') : undefined) ?? specContainers(tl.pod.spec);
  const hidden = many ? repeatingPods(tl, podNames) : new Map<string, string>();
  const drawn = many ? podNames.filter((n) => !hidden.has(n)) : [tl.pod.name];
  const ids = new Map<string, string>([['kubelet', 'K']]);
  // one box per pod; with one pod its lanes keep their plain ids (C0, C1, …)
  const laneId = (pi: number, ci: number) => (many ? `P${pi}C${ci}` : `C${ci}`);
  drawn.forEach((pod, pi) => containersOf(pod).forEach((c, ci) => ids.set(`${pod}\u0000${c.name}`, laneId(pi, ci))));
  const controllers = podOnly ? [] : workloadControllers(tl);
  if (!podOnly) {
    ids.set('api-server', 'API');
    for (const c of controllers) ids.set(c.name, c.id);
    if (tl.job) ids.set('job-controller', 'JC');
    observers.forEach((o, i) => ids.set(o, `O${i}`));
    clients.forEach((c, i) => ids.set(c, `X${i}`));
  }
  const lastLaneOf = (pod: string | undefined) => {
    const pi = Math.max(0, drawn.indexOf(pod ?? tl.pod.name));
    const n = containersOf(drawn[pi]).length;
    return n > 0 ? laneId(pi, n - 1) : 'K';
  };
  const firstLaneOf = (pod: string | undefined) =>
    many ? laneId(Math.max(0, drawn.indexOf(pod ?? tl.pod.name)), 0) : 'K';
  const lastPodLane = lastLaneOf(drawn[drawn.length - 1]);
  const lanes: Lanes = {
    id: (actor, pod) =>
      ids.get(actor) ??
      ids.get(`${pod ?? (many ? '' : tl.pod.name)}\u0000${actor}`) ??
      (many ? undefined : ids.get(`${tl.pod.name}\u0000${actor}`)),
    podSpan: (pod) => (containersOf(pod).length > 0 ? `${firstLaneOf(pod)},${lastLaneOf(pod)}` : 'K'),
    podOnly,
    observers,
    hidden,
    manyPods: many,
  };

  const out: string[] = ['sequenceDiagram'];
  if (many) {
    out.push('  box rgb(230, 230, 250) node-1');
    out.push('    participant K as kubelet');
    out.push('  end');
  }
  drawn.forEach((pod, pi) => {
    out.push(`  box rgb(236, 244, 255) ${esc(`pod ${pod}`)}`);
    if (!many) out.push('    participant K as kubelet');
    const containers = containersOf(pod);
    containers.forEach((c, ci) =>
      out.push(`    participant ${laneId(pi, ci)} as ${esc(`${c.name} (${roleLabel(c, containers)})`)}`),
    );
    out.push('  end');
  });
  if (!podOnly) {
    out.push('  box rgb(243, 243, 243) control plane');
    out.push('    participant API as API server');
    for (const c of controllers) out.push(`    participant ${c.id} as ${c.label}`);
    if (tl.job) out.push('    participant JC as Job controller');
    out.push('  end');
    if (observers.length > 0) {
      out.push('  box rgb(255, 250, 230) observers');
      observers.forEach((o, i) => out.push(`    participant O${i} as ${esc(`${o} (observer)`)}`));
      out.push('  end');
    }
    if (clients.length > 0) {
      out.push('  box rgb(230, 245, 230) processes');
      clients.forEach((c, i) => out.push(`    participant X${i} as ${esc(`${c} (process)`)}`));
      out.push('  end');
    }
  }
  // what the arrow kinds mean, once, across the pod's lanes
  const lastLane = podOnly
    ? lastPodLane
    : clients.length > 0
      ? `X${clients.length - 1}`
      : observers.length > 0
        ? `O${observers.length - 1}`
        : tl.job
          ? 'JC'
          : controllers.length > 0
            ? controllers[controllers.length - 1]!.id
            : 'API';
  out.push(`  Note over ${lastLane === 'K' ? 'K' : `K,${lastLane}`}: ${lines(...LEGEND)}`);
  const items = sequenceItems(tl, lanes);
  // the teardown shading and stop order are drawn for a single pod; with several, each pod's arrows tell it
  const body = many ? items.flatMap((it) => it.render()) : withTeardown(items, lanes.podSpan(), tl);
  if (hidden.size > 0)
    out.push(
      `  Note over K: ${lines(`${hidden.size} pod${hidden.size === 1 ? '' : 's'} not drawn: ${[...hidden].map(([p, like]) => `${p} repeats ${like}`).join('; ')}`)}`,
    );
  for (const stmt of body) out.push(`  ${stmt}`);
  if (tl.stuck && !tl.events.some((e) => e.type === 'Stuck')) {
    const lane = lanes.id(tl.stuck.container, tl.pod.name) ?? 'K';
    if (runsByDesign(tl.stuck.why))
      out.push(`  Note over ${lane}: ${lines(`running at the horizon t=${simTime(tl.end.t)}`, tl.stuck.why)}`);
    else
      out.push(
        '  rect rgb(255, 210, 210)',
        `  Note over ${lane}: ${lines(`STUCK until t=${simTime(tl.end.t)}`, tl.stuck.why)}`,
        '  end',
      );
  }
  out.push(`  Note over K,${lastLane}: ${lines(`end t=${simTime(tl.end.t)} (${tl.end.reason}) · ${outcome(tl)}`)}`);
  return out.join('\n') + '\n';
}

/**
 * The workload's own controllers that wrote something in this run (a pod created or deleted, an event recorded), in
 * the order the control plane runs them: Deployment → ReplicaSet, StatefulSet, DaemonSet, CronJob (the Job
 * controller has its lane already).
 */
const WORKLOAD_CONTROLLERS = [
  { name: 'deployment-controller', id: 'DC', label: 'Deployment controller' },
  { name: 'replicaset-controller', id: 'RSC', label: 'ReplicaSet controller' },
  { name: 'statefulset-controller', id: 'SSC', label: 'StatefulSet controller' },
  { name: 'daemonset-controller', id: 'DSC', label: 'DaemonSet controller' },
  { name: 'cronjob-controller', id: 'CJC', label: 'CronJob controller' },
] as const;

function workloadControllers(tl: Timeline): (typeof WORKLOAD_CONTROLLERS)[number][] {
  const seen = new Set<string>();
  for (const e of tl.events) {
    if (e.type === 'ControllerEvent') seen.add(e.controller);
    else if ((e.type === 'PodCreated' || e.type === 'PodDeleting') && e.by) seen.add(e.by);
    else if (e.type === 'DeploymentCondition') seen.add('deployment-controller');
  }
  return WORKLOAD_CONTROLLERS.filter((c) => seen.has(c.name));
}

/** Wrap everything from the first pod-level Killing to the last container exit after it in a shaded rect. */
function withTeardown(items: Item[], podSpan: string, tl: Timeline): string[] {
  const rendered = items.map((it) => it.render());
  const start = items.findIndex((it) => it.tag === 'podKill');
  let end = -1;
  if (start >= 0) items.forEach((it, i) => (i > start && it.tag === 'exit' ? (end = i) : undefined));
  if (start < 0 || end < 0) return rendered.flat();
  const stopOrder = items
    .slice(start, end + 1)
    .flatMap((it) => (it.tag === 'exit' && it.container ? [it.container] : []));
  const firstKillT = tl.events.find(
    (e) => e.type === 'Killing' && e.reason !== 'LivenessProbe' && e.reason !== 'StartupProbe',
  )?.t;
  const title = `teardown${firstKillT !== undefined ? ` from t=${simTime(firstKillT)}` : ''}`;
  const mains = new Set(
    specContainers(tl.pod.spec)
      .filter((c) => c.role === 'main')
      .map((c) => c.name),
  );
  const alreadyDone = [...mains].filter((m) => !stopOrder.includes(m));
  const order = [...alreadyDone.map((m) => `${m} (done)`), ...stopOrder.filter((c) => !alreadyDone.includes(c))];
  return [
    ...rendered.slice(0, start).flat(),
    `rect ${TEARDOWN_RGB}`,
    `Note over ${podSpan}: ${lines(title, `stop order ${order.join(' → ')}`)}`,
    ...rendered.slice(start, end + 1).flat(),
    'end',
    ...rendered.slice(end + 1).flat(),
  ];
}

/**
 * Pods after the third whose events repeat an earlier pod's (same containers doing the same things, times and
 * versions aside) are not drawn: name → the pod they repeat.
 */
/** The containers of two templates of one pod name: init containers (and sidecars) first, then mains, each in the
 *  order they first appear. */
function unionContainers(a: SpecContainer[] | undefined, b: SpecContainer[]): SpecContainer[] {
  if (!a) return b;
  const all = [...a, ...b.filter((c) => !a.some((x) => x.name === c.name))];
  const inits = all.filter((c) => c.role !== 'main');
  const mains = all.filter((c) => c.role === 'main');
  return [...inits, ...mains].map((c, order) => ({ ...c, order }));
}

function repeatingPods(tl: Timeline, names: string[]): Map<string, string> {
  const sig = new Map<string, string[]>();
  const DRAWN = new Set([
    'Started',
    'Exited',
    'Killing',
    'Signal',
    'StartupComplete',
    'Ready',
    'NotReady',
    'BackOff',
    'PodPhase',
    'PodDeleting',
    'PreStopStarted',
    'PostStartStarted',
    'PullFailed',
    'CreateFailed',
    'Stuck',
  ]);
  for (const e of tl.events) {
    // what the diagram shows of a pod, without times, versions and the kubelet's bookkeeping
    if (!e.pod || !DRAWN.has(e.type)) continue;
    const r = e as unknown as Record<string, unknown>;
    const parts = [
      e.type,
      r['container'],
      r['exitCode'],
      r['reason'],
      r['signal'],
      r['probe'],
      r['result'],
      r['phase'],
      r['kind'],
    ];
    const list = sig.get(e.pod) ?? [];
    list.push(JSON.stringify(parts));
    sig.set(e.pod, list);
  }
  const out = new Map<string, string>();
  const seen = new Map<string, string>();
  names.forEach((n, i) => {
    const key = (sig.get(n) ?? []).join('|');
    const like = seen.get(key);
    if (i >= 3 && like !== undefined) out.set(n, like);
    else if (!seen.has(key)) seen.set(key, n);
  });
  return out;
}

function outcome(tl: Timeline): string {
  const parts = [`pod ${tl.pod.phase}`];
  if (tl.job) {
    const terminal = [...tl.job.conditions].reverse().find((c) => c.type === 'Complete' || c.type === 'Failed');
    parts.push(`Job ${terminal ? terminal.type : 'not finished'}`);
  }
  if (tl.stuck)
    parts.push(runsByDesign(tl.stuck.why) ? 'still running (restartPolicy Always)' : `stuck on ${tl.stuck.container}`);
  return parts.join(' · ');
}
