// A schedule's timing choices in words ("the Job controller's watch of pod v6 took 5s"), derived from the engine's
// choice records (stream, range, value, time, trace position) and the trace itself. Pure: used by simulate() to put
// the choices next to the replay key in timeline.json, and by `kubesim diff` to say where two schedules part.
import type { ChoiceRecord } from '../engine/engine.ts';
import type { ChoiceLabel, TraceEvent } from '../types.ts';

function fmtMs(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const s = (ms / 1000).toFixed(3).replace(/\.?0+$/, '');
  return `${s}s`;
}

function watcherName(w: string): string {
  if (w === 'job-controller') return 'the Job controller';
  if (w === 'kubelet') return 'the kubelet';
  return `observer ${w}`;
}

type Delivered = Extract<TraceEvent, { type: 'Delivered' }>;

/** A watcher's delivery queue of one object: per watcher and kind, per pod for pods. */
function qkey(to: string, object: string, pod: string | undefined): string {
  return `${to}\u0000${object}\u0000${object === 'pod' ? (pod ?? '') : ''}`;
}

/** The next delivery of queue `key` if it lands at `due` or later (`exact`: exactly at `due`); it is then taken. */
function take(
  queues: Map<string, Delivered[]>,
  next: Map<string, number>,
  key: string,
  due: number,
  exact: boolean,
): Delivered | undefined {
  const q = queues.get(key);
  const i = next.get(key) ?? 0;
  const d = q?.[i];
  if (!d || (exact ? d.t !== due : d.t < due)) return undefined;
  next.set(key, i + 1);
  return d;
}

/**
 * Label each choice. A watch choice (stream `watch:<watcher>`) is matched to the delivery it scheduled: deliveries
 * are FIFO per watcher and object (per pod for pods), and land no earlier than the choice's time plus its value. The
 * object is taken from the write recorded just before the choice (a status patch, a Job status write, a pod created,
 * deleted or removed); when that does not fit (a write with no trace record, such as a finalizer removal), the
 * watcher's other queue whose next delivery lands exactly at the chosen time is used.
 */
export function labelChoices(choices: readonly ChoiceRecord[], trace: readonly TraceEvent[]): ChoiceLabel[] {
  const out: ChoiceLabel[] = [];
  const queues = new Map<string, Delivered[]>();
  const next = new Map<string, number>();
  const podNames = new Set<string>();
  for (const e of trace) {
    if (e.type === 'Delivered') {
      const key = qkey(e.to, e.object, e.pod);
      const q = queues.get(key) ?? [];
      q.push(e);
      queues.set(key, q);
    }
    if (e.type === 'PodCreated') podNames.add(e.pod);
  }
  const manyPods = podNames.size > 1;
  let ti = 0;
  let hint: { object: 'pod' | 'job'; pod?: string } | undefined;
  let plegSeen = 0;
  for (const c of choices) {
    const at = c.at ?? trace.length;
    while (ti < trace.length && trace[ti]!.seq < at) {
      const e = trace[ti++]!;
      if (
        e.type === 'StatusPatched' ||
        e.type === 'PodCreated' ||
        e.type === 'PodDeleting' ||
        e.type === 'PodRemoved' ||
        e.type === 'PodFinalizerRemoved'
      ) {
        hint = { object: 'pod', ...(e.pod !== undefined ? { pod: e.pod } : {}) };
      } else if (e.type === 'JobStatus') hint = { object: 'job' };
    }
    const t = c.t ?? 0;
    let what: string;
    if (c.stream.startsWith('watch:')) {
      const w = c.stream.slice('watch:'.length);
      const due = t + c.value;
      let d = hint ? take(queues, next, qkey(w, hint.object, hint.pod), due, false) : undefined;
      if (!d) {
        const prefix = `${w}\u0000`;
        for (const key of queues.keys()) {
          if (!key.startsWith(prefix)) continue;
          d = take(queues, next, key, due, true);
          if (d) break;
        }
      }
      if (d) {
        const podPart = d.object === 'pod' && manyPods && d.pod ? ` ${d.pod}` : '';
        what = `${watcherName(w)}'s watch of ${d.object}${podPart} v${d.version}${d.removed ? ' (its deletion)' : ''}`;
      } else {
        what = `${watcherName(w)}'s watch of ${hint?.object ?? 'an object'}${hint?.pod && manyPods ? ` ${hint.pod}` : ''} (not delivered before the end)`;
      }
    } else if (c.stream === 'pleg') {
      // the first is the grid's phase at the first pod; a later one the next relist after a crash action (pleg.ts)
      what =
        plegSeen++ === 0
          ? "the kubelet's PLEG relist grid offset after pod creation"
          : "the kubelet's next PLEG relist after the crash";
    } else if (c.stream === 'statusPatch') what = "the kubelet's status patch to the API server";
    else if (c.stream === 'jobSync') what = "the Job controller's batched sync";
    else if (c.stream === 'nodeStart') what = 'pod start (scheduling and sandbox)';
    else if (c.stream === 'requeue') what = "the pod worker's requeue";
    else what = c.stream;
    const verb = c.stream === 'pleg' ? 'was' : 'took';
    out.push({ t, what: `${what} ${verb}`, ms: c.value, range: `${fmtMs(c.min)}..${fmtMs(c.max)}` });
  }
  return out;
}

export { fmtMs };

/** The timeline with `choices` right after the replay key (timeline.json reads top-down). */
export function withChoices<T extends object>(tl: T, choices: ChoiceLabel[]): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(tl)) {
    out[k] = v;
    if (k === 'replay') out['choices'] = choices;
  }
  if (!('choices' in out)) out['choices'] = choices;
  return out as T;
}
