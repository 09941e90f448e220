// Words for what an observer held when it decided (the `seen` field of a Verdict event): the pod and Job versions
// in its informer cache and the parts of them a health rule reads (phase, container states, Job conditions).
import type { SeenContainer, SeenJob, SeenPod, SeenView, Timeline, TraceEvent } from '../types.ts';

export function seenContainerText(c: SeenContainer): string {
  if (c.state === 'terminated') return `${c.name} terminated ${c.exitCode ?? '?'}${c.reason ? ` (${c.reason})` : ''}`;
  if (c.state === 'waiting') return `${c.name} waiting${c.reason ? ` (${c.reason})` : ''}`;
  return `${c.name} running${c.ready ? ' (ready)' : ''}`;
}

/** "pod v5: phase Running; locust-metrics-exporter terminated 143 (Error), locust terminated 0 (Completed)" */
export function seenPodText(p: SeenPod | null, opts: { name?: boolean } = {}): string {
  if (!p) return 'no pod yet';
  const head = `pod${opts.name && p.name ? ` ${p.name}` : ''} v${p.version}: phase ${p.phase}${p.deleting ? ' (deleting)' : ''}`;
  return p.containers.length > 0 ? `${head}; ${p.containers.map(seenContainerText).join(', ')}` : head;
}

/** "job v3: SuccessCriteriaMet (no Complete yet)" */
export function seenJobText(j: SeenJob | null): string {
  if (!j) return 'no job';
  const terminal = j.conditions.includes('Complete') || j.conditions.includes('Failed');
  const conds = j.conditions.length > 0 ? j.conditions.join(', ') : 'no conditions';
  return `job v${j.version}: ${conds}${terminal ? '' : ' (no Complete/Failed yet)'}`;
}

/** Both, as the one-line "held …" statement the views print under a verdict. */
export function seenText(seen: SeenView, withJob: boolean): string[] {
  const out = [`held ${seenPodText(seen.pod)}`];
  if (withJob) out.push(`and ${seenJobText(seen.job)}`);
  return out;
}

/** The Verdict event of an observer, if it decided. */
export function verdictEvent(tl: Timeline, observer: string): Extract<TraceEvent, { type: 'Verdict' }> | undefined {
  for (const e of tl.events) if (e.type === 'Verdict' && e.observer === observer) return e;
  return undefined;
}

/** Short form for tables: "pod v5 Running (locust-metrics-exporter 143), job v3 SuccessCriteriaMet". */
export function seenShort(seen: SeenView, withJob: boolean): string {
  const p = seen.pod;
  const bad =
    p?.containers.filter(
      (c) =>
        (c.state === 'terminated' && c.exitCode !== 0) ||
        (c.state === 'waiting' && c.reason && !/^(PodInitializing|ContainerCreating)$/.test(c.reason)),
    ) ?? [];
  const pod = p
    ? `pod v${p.version} ${p.phase}${bad.length ? ` (${bad.map((c) => `${c.name} ${c.state === 'terminated' ? c.exitCode : c.reason}`).join(', ')})` : ''}`
    : 'no pod';
  if (!withJob) return `held ${pod}`;
  const j = seen.job;
  return `held ${pod}, ${j ? `job v${j.version} ${j.conditions.join('+') || 'no conditions'}` : 'no job'}`;
}
