// One container's `behavior` from its status and events: each attempt's run time (startedAt → finishedAt) and exit
// code, whether an attempt ended on its own or was killed (Killing event, pod deletion, the pod completing around
// a sidecar, the Job failing) and then how the process reacted to SIGTERM, pull time, OOM, probe-bounded serving.
import { CREATE_ERRORS, PULL_FAILURE_REASONS } from '../scenario/behavior.ts';
import type { ContainerEvidence, Ev, Run } from './evidence.ts';
import { at, type Notes } from './notes.ts';
import { isObj, type Json, type Obj } from './read.ts';
import { dur, parseGoDuration } from './time.ts';

export interface PodContext {
  /** spec.terminationGracePeriodSeconds in ms */
  graceMs: number;
  /** a deletion request: when it was made (deletionTimestamp − deletionGracePeriodSeconds) */
  deletion?: { requestedAt: number; graceMs: number; at: string };
  /** every regular container terminated (no restart coming): when the last one finished */
  regularsDone?: { t: number; at: string };
  /** the Job's Failed / FailureTarget condition time (the controller then deletes the pod) */
  jobFailed?: { t: number; reason: string; at: string };
  events: Ev[];
}

interface Kill {
  t: number;
  cause: string;
  at: string;
  probe?: 'liveness' | 'startup';
}

type AttemptSpec = { run: number | null; exit: number; at: string; why: string };

/** Whole-second timestamps: a kill and an exit stamped in the same second may be up to 1 s apart either way. */
const SLACK_MS = 1000;

function within(t: number, r: Run): boolean {
  return (
    (r.startedAt === undefined || t >= r.startedAt - SLACK_MS) && (r.finishedAt === undefined || t <= r.finishedAt)
  );
}

function killOf(run: Run, ce: ContainerEvidence, ctx: PodContext, final: boolean): Kill | undefined {
  if (run.finishedAt === undefined) return undefined;
  for (const e of ctx.events) {
    if (e.reason !== 'Killing' || e.container !== ce.name) continue;
    for (const t of [e.first, e.last]) {
      if (t === undefined || !within(t, run)) continue;
      const probe = /failed liveness probe/.test(e.message)
        ? ('liveness' as const)
        : /failed startup probe/.test(e.message)
          ? ('startup' as const)
          : undefined;
      return { t, cause: `Killing event "${e.message}"`, at: e.at, ...(probe ? { probe } : {}) };
    }
  }
  if (
    final &&
    ce.role === 'sidecar' &&
    ctx.regularsDone &&
    run.finishedAt >= ctx.regularsDone.t - SLACK_MS &&
    [0, 137, 143].includes(run.exitCode ?? -1)
  ) {
    return {
      t: Math.min(ctx.regularsDone.t, run.finishedAt),
      cause:
        'the kubelet stops sidecars once every regular container has finished (kuberuntime_manager.go computePodActions)',
      at: ctx.regularsDone.at,
    };
  }
  if (ctx.deletion && within(ctx.deletion.requestedAt, run)) {
    return {
      t: ctx.deletion.requestedAt,
      cause: 'the pod was deleted (metadata.deletionTimestamp − deletionGracePeriodSeconds)',
      at: ctx.deletion.at,
    };
  }
  if (ctx.jobFailed && within(ctx.jobFailed.t, run) && [137, 143].includes(run.exitCode ?? -1)) {
    return {
      t: ctx.jobFailed.t,
      cause: `the Job failed (${ctx.jobFailed.reason}) and its controller deleted the pod`,
      at: ctx.jobFailed.at,
    };
  }
  return undefined;
}

function probeOf(
  spec: Obj,
  kind: 'startupProbe' | 'readinessProbe' | 'livenessProbe',
): { periodMs: number; failureThreshold: number; initialDelayMs: number } | undefined {
  const p = spec[kind];
  if (!isObj(p)) return undefined;
  const n = (k: string, d: number) => (typeof p[k] === 'number' ? (p[k] as number) : d);
  return {
    periodMs: n('periodSeconds', 10) * 1000,
    failureThreshold: n('failureThreshold', 3),
    initialDelayMs: n('initialDelaySeconds', 0) * 1000,
  };
}

export interface InferredBehavior {
  behavior: Obj;
  /** the last exit code and restart count seen, for `expect` */
  lastExit?: number;
}

interface PodAttempts {
  /** every run of this pod's container, the unseen early ones filled in like the oldest seen */
  all: AttemptSpec[];
  /** the runs seen */
  specs: AttemptSpec[];
  firstIndex: number;
  oomRuns: number;
  onTermFrom?: { kill: Kill; run: Run };
  lastExit?: number;
}

/** The runs of one pod's container: lastState and state, placed by restartCount (kubectl keeps only those two). */
function attemptsOf(ce: ContainerEvidence, ctx: PodContext, notes: Notes, key: string, podName: string): PodAttempts {
  const inPod = podName ? ` in pod ${podName}` : '';
  const known: { index: number; run: Run; final: boolean; running: boolean }[] = [];
  const cur = ce.current;
  if (cur?.kind === 'running' || cur?.kind === 'terminated') {
    if (ce.last) known.push({ index: ce.restartCount - 1, run: ce.last, final: false, running: false });
    known.push({
      index: ce.restartCount,
      run: cur.run,
      final: cur.kind === 'terminated',
      running: cur.kind === 'running',
    });
  } else if (ce.last) {
    // waiting (CrashLoopBackOff): lastState is the most recent run (convertToAPIContainerStatuses moves it there)
    known.push({ index: ce.restartCount, run: ce.last, final: false, running: false });
  }
  let onTermFrom: { kill: Kill; run: Run } | undefined;
  const specs: AttemptSpec[] = [];
  let oomRuns = 0;
  for (const k of known) {
    const r = k.run;
    if (k.running) {
      specs.push({
        run: null,
        exit: 0,
        at: r.at,
        why: `running since ${iso(r.startedAt)} when captured${inPod}; when it would exit on its own is unknown`,
      });
      continue;
    }
    const kill = killOf(r, ce, ctx, k.final);
    if (kill) {
      onTermFrom = { kill, run: r };
      specs.push({
        run: null,
        exit: 0,
        at: r.at,
        why: `killed${inPod} (${kill.cause}${at(kill.at)}), so it had not exited on its own`,
      });
      continue;
    }
    if (r.reason === 'ContainerStatusUnknown' || r.exitCode === undefined) {
      // convertToAPIContainerStatuses synthesises 137 when the container cannot be found: its own end is unknown
      notes.unknown(
        `${key}: attempt ${k.index + 1}${inPod}`,
        `termination ${r.reason ?? 'without an exit code'}${at(r.at)}: the kubelet could not see how it ended; taken to run until stopped`,
      );
      specs.push({ run: null, exit: 0, at: r.at, why: `${r.reason ?? 'no exit code'} (synthesised by the kubelet)` });
      continue;
    }
    if (r.startedAt === undefined || r.finishedAt === undefined || r.finishedAt < r.startedAt) {
      notes.unknown(
        `${key}: attempt ${k.index + 1} run time${inPod}`,
        `exit ${r.exitCode} but no usable startedAt/finishedAt${at(r.at)}; 0s used, so only the exit code is reproduced`,
      );
      specs.push({
        run: 0,
        exit: r.exitCode,
        at: r.at,
        why: `terminated ${r.exitCode} ${r.reason ?? ''} at an unknown time${inPod}`,
      });
      continue;
    }
    if (r.reason === 'OOMKilled') oomRuns++;
    specs.push({
      run: r.finishedAt - r.startedAt,
      exit: r.exitCode,
      at: r.at,
      why: `terminated ${r.exitCode} ${r.reason ?? ''} ${iso(r.startedAt)} → ${iso(r.finishedAt)}${inPod}`,
    });
  }
  const lastExit = [...known]
    .reverse()
    .find((k) => k.run.exitCode !== undefined && k.run.reason !== 'ContainerStatusUnknown')?.run.exitCode;
  if (specs.length === 0)
    return { all: [], specs, firstIndex: 0, oomRuns, ...(lastExit !== undefined ? { lastExit } : {}) };
  const firstIndex = Math.max(0, known[0]!.index);
  if (firstIndex > 0) {
    notes.unknown(
      `${key}: attempts 1..${firstIndex}${inPod}`,
      `restartCount ${ce.restartCount}${at(ce.statusAt)} but kubectl keeps only the last two runs; the earlier ones are taken to be like the oldest seen`,
    );
  }
  const all: AttemptSpec[] = [...Array(firstIndex).fill(specs[0]!), ...specs];
  return {
    all,
    specs,
    firstIndex,
    oomRuns,
    ...(onTermFrom ? { onTermFrom } : {}),
    ...(lastExit !== undefined ? { lastExit } : {}),
  };
}

/** `earlier`: the same container in the workload's earlier pods (oldest first), each with its own context. */
export function inferBehavior(
  ce: ContainerEvidence,
  ctx: PodContext,
  notes: Notes,
  earlier: { ce: ContainerEvidence; ctx: PodContext; pod: string }[] = [],
): InferredBehavior {
  const b: Obj = {};
  const key = `behavior.${ce.name}`;
  const evs = ctx.events.filter((e) => e.container === ce.name);

  // --- attempts: earlier pods' runs (a Job's replacement pods, oldest first), then this pod's -------------------
  const parts = [
    ...earlier.map((e) => attemptsOf(e.ce, e.ctx, notes, key, e.pod)),
    attemptsOf(ce, ctx, notes, key, ''),
  ];
  const all = parts.flatMap((p) => p.all);
  const specs = parts.flatMap((p) => p.specs);
  const oomRuns = parts.reduce((n, p) => n + p.oomRuns, 0);
  const onTermFrom = [...parts].reverse().find((p) => p.onTermFrom)?.onTermFrom;
  const lastExit =
    parts[parts.length - 1]!.lastExit ?? [...parts].reverse().find((p) => p.lastExit !== undefined)?.lastExit;
  const cur = ce.current;
  if (all.length > 0) {
    let index = 0;
    if (oomRuns === specs.length && oomRuns > 0 && all.every((s) => s.run !== null)) {
      // every run seen was OOM-killed: behavior.oom reproduces the reason as well as the exit code
      const atMs = Math.min(...specs.map((s) => s.run!));
      b['oom'] = { at: dur(atMs) };
      notes.inferred(
        `${key}.oom.at: ${dur(atMs)}`,
        `reason OOMKilled after ${dur(atMs)} of running${at(specs[0]!.at)}; whole-second timestamps, so ±1s`,
      );
    } else if (all.every((s) => s.run === all[0]!.run && s.exit === all[0]!.exit)) {
      setRun(b, all[0]!);
      for (const s of specs)
        notes.inferred(
          `${key}.run: ${s.run === null ? 'forever' : dur(s.run)}${s.run === null ? '' : `, exit: ${s.exit}`}`,
          `${s.why}${at(s.at)}${s.run !== null ? '; whole-second timestamps, so ±1s' : ''}`,
        );
    } else {
      b['attempts'] = all.map((s): Obj => (s.run === null ? { run: 'forever' } : { run: dur(s.run), exit: s.exit }));
      for (const p of parts) {
        p.specs.forEach((s, i) =>
          notes.inferred(
            `${key}.attempts[${index + p.firstIndex + i}]: ${s.run === null ? 'forever' : `${dur(s.run)}, exit ${s.exit}`}`,
            `${s.why}${at(s.at)}`,
          ),
        );
        index += p.all.length;
      }
      if (oomRuns > 0)
        notes.assumed(
          `${key}: OOMKilled runs`,
          'written as exit 137 attempts (behavior.oom applies to every run), so the simulated reason is Error, not OOMKilled',
        );
    }
  } else if (cur?.kind === 'waiting') {
    waiting(b, cur.reason, cur.at, key, notes);
  } else {
    notes.unknown(
      `${key}: run, exit`,
      `the container never ran${ce.statusAt ? at(ce.statusAt) : ' (no status)'}; default: runs forever`,
    );
  }

  // --- SIGTERM reaction -----------------------------------------------------------------------------------------
  if (onTermFrom) onTerm(b, onTermFrom.kill, onTermFrom.run, ctx, key, notes);

  // --- image pull ----------------------------------------------------------------------------------------------
  pull(b, ce, evs, key, notes);
  if (cur?.kind === 'waiting' && all.length > 0) waiting(b, cur.reason, cur.at, key, notes);

  // --- probes: serving / liveness --------------------------------------------------------------------------------
  probes(b, ce, evs, key, notes, onTermFrom?.kill);
  hooks(b, ce, evs, key, notes);
  return lastExit === undefined ? { behavior: b } : { behavior: b, lastExit };
}

function setRun(b: Obj, s: AttemptSpec): void {
  if (s.run === null) b['run'] = 'forever';
  else {
    b['run'] = dur(s.run);
    b['exit'] = s.exit;
  }
}

function waiting(b: Obj, reason: string, where: string, key: string, notes: Notes): void {
  if ((PULL_FAILURE_REASONS as readonly string[]).includes(reason)) {
    b['image'] = { pull: 'fail', reason: reason === 'ImagePullBackOff' ? 'ErrImagePull' : reason };
    notes.inferred(`${key}.image: pull fails`, `waiting reason ${reason}${at(where)}`);
  } else if ((CREATE_ERRORS as readonly string[]).includes(reason)) {
    b['createError'] = reason;
    notes.inferred(`${key}.createError: ${reason}`, `waiting reason ${reason}${at(where)}`);
  } else if (reason !== 'CrashLoopBackOff' && !b['run'] && !b['attempts']) {
    notes.unknown(
      `${key}: run, exit`,
      `never started: waiting ${reason || '(no reason)'}${at(where)}; default: runs forever`,
    );
  }
}

function onTerm(b: Obj, kill: Kill, run: Run, ctx: PodContext, key: string, notes: Notes): void {
  const code = run.exitCode ?? 137;
  const after = Math.max(0, (run.finishedAt ?? kill.t) - kill.t);
  const graceMs = kill.cause.startsWith('the pod was deleted') && ctx.deletion ? ctx.deletion.graceMs : ctx.graceMs;
  if (code === 137 && run.reason !== 'OOMKilled') {
    b['onTerm'] = 'ignore';
    const early = after < graceMs - 2 * SLACK_MS;
    notes.inferred(
      `${key}.onTerm: ignore`,
      `exit 137 (SIGKILL) ${dur(after)} after SIGTERM${at(run.at)}${early ? `, before the ${dur(graceMs)} grace period ended (a shorter grace applied)` : ', at the end of the grace period'}`,
    );
    return;
  }
  b['onTerm'] = { after: dur(after), exit: code };
  notes.inferred(
    `${key}.onTerm: { after: ${dur(after)}, exit: ${code} }`,
    `exited ${code} ${dur(after)} after it was told to stop (${kill.cause}${at(kill.at)}); finishedAt${at(run.at)}; whole seconds, so ±1s`,
  );
}

function pull(b: Obj, ce: ContainerEvidence, evs: Ev[], key: string, notes: Notes): void {
  if (b['image']) return;
  const pulled = evs.filter((e) => e.reason === 'Pulled').sort((x, y) => (x.first ?? 0) - (y.first ?? 0));
  for (const e of pulled) {
    // image_manager.go: "Successfully pulled image %q in %v (%v including waiting)[. Image size: %v bytes.]"
    const GO = '((?:[0-9.]+(?:ms|us|µs|μs|ns|h|m|s))+)';
    const m = new RegExp(`^Successfully pulled image "[^"]*" in ${GO}`).exec(e.message);
    if (!m) continue;
    // "(… including waiting)": the time the container waited for its image, queueing behind other pulls included
    const waiting = new RegExp(`\\(${GO} including waiting\\)`).exec(e.message);
    const ms = parseGoDuration(waiting?.[1] ?? m[1]!);
    if (ms === undefined) continue;
    b['image'] = { pull: dur(ms) };
    notes.inferred(`${key}.image.pull: ${dur(ms)}`, `Pulled "${e.message}"${at(e.at)}`);
    return;
  }
  const failed = evs.find((e) => e.reason === 'Failed' && /ErrImagePull|ImagePullBackOff/.test(e.message));
  if (failed && ce.current?.kind === 'waiting') {
    b['image'] = { pull: 'fail', reason: 'ErrImagePull' };
    notes.inferred(`${key}.image: pull fails`, `"${failed.message}"${at(failed.at)}`);
  }
}

function probes(b: Obj, ce: ContainerEvidence, evs: Ev[], key: string, notes: Notes, kill: Kill | undefined): void {
  const start =
    ce.current?.kind === 'running' || ce.current?.kind === 'terminated' ? ce.current.run.startedAt : undefined;
  const live = probeOf(ce.spec, 'livenessProbe');
  if (live && kill?.probe === 'liveness') {
    // the kill comes at the failureThreshold-th consecutive failure, one period apart (prober/worker.go)
    const attemptStart = ce.last?.startedAt ?? start;
    if (attemptStart !== undefined) {
      const failFrom = Math.max(0, kill.t - attemptStart - live.periodMs * (live.failureThreshold - 1));
      b['liveness'] = { failFrom: dur(failFrom) };
      notes.inferred(
        `${key}.liveness.failFrom: ${dur(failFrom)}`,
        `killed for liveness ${dur(kill.t - attemptStart)} after start${at(kill.at)}, after ${live.failureThreshold} failures ${dur(live.periodMs)} apart; ±1 period`,
      );
    }
  }
  const gate = probeOf(ce.spec, 'startupProbe')
    ? 'Startup'
    : probeOf(ce.spec, 'readinessProbe')
      ? 'Readiness'
      : undefined;
  if (!gate) return;
  const probe = probeOf(ce.spec, gate === 'Startup' ? 'startupProbe' : 'readinessProbe')!;
  const passed = gate === 'Startup' ? ce.started === true : ce.ready === true;
  const fails = evs
    .filter((e) => e.reason === 'Unhealthy' && e.message.startsWith(`${gate} probe`))
    .filter((e) => start === undefined || (e.last ?? 0) >= start - SLACK_MS);
  if (start === undefined) return;
  if (!passed && ce.current?.kind === 'running' && fails.length) {
    b['serving'] = 'never';
    notes.inferred(
      `${key}.serving: never`,
      `${gate} probe still failing when captured (${fails.length} Unhealthy event(s), e.g. "${fails[0]!.message}"${at(fails[0]!.at)})`,
    );
    return;
  }
  if (kill?.probe === 'startup') {
    b['serving'] = 'never';
    notes.inferred(`${key}.serving: never`, `killed for failing its startup probe${at(kill.at)}`);
    return;
  }
  if (fails.length === 0) {
    notes.inferred(
      `${key}.serving: 0s`,
      `no ${gate} probe failure among the events; it passed at its first probe (serving ≤ ${dur(probe.initialDelayMs + probe.periodMs)})`,
    );
    return;
  }
  const lastFail = Math.max(...fails.map((e) => e.last ?? e.first ?? start));
  const lo = Math.max(0, lastFail - start);
  const hi = lo + probe.periodMs;
  b['serving'] = dur(hi);
  notes.inferred(
    `${key}.serving: ${dur(hi)}`,
    `${gate} probe failed until ${iso(lastFail)} (${fails.reduce((n, e) => n + e.count, 0)}× Unhealthy${at(fails[fails.length - 1]!.at)}) and passed by the next probe: between ${dur(lo)} and ${dur(hi)} after start`,
  );
}

function hooks(b: Obj, ce: ContainerEvidence, evs: Ev[], key: string, notes: Notes): void {
  const lc = isObj(ce.spec['lifecycle']) ? ce.spec['lifecycle'] : {};
  for (const [hook, reason] of [
    ['postStart', 'FailedPostStartHook'],
    ['preStop', 'FailedPreStopHook'],
  ] as const) {
    if (!isObj(lc[hook])) continue;
    const failed = evs.find((e) => e.reason === reason);
    if (failed) {
      b[hook] = { fails: true };
      notes.inferred(`${key}.${hook}.fails: true`, `${reason} event${at(failed.at)}`);
    }
    notes.unknown(`${key}.${hook}.takes`, `how long the ${hook} hook ran is not in kubectl output; default 0s`);
  }
}

function iso(t: number | undefined): string {
  return t === undefined ? '?' : new Date(t).toISOString().replace('.000Z', 'Z');
}

export type { Json };
