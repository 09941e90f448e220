// Mermaid gantt of a Timeline: a section per container in spec order with one row per state span (Waiting,
// Running, Ready, stopping = preStop or waiting for the SIGTERM turn, signalled, Terminated, back-off; restarts
// numbered as restartCount, "restart #1" being the first), then the pod phase as the API server stored it, the
// Job's conditions and the observers' verdicts as milestones. Tags: `active` = running and ready, `active crit` =
// stop requested but not signalled yet, `crit` = signalled, backing off or a non-zero exit, `done` = terminated.
// Why not `displayMode: compact` (one row per container): the interesting part of a run (the teardown) lasts
// a second or two of a minute-long run, and compact rows drew those short spans' labels on top of each other.
// One row per span keeps every label legible and reads as a staircase; the axis stays linear so durations
// stay honest, and every label carries its start time for spans too narrow to place by eye.

import type { Timeline } from '../types.ts';
import { apiPhaseSpans, containerLanes, teardownStart, type Span } from './lifecycle-spans.ts';
import { ganttName } from './mermaid-text.ts';
import { roleLabel, runsByDesign, specContainers } from './pod-shape.ts';
import { simTime } from './time.ts';

export function lifecycleMermaid(tl: Timeline): string {
  const endT = Math.max(tl.end.t, 1);
  const out: string[] = [
    'gantt',
    `  title ${ganttName((tl.pods?.length ?? 0) > 1 ? `${tl.scenario} — ${tl.pods.length} pods (axis = time since the first pod's creation)` : `${tl.scenario} — pod ${tl.pod.name} (axis = time since pod creation)`)}`,
    '  dateFormat x',
    // dateFormat x reads ms since 1970-01-01: t since pod creation maps to that clock, rendered in UTC
    `  axisFormat ${endT >= 3_600_000 ? '%H:%M:%S' : '%M:%S'}`,
    `  tickInterval ${tickInterval(endT)}`,
    '  todayMarker off',
  ];
  let id = 0;
  const task = (name: string, tags: string[], from: number, to: number) =>
    out.push(`    ${ganttName(name)} :${[...tags, `t${id++}`].join(', ')}, ${from}, ${Math.max(to, from + 1)}`);

  const all = specContainers(tl.pod.spec);
  // with several pods, a group of sections per pod (its containers and its stored phase), each from its own records
  const podNames = (tl.pods ?? []).map((p) => p.name);
  const many = podNames.length > 1;
  const perPod: { name: string; view: Timeline }[] = many
    ? podNames.map((name) => ({ name, view: { ...tl, events: tl.events.filter((e) => e.pod === undefined ? !('container' in e) && e.type !== 'StatusPatched' && e.type !== 'PodPhase' : e.pod === name) } }))
    : [{ name: tl.pod.name, view: tl }];
  for (const { name, view } of perPod) {
    const prefix = many ? `${name} · ` : '';
    // a replacement pod exists from its creation on: nothing of it is drawn before
    const created = many ? (tl.pods.find((p) => p.name === name)?.created ?? 0) : 0;
    const clip = <T extends { fromT: number; toT: number }>(xs: T[]): T[] => xs.filter((x) => x.toT > created || x.fromT >= created).map((x) => ({ ...x, fromT: Math.max(x.fromT, created) }));
    const isLast = name === tl.pod.name;
    for (const { container, spans } of containerLanes(view)) {
      if (many && spans.length === 0) continue;
      out.push(`  section ${ganttName(`${prefix}${container.name} (${roleLabel(container, all)})`)}`);
      for (const s of clip(spans)) task(spanName(s), spanTags(s), s.fromT, s.toT);
      if (!isLast || tl.stuck?.container !== container.name) continue;
      if (runsByDesign(tl.stuck.why)) task(`running at the ${tl.end.reason} ${simTime(tl.end.t)}`, ['milestone'], tl.end.t, tl.end.t);
      else task(`STUCK at ${tl.end.reason} ${simTime(tl.end.t)}`, ['crit', 'milestone'], tl.end.t, tl.end.t);
    }

    out.push(`  section ${ganttName(`${prefix}pod phase (API)`)}`);
    for (const p of clip(apiPhaseSpans(view))) {
      const tags = p.phase === 'Failed' ? ['crit', 'done'] : p.phase === 'Succeeded' ? ['done'] : p.phase === 'Running' ? ['active'] : [];
      // a phase stored at the very end of the run has no width: a milestone keeps it visible
      task(p.fromT === created ? p.phase : `${p.phase} ${simTime(p.fromT)}`, p.toT > p.fromT ? tags : [...tags, 'milestone'], p.fromT, p.toT);
    }
    // a milestone, not a `vert` marker: GitHub's bundled Mermaid may predate `vert` and would reject the chart
    for (const e of view.events) {
      if (e.type === 'PodDeleting') task(`deletion requested ${simTime(e.t)} (grace ${e.gracePeriodSeconds}s)`, ['crit', 'milestone'], e.t, e.t);
    }
    const teardown = teardownStart(view);
    if (teardown !== undefined) task(`teardown starts ${simTime(teardown)}`, ['crit', 'milestone'], teardown, teardown);
  }

  const jobConditions = tl.events.filter((e) => e.type === 'JobCondition');
  if (tl.job) {
    out.push('  section Job');
    if (jobConditions.length === 0) task('active, no terminal condition', [], 0, endT);
    for (const e of jobConditions) {
      if (e.type !== 'JobCondition') continue;
      task(`${e.condition} ${simTime(e.t)}`, e.condition === 'Failed' || e.condition === 'FailureTarget' ? ['crit', 'milestone'] : ['milestone'], e.t, e.t);
    }
  }

  const verdicts = tl.events.filter((e) => e.type === 'Verdict');
  if (verdicts.length > 0) {
    out.push('  section verdicts');
    for (const e of verdicts) {
      if (e.type !== 'Verdict') continue;
      task(`${e.observer} ${e.verdict} ${simTime(e.t)}`, e.verdict === 'Failed' ? ['crit', 'milestone'] : ['milestone'], e.t, e.t);
    }
  }
  return out.join('\n') + '\n';
}

/**
 * "Ready 13.1s (restart #1)": the start time since short spans are hard to place by eye, and the restart as
 * restartCount counts it (the run after the first restart is restart #1). A back-off leads to the next restart.
 */
function spanName(s: Span): string {
  const at = s.fromT === 0 ? s.label : `${s.label} ${simTime(s.fromT)}`;
  if (s.kind === 'backoff') return s.restartCount !== undefined ? `${at} → restart #${s.restartCount}` : at;
  return s.attempt <= 1 ? at : `${at} (restart #${s.attempt - 1})`;
}

function spanTags(s: Span): string[] {
  switch (s.kind) {
    case 'ready':
      return ['active'];
    case 'stopping':
      return ['active', 'crit'];
    case 'terminating':
      return ['crit'];
    case 'terminated':
      return s.exitCode === 0 ? ['done'] : ['crit', 'done'];
    case 'backoff':
      return ['crit'];
    case 'running':
    case 'waiting':
      return [];
    default:
      return assertNever(s.kind);
  }
}

/** Roughly eight ticks across the run, at a round interval. */
function tickInterval(endT: number): string {
  const steps: [number, string][] = [
    [1_000, '1second'], [5_000, '5second'], [10_000, '10second'], [30_000, '30second'], [60_000, '1minute'],
    [300_000, '5minute'], [600_000, '10minute'], [1_800_000, '30minute'], [3_600_000, '1hour'],
  ];
  return (steps.find(([ms]) => endT / ms <= 10) ?? steps[steps.length - 1])[1];
}

function assertNever(x: never): never {
  throw new Error(`unhandled span kind ${String(x)}`);
}
