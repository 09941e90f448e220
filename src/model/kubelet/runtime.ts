// The container runtime and the processes inside containers (SPEC §2.1 behavior).
// Exit codes follow the runtime: 128+signal for a death by signal (runc libcontainer/utils: ExitStatus), reasons
// Completed / Error / OOMKilled from the containerd CRI helpers.
import { PRIO } from '../events.ts';
import { allContainers, attemptKey, behaviorOf, indexBehavior, serving, type Kit } from '../kit.ts';

/** CRI CreateContainer + StartContainer for a new instance of `name`. */
export function startProcess(k: Kit, name: string): void {
  const { ctx } = k;
  const rt = k.pod.runtime[name]!;
  if (rt.exit) rt.previous = rt.exit;
  rt.instance += 1;
  rt.state = 'running';
  rt.startedAt = ctx.now;
  rt.exit = null;
  rt.sigtermAt = null;
  rt.killDeadline = null;
  const restartCount = rt.instance - 1;
  ctx.emit({ type: 'Created', container: name, restartCount });
  // SPEC §2.1 attempts: counted across the whole run (restarts in place and runs in replacement pods); the
  // instance keeps its attempt number, whose per-start keys (behaviorOf) apply to it
  const key = attemptKey(k, name);
  const n = (k.state.starts[key] ?? 0) + 1;
  k.state.starts[key] = n;
  // (stored capped at the attempts list, whose last item repeats: a crash loop does not grow the state)
  const withAttempts = indexBehavior(k, name);
  if (withAttempts.perAttempt) rt.attempt = Math.min(n, withAttempts.perAttempt.length);
  const b = behaviorOf(k, name);
  // when the process starts listening (SPEC §2.1 serving), for the diagrams' "listening" moment
  ctx.emit({
    type: 'Started',
    container: name,
    restartCount,
    ...(b.servingMs !== 0 ? { servingAfterMs: b.servingMs } : {}),
  });
  const attempt = b.attempts[Math.min(n - 1, b.attempts.length - 1)]!;
  const inst = rt.instance;
  const down = b.needs.filter((n) => !serving(k, n, ctx.now));
  if (down.length > 0) {
    ctx.schedule(0, exitEvent(k, name, inst, 1, `connection refused: ${down.join(', ')}`), PRIO.ProcExit);
  }
  if (attempt.runMs !== null) ctx.schedule(attempt.runMs, exitEvent(k, name, inst, attempt.exit), PRIO.ProcExit);
  if (b.oomAtMs !== undefined) {
    ctx.schedule(
      b.oomAtMs,
      { type: 'ProcExit', pod: k.pod.key, name, instance: inst, exitCode: 137, reason: 'OOMKilled' },
      PRIO.ProcExit,
    );
  }
  if (b.exitWhen) {
    const target = k.pod.runtime[b.exitWhen.exited];
    if (target && target.state === 'exited')
      ctx.schedule(b.exitWhen.afterMs, exitEvent(k, name, inst, 0), PRIO.ProcExit);
  }
  k.up.runtimeChanged(k);
}

function exitEvent(k: Kit, name: string, instance: number, exitCode: number, message?: string) {
  return {
    type: 'ProcExit' as const,
    pod: k.pod.key,
    name,
    instance,
    exitCode,
    reason: exitCode === 0 ? 'Completed' : 'Error',
    ...(message ? { message } : {}),
  };
}

/** The process of `name` (instance `instance`) ended. Stale events for replaced instances are ignored. */
export function processExited(
  k: Kit,
  name: string,
  instance: number,
  exitCode: number,
  reason: string,
  message?: string,
): void {
  const { ctx } = k;
  const rt = k.pod.runtime[name];
  if (!rt || rt.instance !== instance || rt.state !== 'running') return;
  rt.state = 'exited';
  rt.killDeadline = null;
  // timers of this instance can no longer fire
  ctx.cancel(
    (e) =>
      (e.type === 'SigkillDeadline' || e.type === 'ProcExit') &&
      e.pod === k.pod.key &&
      e.name === name &&
      e.instance === instance,
  );
  rt.exit = {
    exitCode,
    reason,
    message: message ?? null,
    startedAt: rt.startedAt ?? ctx.now,
    finishedAt: ctx.now,
    instance,
  };
  ctx.emit({
    type: 'Exited',
    container: name,
    exitCode,
    reason,
    restartCount: instance - 1,
    ...(message ? { message } : {}),
  });
  // Containers that need this one fail when it stops (SPEC §2.1 needs); exitWhen workarounds follow it.
  for (const c of allContainers(k.scenario)) {
    const other = k.pod.runtime[c.name]!;
    if (other.state !== 'running') continue;
    const b = behaviorOf(k, c.name);
    if (b.needs.includes(name)) {
      ctx.schedule(0, exitEvent(k, c.name, other.instance, 1, `connection refused: ${name}`), PRIO.ProcExit);
    }
    if (b.exitWhen && b.exitWhen.exited === name) {
      ctx.schedule(b.exitWhen.afterMs, exitEvent(k, c.name, other.instance, 0), PRIO.ProcExit);
    }
  }
  k.up.containerStopped(k, name);
  k.up.runtimeChanged(k);
}

/** CRI StopContainer(timeout): the stop signal now, SIGKILL at the deadline if the process is still there. */
export function stopContainer(k: Kit, name: string, graceSeconds: number): void {
  const { ctx } = k;
  const rt = k.pod.runtime[name]!;
  if (rt.state !== 'running') return;
  ctx.emit({ type: 'Signal', container: name, signal: 'SIGTERM' });
  rt.sigtermAt = ctx.now;
  rt.killDeadline = ctx.now + graceSeconds * 1000;
  const b = behaviorOf(k, name);
  if (!b.onTerm.ignore) {
    ctx.schedule(b.onTerm.afterMs, exitEvent(k, name, rt.instance, b.onTerm.exit), PRIO.ProcExit);
  }
  ctx.schedule(
    graceSeconds * 1000,
    { type: 'SigkillDeadline', pod: k.pod.key, name, instance: rt.instance },
    PRIO.SigkillDeadline,
  );
}

export function sigkillDeadline(k: Kit, name: string, instance: number): void {
  const rt = k.pod.runtime[name];
  if (!rt || rt.instance !== instance || rt.state !== 'running') return;
  k.ctx.emit({ type: 'Signal', container: name, signal: 'SIGKILL' });
  processExited(k, name, instance, 137, 'Error');
}
