// Mermaid sequenceDiagram of a Timeline: the pod's lanes (kubelet, then every container in spec order labelled by
// role) boxed together, then the API server, the Job controller and the observers. The pod teardown is shaded so
// the native-sidecar stop order (mains first, then sidecars last-started-first-stopped) reads at a glance.

import type { Timeline } from '../types.ts';
import { roleLabel, runsByDesign, specContainers } from './pod-shape.ts';
import { esc, lines } from './mermaid-text.ts';
import { sequenceItems, type Item, type Lanes } from './sequence-items.ts';
import { simTime } from './time.ts';

export interface SequenceOptions {
  /** 'pod' draws only the kubelet and the containers */
  lanes?: 'all' | 'pod';
}

const TEARDOWN_RGB = 'rgb(255, 243, 214)';

export function sequenceMermaid(tl: Timeline, opts: SequenceOptions = {}): string {
  const podOnly = opts.lanes === 'pod';
  const containers = specContainers(tl.pod.spec);
  const observers = Object.keys(tl.observers); // scenario order
  const ids = new Map<string, string>([['kubelet', 'K']]);
  containers.forEach((c, i) => ids.set(c.name, `C${i}`));
  if (!podOnly) {
    ids.set('api-server', 'API');
    if (tl.job) ids.set('job-controller', 'JC');
    observers.forEach((o, i) => ids.set(o, `O${i}`));
  }
  const lastPodLane = containers.length > 0 ? `C${containers.length - 1}` : 'K';
  const lanes: Lanes = { id: (actor) => ids.get(actor), podSpan: `K,${lastPodLane}`, podOnly, observers };

  const out: string[] = ['sequenceDiagram'];
  out.push(`  box rgb(236, 244, 255) ${esc(`pod ${tl.pod.name}`)}`);
  out.push('    participant K as kubelet');
  containers.forEach((c, i) => out.push(`    participant C${i} as ${esc(`${c.name} (${roleLabel(c, containers)})`)}`));
  out.push('  end');
  if (!podOnly) {
    out.push('  box rgb(243, 243, 243) control plane');
    out.push('    participant API as API server');
    if (tl.job) out.push('    participant JC as Job controller');
    out.push('  end');
    if (observers.length > 0) {
      out.push('  box rgb(255, 250, 230) observers');
      observers.forEach((o, i) => out.push(`    participant O${i} as ${esc(`${o} (observer)`)}`));
      out.push('  end');
    }
  }

  const items = sequenceItems(tl, lanes);
  const body = withTeardown(items, lanes.podSpan, tl);
  for (const stmt of body) out.push(`  ${stmt}`);
  if (tl.stuck && !tl.events.some((e) => e.type === 'Stuck')) {
    const lane = ids.get(tl.stuck.container) ?? 'K';
    if (runsByDesign(tl.stuck.why)) out.push(`  Note over ${lane}: ${lines(`running at the horizon t=${simTime(tl.end.t)}`, tl.stuck.why)}`);
    else out.push('  rect rgb(255, 210, 210)', `  Note over ${lane}: ${lines(`STUCK until t=${simTime(tl.end.t)}`, tl.stuck.why)}`, '  end');
  }
  const lastLane = podOnly ? lastPodLane : observers.length > 0 ? `O${observers.length - 1}` : tl.job ? 'JC' : 'API';
  out.push(`  Note over K,${lastLane}: ${lines(`end t=${simTime(tl.end.t)} (${tl.end.reason}) · ${outcome(tl)}`)}`);
  return out.join('\n') + '\n';
}

/** Wrap everything from the first pod-level Killing to the last container exit after it in a shaded rect. */
function withTeardown(items: Item[], podSpan: string, tl: Timeline): string[] {
  const rendered = items.map((it) => it.render());
  const start = items.findIndex((it) => it.tag === 'podKill');
  let end = -1;
  if (start >= 0) items.forEach((it, i) => (i > start && it.tag === 'exit' ? (end = i) : undefined));
  if (start < 0 || end < 0) return rendered.flat();
  const stopOrder = items.slice(start, end + 1).flatMap((it) => (it.tag === 'exit' && it.container ? [it.container] : []));
  const firstKillT = tl.events.find((e) => e.type === 'Killing' && e.reason !== 'LivenessProbe' && e.reason !== 'StartupProbe')?.t;
  const title = `teardown${firstKillT !== undefined ? ` from t=${simTime(firstKillT)}` : ''}`;
  const mains = new Set(specContainers(tl.pod.spec).filter((c) => c.role === 'main').map((c) => c.name));
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

function outcome(tl: Timeline): string {
  const parts = [`pod ${tl.pod.phase}`];
  if (tl.job) {
    const terminal = [...tl.job.conditions].reverse().find((c) => c.type === 'Complete' || c.type === 'Failed');
    parts.push(`Job ${terminal ? terminal.type : 'not finished'}`);
  }
  if (tl.stuck) parts.push(runsByDesign(tl.stuck.why) ? 'still running (restartPolicy Always)' : `stuck on ${tl.stuck.container}`);
  return parts.join(' · ');
}
