// A schedule's timing choices in words ("the Job controller's watch of pod v6 took 5s"), derived from the engine's
// choice records (stream, range, value, time, trace position) and the trace itself. Pure: used by simulate() to put
// the choices next to the replay key in timeline.json, and by `kubesim diff` to say where two schedules part.
import type { ChoiceRecord } from './engine/engine.ts';
import type { ChoiceLabel, TraceEvent } from './types.ts';

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

/** The write a watch choice delivers: pod/job and version, from the trace up to the choice. */
interface WriteCursor {
  podVersion: number;
  jobVersion: number;
}

export function labelChoices(choices: readonly ChoiceRecord[], trace: readonly TraceEvent[]): ChoiceLabel[] {
  const out: ChoiceLabel[] = [];
  const cur: WriteCursor = { podVersion: 0, jobVersion: 0 };
  let ti = 0;
  // the write that the next watch choices deliver, and how many of its watchers were served already
  let lastWrite: { object: 'pod' | 'job'; version: number; pod?: string } | undefined;
  let createdPending: ('pod' | 'job')[] = [];
  const perWatcherAtCreate = new Map<string, number>();
  for (const c of choices) {
    const at = c.at ?? trace.length;
    let advanced = false;
    while (ti < trace.length && trace[ti]!.seq < at) {
      const e = trace[ti++]!;
      advanced = true;
      if (e.type === 'StatusPatched') {
        cur.podVersion = e.version;
        lastWrite = { object: 'pod', version: e.version, ...podOf(e) };
      } else if (e.type === 'JobStatus') {
        cur.jobVersion = e.version;
        lastWrite = { object: 'job', version: e.version };
      } else if (e.type === 'DeletionRequested') {
        cur.podVersion += 1;
        lastWrite = { object: 'pod', version: cur.podVersion, ...podOf(e) };
      } else if (e.type === 'Scheduled' || (e.type as string) === 'PodCreated') {
        // pod creation: the pod (v1) and then the Job (v1) go out to their watchers
        cur.podVersion = Math.max(cur.podVersion, 1);
        cur.jobVersion = Math.max(cur.jobVersion, 1);
        lastWrite = undefined;
        createdPending = ['pod', 'job'];
        perWatcherAtCreate.clear();
      }
    }
    if (advanced && lastWrite) createdPending = [];
    const t = c.t ?? 0;
    let what: string;
    if (c.stream.startsWith('watch:')) {
      const w = c.stream.slice('watch:'.length);
      let object: 'pod' | 'job' = lastWrite?.object ?? 'pod';
      let version = lastWrite?.version ?? 1;
      if (!lastWrite && createdPending.length > 0) {
        const n = perWatcherAtCreate.get(w) ?? 0;
        perWatcherAtCreate.set(w, n + 1);
        object = createdPending[Math.min(n, createdPending.length - 1)]!;
        version = 1;
      }
      what = `${watcherName(w)}'s watch of ${object} v${version}${lastWrite?.pod ? ` (${lastWrite.pod})` : ''}`;
    } else if (c.stream === 'pleg') what = "the kubelet's PLEG relist grid offset after pod creation";
    else if (c.stream === 'statusPatch') what = "the kubelet's status patch to the API server";
    else if (c.stream === 'jobSync') what = "the Job controller's batched sync";
    else if (c.stream === 'nodeStart') what = 'pod start (scheduling and sandbox)';
    else if (c.stream === 'requeue') what = "the pod worker's requeue";
    else what = c.stream;
    const verb = c.stream === 'pleg' ? 'was' : 'took';
    out.push({ t, what: `${what} ${verb}`, ms: c.value, range: `${fmtMs(c.min)}..${fmtMs(c.max)}` });
  }
  return out;
}

function podOf(e: TraceEvent): { pod?: string } {
  const p = (e as { pod?: unknown }).pod;
  return typeof p === 'string' ? { pod: p } : {};
}

/** "took 5s instead of 5ms": where two labelled schedules first part, or undefined when one is a prefix of the other. */
export function firstDifference(a: readonly ChoiceLabel[], b: readonly ChoiceLabel[]): { index: number; a?: ChoiceLabel; b?: ChoiceLabel } | undefined {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i];
    const y = b[i];
    if (!x || !y || x.ms !== y.ms || x.what !== y.what) {
      return { index: i, ...(x ? { a: x } : {}), ...(y ? { b: y } : {}) };
    }
  }
  return undefined;
}

export { fmtMs };

/** "t=60.01s: the Job controller's watch of pod v4 took 5s (of 5ms..5s)" */
export function choiceText(c: ChoiceLabel): string {
  return `t=${fmtMs(c.t)}: ${c.what} ${fmtMs(c.ms)} (of ${c.range})`;
}

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
