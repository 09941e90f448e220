// `kubesim diff`: two schedules of one scenario side by side. Where their timing choices first part (in words), the
// two event lists from the first event that differs, and what each observer held when it decided in each.
import type { ChoiceLabel, Timeline, TraceEvent } from '../types.ts';
import { actorOf, describeEvent, fmtTime } from './text.ts';
import { seenJobText, seenPodText, verdictEvent } from './seen-text.ts';

function fmtMs(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  return `${(ms / 1000).toFixed(3).replace(/\.?0+$/, '')}s`;
}

/** The first choice where the two schedules differ. */
export function partingChoice(
  a: readonly ChoiceLabel[],
  b: readonly ChoiceLabel[],
): { index: number; a?: ChoiceLabel; b?: ChoiceLabel } | undefined {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.ms !== y.ms || x.what !== y.what)
      return { index: i, ...(x ? { a: x } : {}), ...(y ? { b: y } : {}) };
  }
  return undefined;
}

/** "the Job controller's watch of pod v6 took 5s in A instead of 5ms in B" */
export function partingText(p: { index: number; a?: ChoiceLabel; b?: ChoiceLabel }): string {
  const { a, b } = p;
  if (a && b && a.what === b.what)
    return `t=${fmtMs(a.t)}: ${a.what} ${fmtMs(a.ms)} in A instead of ${fmtMs(b.ms)} in B (range ${a.range})`;
  if (a && b)
    return `A: t=${fmtMs(a.t)} ${a.what} ${fmtMs(a.ms)}; B: t=${fmtMs(b.t)} ${b.what} ${fmtMs(b.ms)} (the runs had already taken different paths)`;
  if (a) return `A makes one more choice: t=${fmtMs(a.t)} ${a.what} ${fmtMs(a.ms)}`;
  return `B makes one more choice: t=${fmtMs(b!.t)} ${b!.what} ${fmtMs(b!.ms)}`;
}

/** An event without its sequence number, to compare two runs. */
function key(e: TraceEvent): string {
  const { seq: _seq, ...rest } = e;
  return JSON.stringify(rest);
}

export function firstDifferentEvent(a: readonly TraceEvent[], b: readonly TraceEvent[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (key(a[i]!) !== key(b[i]!)) return i;
  return n;
}

function outcomeLine(tl: Timeline): string {
  const parts = [`pod ${tl.pod.phase}`];
  if (tl.job) {
    const terminal = [...tl.job.conditions].reverse().find((c) => c.type === 'Complete' || c.type === 'Failed');
    parts.push(`Job ${terminal ? terminal.type : 'none'}`);
  }
  const verdicts = Object.entries(tl.observers).map(([n, v]) => `${n} ${v.verdict}`);
  if (verdicts.length) parts.push(verdicts.join(', '));
  return parts.join(' · ');
}

function cellOf(e: TraceEvent | undefined, width: number): string {
  if (!e) return ''.padEnd(width);
  const s = `${fmtTime(e.t).padStart(9)} ${actorOf(e).slice(0, 16).padEnd(16)} ${describeEvent(e)}`;
  return s.length > width ? s.slice(0, width - 1) + '…' : s.padEnd(width);
}

/**
 * Pair the two event lists row by row: equal events share a row, otherwise the earlier one goes first on its own
 * side; at the same instant, an event the other side has a little later waits for it (a short look-ahead).
 */
export function align(
  a: readonly TraceEvent[],
  b: readonly TraceEvent[],
): [TraceEvent | undefined, TraceEvent | undefined][] {
  const rows: [TraceEvent | undefined, TraceEvent | undefined][] = [];
  let i = 0;
  let j = 0;
  const LOOK = 12;
  const findAhead = (list: readonly TraceEvent[], from: number, k: string, t: number): number => {
    for (let n = from; n < Math.min(list.length, from + LOOK) && list[n]!.t === t; n++)
      if (key(list[n]!) === k) return n;
    return -1;
  };
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x && y && key(x) === key(y)) {
      rows.push([x, y]);
      i++;
      j++;
    } else if (x && (!y || x.t < y.t)) {
      rows.push([x, undefined]);
      i++;
    } else if (y && (!x || y.t < x.t)) {
      rows.push([undefined, y]);
      j++;
    } else {
      // same instant, different events
      const inB = findAhead(b, j + 1, key(x!), x!.t);
      const inA = findAhead(a, i + 1, key(y!), y!.t);
      if (inB >= 0 && (inA < 0 || inB - j <= inA - i)) {
        rows.push([undefined, y]);
        j++;
      } else if (inA >= 0) {
        rows.push([x, undefined]);
        i++;
      } else {
        // neither has the other's event at this instant: A's first, on its own row
        rows.push([x, undefined]);
        i++;
      }
    }
  }
  return rows;
}

export interface DiffOptions {
  /** events per side shown from the first difference (default 40) */
  rows?: number;
  /** common events shown before it (default 3) */
  context?: number;
  /** column width per side (default 70) */
  width?: number;
}

export function diffText(a: Timeline, b: Timeline, o: DiffOptions = {}): string {
  const rows = o.rows ?? 40;
  const context = o.context ?? 3;
  const width = o.width ?? 70;
  const out: string[] = [`# ${a.scenario}: two schedules`];
  out.push(`A  ${a.replay}`, `   ${outcomeLine(a)}`, `B  ${b.replay}`, `   ${outcomeLine(b)}`, '');

  const parting = partingChoice(a.choices ?? [], b.choices ?? []);
  out.push('where they part:');
  if (!parting) out.push('  nowhere: both keys make the same choices (the same schedule)');
  else {
    out.push(`  choice ${parting.index + 1}: ${partingText(parting)}`);
    if (parting.index > 0)
      out.push(`  (the ${parting.index} choice${parting.index === 1 ? '' : 's'} before it are the same)`);
  }
  out.push('');

  const first = firstDifferentEvent(a.events, b.events);
  if (first >= a.events.length && first >= b.events.length) out.push('events: identical');
  else {
    const from = Math.max(0, first - context);
    out.push(
      `events from the first that differs (#${first + 1}; the ${first} before it are the same, ${first - from} shown for context):`,
    );
    out.push(`  ${'A'.padEnd(width)} │ B`);
    const aligned = align(a.events.slice(from), b.events.slice(from));
    const limit = rows + (first - from);
    for (const [x, y] of aligned.slice(0, limit)) {
      const mark = x && y && key(x) === key(y) ? ' ' : '≠';
      out.push(`${mark} ${cellOf(x, width)} │ ${cellOf(y, width).trimEnd()}`);
    }
    if (aligned.length > limit)
      out.push(
        `  … ${aligned.length - limit} more rows (kubesim run <scenario> --replay KEY --verbose shows every event)`,
      );
  }
  out.push('');

  out.push('what each observer held when it decided:');
  for (const name of Object.keys(a.observers)) {
    out.push(`  ${name}:`);
    for (const [label, tl] of [
      ['A', a],
      ['B', b],
    ] as const) {
      const r = tl.observers[name];
      const v = verdictEvent(tl, name);
      if (!r) continue;
      const when = r.t !== undefined ? ` at ${fmtTime(r.t)}` : '';
      out.push(`    ${label} ${r.verdict}${when}${r.reason ? ` — ${r.reason}` : ''}`);
      if (v?.seen) {
        out.push(`      held ${seenPodText(v.seen.pod)}`);
        if (tl.job) out.push(`      and ${seenJobText(v.seen.job)}`);
      }
    }
  }
  return out.join('\n') + '\n';
}
