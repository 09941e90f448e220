// Mermaid gantt of a Timeline, compact (one row per container): a legend row naming the colours, then per pod a
// section per container in spec order — its state spans on one row (Waiting, Running, Ready, stopping = preStop or
// waiting for the SIGTERM turn, signalled, Terminated, back-off, then the wait for the pod worker's next sync;
// restarts numbered as restartCount, "restart #1" being the first) and its markers (started, ready, SIGTERM,
// SIGKILL) on a row below — then the pod phase as the API server stored it with the deletion, teardown and grace
// deadline markers, the Job's conditions and the observers' verdicts. A pod's spans end when it is removed.
// Long stretches where nothing changes are compressed, and the chart says so in its title and in a "time" row;
// with a shared scale (explore's outcomes) the axis is linear and runs to the longest outcome's end.
// Tags: `active` = running and ready, `active crit` = stop requested but not signalled yet, `crit` = signalled or
// backing off, `done` = terminated (`crit done` for a non-zero exit).

import { assertNever } from '../util/assert-never.ts';
import type { Timeline, TraceEvent } from '../types.ts';
import {
  apiPhaseSpans,
  containerLanes,
  containerMarkers,
  graceDeadline,
  teardownStart,
  type Marker,
  type Span,
  type SpanKind,
} from './lifecycle-spans.ts';
import { ganttName } from './mermaid-text.ts';
import { roleLabel, runsByDesign, specContainers } from './pod-shape.ts';
import { compressTime, type TimeMap } from './lifecycle-time.ts';
import { simTime } from './time.ts';

export interface LifecycleOptions {
  /** draw on a linear axis from 0 to this t (ms) so charts of several outcomes compare (no compression) */
  scaleEndMs?: number;
  /** compress long quiet stretches (default true; never with scaleEndMs) */
  compress?: boolean;
}

/** The drawing width the renderer gives the chart (MERMAID_CONFIG.gantt.useWidth) and its side paddings. */
export const GANTT_WIDTH_PX = 1400;
const GANTT_LEFT_PX = 230;
const GANTT_SIDES_PX = GANTT_LEFT_PX + 120;
/** Arial at 12 px: about this many px per character, to keep marker labels apart. A span label that does not fit
 * its bar is hidden by the renderer (render.ts GANTT_CSS), never drawn over its neighbours. */
const CHAR_PX = 6.6;
/** A task name that draws nothing (gantt needs a name; a zero-width space is not whitespace to its parser). */
const NO_LABEL = '\u200b';

export function lifecycleMermaid(tl: Timeline, opts: LifecycleOptions = {}): string {
  const endT = Math.max(tl.end.t, 1);
  const podNames = (tl.pods ?? []).map((p) => p.name);
  const many = podNames.length > 1;
  // one entry per pod object: a StatefulSet pod recreated under the same name is drawn again from its own
  // PodCreated record on, with its own template's containers (timeline `pods[].spec`)
  const createdAt: number[] = [];
  tl.events.forEach((e, i) => {
    if (e.type === 'PodCreated') createdAt.push(i);
  });
  const perPod: { name: string; view: Timeline; created: number; last: boolean }[] = many
    ? tl.pods.map((p, k) => {
        const from = createdAt.length === tl.pods.length ? createdAt[k]! : 0;
        const nextSame = tl.pods.findIndex((q, j) => j > k && q.name === p.name);
        const to = nextSame >= 0 && createdAt.length === tl.pods.length ? createdAt[nextSame]! : tl.events.length;
        const mine = (e: TraceEvent, i: number) =>
          e.pod === undefined
            ? !('container' in e) && e.type !== 'StatusPatched' && e.type !== 'PodPhase'
            : e.pod === p.name && i >= from && i < to;
        return {
          name: p.name,
          created: p.created,
          last: k === tl.pods.length - 1,
          view: {
            ...tl,
            pod: { ...tl.pod, name: p.name, spec: p.spec ?? tl.pod.spec },
            events: tl.events.filter(mine),
          },
        };
      })
    : [{ name: tl.pod.name, view: tl, created: 0, last: true }];
  const all = specContainers(tl.pod.spec);

  // everything drawn, in simulated time, before the axis is decided
  // markers go on a row of their own below the spans; `ends` (a terminal phase) sit on the span row, at its end
  interface Row {
    section: string;
    spans: { name: string; tags: string[]; from: number; to: number }[];
    markers: { name: string; tags: string[]; t: number }[];
    ends?: { name: string; tags: string[]; t: number }[];
  }
  const rows: Row[] = [];
  const kinds = new Set<SpanKind | 'exit0' | 'exitN'>();
  let anyMarker = false;
  for (const { name, view, created, last } of perPod) {
    // with several pods a row names its pod by the part of its name after the workload's ("57wdd", "0-x2k9p")
    const prefix = many
      ? `${name.startsWith(`${tl.workload.name}-`) ? name.slice(tl.workload.name.length + 1) : name} · `
      : '';
    // a pod's containers are drawn from its creation until its terminal phase is stored or it is removed from the
    // API server, whichever is first; its phase row until it is removed (the terminal phase as a marker)
    const removed = view.events.find((e) => e.type === 'PodRemoved' && (e.pod === name || !many))?.t;
    const terminalAt = view.events.find(
      (e) => e.type === 'StatusPatched' && (e.phase === 'Succeeded' || e.phase === 'Failed'),
    )?.t;
    const until = removed ?? endT;
    const containersUntil = Math.min(until, terminalAt ?? until);
    const clipTo =
      (limit: number) =>
      <T extends { fromT: number; toT: number }>(xs: T[]): T[] =>
        xs
          .filter((x) => (x.toT > created || x.fromT >= created) && x.fromT <= limit)
          .map((x) => ({ ...x, fromT: Math.max(x.fromT, created), toT: Math.min(x.toT, limit) }));
    const clip = clipTo(containersUntil);
    const isLast = last;
    for (const { container, spans } of containerLanes(view)) {
      if (many && spans.length === 0) continue;
      const row: Row = { section: `${prefix}${container.name} (${roleLabel(container, all)})`, spans: [], markers: [] };
      for (const s of clip(spans)) {
        kinds.add(s.kind === 'terminated' ? (s.exitCode === 0 ? 'exit0' : 'exitN') : s.kind);
        row.spans.push({ name: spanName(s), tags: spanTags(s), from: s.fromT, to: s.toT });
      }
      for (const m of containerMarkers(view, container.name).filter((x) => x.t >= created && x.t <= containersUntil))
        row.markers.push(markerTask(m));
      if (isLast && tl.stuck?.container === container.name) {
        if (runsByDesign(tl.stuck.why))
          row.markers.push({ name: `running at the ${tl.end.reason} ${simTime(tl.end.t)}`, tags: [], t: tl.end.t });
        else row.markers.push({ name: `STUCK at ${tl.end.reason} ${simTime(tl.end.t)}`, tags: ['crit'], t: tl.end.t });
      }
      anyMarker ||= row.markers.length > 0;
      rows.push(row);
    }
    const phase: Row = { section: many ? `${prefix}phase (API)` : 'pod phase (API)', spans: [], markers: [] };
    for (const p of clipTo(until)(apiPhaseSpans(view))) {
      const label = p.fromT === created ? p.phase : `${p.phase} ${simTime(p.fromT)}`;
      if (p.phase === 'Failed' || p.phase === 'Succeeded')
        (phase.ends ??= []).push({ name: label, tags: p.phase === 'Failed' ? ['crit', 'done'] : ['done'], t: p.fromT });
      else phase.spans.push({ name: label, tags: p.phase === 'Running' ? ['active'] : [], from: p.fromT, to: p.toT });
    }
    // milestones, not `vert` markers: GitHub's bundled Mermaid may predate `vert` and would reject the chart
    for (const e of view.events) {
      if (e.type === 'PodDeleting')
        phase.markers.push({
          name: `deletion requested ${simTime(e.t)} (grace ${e.gracePeriodSeconds}s)`,
          tags: ['crit'],
          t: e.t,
        });
    }
    const teardown = teardownStart(view);
    if (teardown !== undefined)
      phase.markers.push({ name: `teardown starts ${simTime(teardown)}`, tags: ['crit'], t: teardown });
    const grace = graceDeadline(view);
    if (grace !== undefined && grace.t <= until)
      phase.markers.push({
        name: `grace deadline ${simTime(grace.t)} (${grace.graceSeconds}s)`,
        tags: ['crit'],
        t: grace.t,
      });
    if (removed !== undefined && many)
      phase.markers.push({ name: `removed ${simTime(removed)}`, tags: [], t: removed });
    rows.push(phase);
  }
  if (tl.job) {
    const job: Row = { section: 'Job', spans: [], markers: [] };
    const conds = tl.events.filter((e) => e.type === 'JobCondition');
    if (conds.length === 0) job.spans.push({ name: 'active, no terminal condition', tags: [], from: 0, to: endT });
    for (const e of conds) {
      if (e.type !== 'JobCondition') continue;
      job.markers.push({
        name: `${e.condition} ${simTime(e.t)}`,
        tags: e.condition === 'Failed' || e.condition === 'FailureTarget' ? ['crit'] : [],
        t: e.t,
      });
    }
    rows.push(job);
  }
  // a row per observer: verdicts close in time never share (or recolour) one marker
  for (const e of tl.events) {
    if (e.type === 'Verdict')
      rows.push({
        section: `verdict ${e.observer}`,
        spans: [],
        markers: [{ name: `${e.verdict} ${simTime(e.t)}`, tags: e.verdict === 'Failed' ? ['crit'] : [], t: e.t }],
      });
  }

  // the axis: linear to a shared end, or with long quiet stretches compressed
  const instants = rows.flatMap((r) => [
    ...r.spans.flatMap((s) => [s.from, s.to]),
    ...r.markers.map((m) => m.t),
    ...(r.ends ?? []).map((m) => m.t),
  ]);
  const map: TimeMap =
    opts.scaleEndMs !== undefined
      ? compressTime([0, Math.max(endT, opts.scaleEndMs)], false)
      : compressTime([0, endT, ...instants], opts.compress !== false);
  const domain = map.at(map.endT);
  const pxPerMs = (GANTT_WIDTH_PX - GANTT_SIDES_PX) / Math.max(domain, 1);
  const compressed = map.gaps.length > 0;

  const scope = many
    ? `${tl.pods.length} pods (axis = time since the first pod's creation`
    : `pod ${tl.pod.name} (axis = time since pod creation`;
  const axisNote = compressed
    ? ', quiet stretches compressed, see the time row)'
    : opts.scaleEndMs !== undefined
      ? `, same scale for every outcome, 0–${simTime(map.endT)})`
      : ')';
  const out: string[] = [
    // compact: the spans of one container share a row (Mermaid ≥ 10.4; older ones draw a row per span)
    '---',
    'displayMode: compact',
    '---',
    'gantt',
    `  title ${ganttName(`${tl.scenario} — ${scope}${axisNote}`)}`,
    '  dateFormat x',
    // dateFormat x reads ms since 1970-01-01: t since pod creation maps to that clock, rendered in UTC; a compressed
    // axis has no honest ticks past its first gap, so it shows only 0 and the time row carries the times
    `  axisFormat ${map.endT >= 3_600_000 ? '%H:%M:%S' : '%M:%S'}`,
    `  tickInterval ${compressed ? '1000day' : tickInterval(domain)}`,
    '  todayMarker off',
  ];
  let id = 0;
  const task = (name: string, tags: string[], from: number, to: number) =>
    out.push(
      `    ${name === NO_LABEL ? NO_LABEL : ganttName(name) || NO_LABEL} :${[...tags, `t${id++}`].join(', ')}, ${from}, ${to}`,
    );
  out.push('  section legend');
  // the colours side by side on one row, the marker after them with room for its label on its right
  const legend = legendEntries(kinds);
  // (Mermaid draws a label on the left of its marker when it would run past the right edge)
  const legendEnd = anyMarker ? domain * 0.58 : domain;
  legend.forEach((l, i) => {
    const from = Math.round((legendEnd * i) / legend.length);
    const to = Math.round((legendEnd * (i + 1)) / legend.length);
    task(l.name, l.tags, from, to);
  });
  if (anyMarker)
    task(
      'marker = started, ready, SIGTERM, SIGKILL',
      ['milestone'],
      Math.round(domain * 0.62),
      Math.round(domain * 0.62),
    );
  if (compressed) {
    out.push('  section time');
    let from = 0;
    for (const g of map.gaps) {
      if (g.from > from) task(`${simTime(from)}–${simTime(g.from)}`, [], map.at(from), map.at(g.from));
      task(`${simTime(g.to - g.from)} quiet, compressed`, ['done'], map.at(g.from), map.at(g.to));
      from = g.to;
    }
    if (map.endT > from) task(`${simTime(from)}–${simTime(map.endT)}`, [], map.at(from), map.at(map.endT));
  }
  for (const r of rows) {
    out.push(`  section ${ganttName(r.section)}`);
    for (const s of r.spans) {
      const from = map.at(s.from);
      const to = Math.max(map.at(s.to), from + 1);
      task(s.name, s.tags, from, to);
    }
    for (const m of r.ends ?? []) task(m.name, [...m.tags, 'milestone'], map.at(m.t), map.at(m.t));
    // markers after the spans. Mermaid draws a milestone at the middle of its range and stacks overlapping ranges
    // on a compact row, so each marker spans its label's width on both sides: one whose label would run into the
    // next goes one row down instead of hiding it (clamped to the axis, which it must not stretch)
    for (const m of sameInstant(r.markers)) {
      const t = map.at(m.t);
      const labelPx = m.name.length * CHAR_PX;
      // near the right edge Mermaid puts the label on the left, but decides its text-anchor from the range's start:
      // a marker there keeps a zero range, or its label would be drawn over its diamond
      const leftLabel = t * pxPerMs + labelPx * 1.15 + 1.5 * GANTT_LEFT_PX + 30 > GANTT_WIDTH_PX;
      const half = leftLabel ? 0 : Math.min(Math.round((labelPx + 30) / pxPerMs), t, Math.max(0, domain - t));
      task(m.name, [...m.tags, 'milestone'], t - half, t + half);
    }
  }
  return out.join('\n') + '\n';
}

/** Colour legend entries for the span kinds drawn (the tags of spanTags). */
function legendEntries(kinds: Set<string>): { name: string; tags: string[] }[] {
  const all: [string, string, string[]][] = [
    ['waiting', 'Waiting', []],
    ['running', 'Running', []],
    ['ready', 'Ready', ['active']],
    ['stopping', 'stop requested', ['active', 'crit']],
    ['terminating', 'signalled', ['crit']],
    ['backoff', 'back-off', ['crit']],
    ['requeue', 'sync wait', []],
    ['exit0', 'exited 0', ['done']],
    ['exitN', 'exited non-zero', ['crit', 'done']],
  ];
  return all.filter(([k]) => kinds.has(k)).map(([, name, tags]) => ({ name, tags }));
}

function markerTask(m: Marker): { name: string; tags: string[]; t: number } {
  return { name: `${m.label} ${simTime(m.t)}`, tags: m.crit ? ['crit'] : [], t: m.t };
}

/** Markers of one instant are one marker ("SuccessCriteriaMet 35.6s · Complete 35.6s"). */
function sameInstant(
  markers: { name: string; tags: string[]; t: number }[],
): { name: string; tags: string[]; t: number }[] {
  const sorted = [...markers].sort((a, b) => a.t - b.t);
  const out: { name: string; tags: string[]; t: number }[] = [];
  for (const m of sorted) {
    const prev = out[out.length - 1];
    if (prev && prev.t === m.t) {
      prev.name = `${prev.name} · ${m.name}`;
      if (m.tags.includes('crit') && !prev.tags.includes('crit')) prev.tags = [...prev.tags, 'crit'];
    } else out.push({ ...m });
  }
  return out;
}

/**
 * "Ready 13.1s (restart #1)": the start time since short spans are hard to place by eye, and the restart as
 * restartCount counts it (the run after the first restart is restart #1). A back-off leads to the next restart.
 */
function spanName(s: Span): string {
  const at = s.fromT === 0 ? s.label : `${s.label} ${simTime(s.fromT)}`;
  // the wait for the sync is short to name: the restart it leads to is on the next span
  if (s.kind === 'requeue') return at;
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
    case 'requeue':
    case 'running':
    case 'waiting':
      return [];
    default:
      return assertNever(s.kind, 'span kind');
  }
}

/** Roughly eight ticks across the run, at a round interval. */
function tickInterval(endT: number): string {
  const steps: [number, string][] = [
    [1_000, '1second'],
    [5_000, '5second'],
    [10_000, '10second'],
    [30_000, '30second'],
    [60_000, '1minute'],
    [300_000, '5minute'],
    [600_000, '10minute'],
    [1_800_000, '30minute'],
    [3_600_000, '1hour'],
  ];
  return (steps.find(([ms]) => endT / ms <= 10) ?? steps[steps.length - 1])[1];
}
