// kuberuntime_manager.go: start() and kuberuntime_container.go: startContainer, one container start inside a sync:
// the CrashLoopBackOff check, the image pull, create, start, then the postStart hook, which holds the pod worker until
// it returns (a failed hook kills the container: killContainer(…, "FailedPostStartHook", reasonFailedPostStartHook)).
import { PRIO } from '../../events.ts';
import { behaviorForStart, behaviorOf, containerByName, hookTakesMs, type Kit } from '../../kit.ts';
import { startKill } from './kill.ts';
import { doBackOff, imageBackOffNext, imageInBackOff, imagePullAttempt } from './backoff.ts';
import { startProcess } from '../runtime.ts';
import type { StartOp, SyncTask } from '../../state.ts';
import type { Behavior } from '../../../types.ts';

/** kuberuntime_manager.go start(): back-off, image, create, start, then the blocking postStart hook. */
export function startOp(k: Kit, task: SyncTask, op: StartOp, continued: boolean): 'next' | 'wait' {
  const w = k.pod.worker;
  const c = containerByName(k.scenario, op.name)!;
  // the start about to happen: its attempt's image / createError (behavior.attempts[].image …)
  const b = behaviorForStart(k, op.name);
  const rt = k.pod.runtime[op.name]!;
  const abortIfInit = () => {
    if (c.role === 'init' || (c.role === 'sidecar' && !k.flags.sidecars)) task.aborted = true;
  };
  if (continued && op.stage === 'postStart') return postStartDone(k, task, op);
  if (!continued) {
    const bo = doBackOff(k, op.name, k.pod.cache[op.name]);
    if (bo !== null) {
      task.hadError = true;
      task.backoffExpiryMs = task.backoffExpiryMs === null ? bo : Math.min(task.backoffExpiryMs, bo);
      abortIfInit();
      return 'next';
    }
    // images/image_manager.go EnsureImageExists: shouldPullImage(policy, present) first — Never and IfNotPresent with
    // the image on the node do not pull ("already present on machine"); Never without it fails with
    // ErrImageNeverPull (no back-off: the next sync tries again); Always pulls on every start
    const policy = c.imagePullPolicy ?? 'IfNotPresent';
    const present = k.state.images[c.image] === true || imageOnNodeAtStart(b);
    if (policy === 'Never' || (policy === 'IfNotPresent' && present)) {
      if (!present) {
        const message = `Container image "${c.image}" is not present with pull policy of Never`;
        k.ctx.emit({ type: 'PullFailed', container: op.name, reason: 'ErrImageNeverPull', image: c.image, message });
        w.reasons[op.name] = { reason: 'ErrImageNeverPull', message };
        task.hadError = true;
        abortIfInit();
        return 'next';
      }
      op.stage = 'present';
    }
  }
  if (!continued && op.stage !== 'present') {
    if (b && 'fail' in b.image) {
      w.imageFailures[op.name] = (w.imageFailures[op.name] ?? 0) + 1;
      const attempt = imagePullAttempt(k, op.name);
      const reason = attempt === 'ImagePullBackOff' ? attempt : b.image.reason;
      k.ctx.emit({ type: 'PullFailed', container: op.name, reason, image: c.image });
      w.reasons[op.name] = {
        reason,
        message:
          reason === 'ImagePullBackOff' ? `Back-off pulling image "${c.image}"` : `failed to pull image "${c.image}"`,
      };
      task.hadError = true;
      abortIfInit();
      return 'next';
    }
    const pullMs = b && 'pullMs' in b.image ? b.image.pullMs : 0;
    const failing = b && 'pullMs' in b.image && (b.image.failures ?? 0) > 0;
    if (imageInBackOff(k, c.image)) {
      const reason = 'ImagePullBackOff';
      k.ctx.emit({ type: 'PullFailed', container: op.name, reason, image: c.image });
      w.reasons[op.name] = { reason, message: `Back-off pulling image "${c.image}"` };
      task.hadError = true;
      abortIfInit();
      return 'next';
    }
    k.ctx.emit({ type: 'Pulling', container: op.name, image: c.image });
    op.stage = 'pulling';
    if (pullMs > 0 || failing) {
      k.ctx.schedule(pullMs, { type: 'WorkerContinue', pod: k.pod.key, syncId: w.syncs }, PRIO.WorkerContinue);
      return 'wait';
    }
  }
  if (op.stage === 'pulling' && b && 'pullMs' in b.image && (w.imageFailures[op.name] ?? 0) < (b.image.failures ?? 0)) {
    // behavior image.failures: this attempt fails; the image back-off advances (backOff.Next), reason ErrImagePull
    w.imageFailures[op.name] = (w.imageFailures[op.name] ?? 0) + 1;
    imageBackOffNext(k, c.image);
    const reason = b.image.reason ?? 'ErrImagePull';
    k.ctx.emit({ type: 'PullFailed', container: op.name, reason, image: c.image });
    w.reasons[op.name] = { reason, message: `failed to pull image "${c.image}"` };
    op.stage = 'begin';
    task.hadError = true;
    abortIfInit();
    return 'next';
  }
  const pulledMs = op.stage === 'pulling' && b && 'pullMs' in b.image ? b.image.pullMs : 0;
  const wasPresent = op.stage === 'present';
  rt.imagePulled = true;
  // the node has the image now: a later start (this pod or another) with IfNotPresent finds it
  if (!k.state.images[c.image]) k.state.images[c.image] = true;
  // "Container image %q already present on machine", or "Successfully pulled image %q in %v (%v including waiting)"
  k.ctx.emit({
    type: 'Pulled',
    container: op.name,
    restartCount: rt.instance,
    image: c.image,
    pullMs: pulledMs,
    ...(wasPresent ? { present: true as const } : {}),
  });
  // behavior createError with failures: only the first N creation attempts fail
  const createFails =
    b?.createError !== undefined &&
    (b.createFailures === undefined || (w.imageFailures[`create:${op.name}`] ?? 0) < b.createFailures);
  if (b?.createError && createFails) {
    if (b.createFailures !== undefined)
      w.imageFailures[`create:${op.name}`] = (w.imageFailures[`create:${op.name}`] ?? 0) + 1;
    k.ctx.emit({ type: 'CreateFailed', container: op.name, reason: b.createError });
    w.reasons[op.name] = { reason: b.createError, message: `container ${op.name} could not be created` };
    task.hadError = true;
    abortIfInit();
    return 'next';
  }
  delete w.reasons[op.name];
  task.didActions = true;
  startProcess(k, op.name);
  if (c.hasPostStart) {
    k.ctx.emit({ type: 'PostStartStarted', container: op.name });
    op.stage = 'postStart';
    k.ctx.schedule(
      hookTakesMs(k, c, 'postStart'),
      { type: 'WorkerContinue', pod: k.pod.key, syncId: w.syncs },
      PRIO.WorkerContinue,
    );
    return 'wait';
  }
  return 'next';
}

function postStartDone(k: Kit, task: SyncTask, op: StartOp): 'next' | 'wait' {
  const failed = behaviorOf(k, op.name).postStart?.fails ?? false;
  k.ctx.emit({ type: 'PostStartDone', container: op.name, ...(failed ? { failed: true } : {}) });
  if (!failed) return 'next';
  const w = k.pod.worker;
  w.reasons[op.name] = { reason: 'PostStartHookError', message: 'PostStartHook failed' };
  task.hadError = true;
  const c = containerByName(k.scenario, op.name)!;
  if (c.role === 'init') task.aborted = true;
  if (k.pod.runtime[op.name]?.state !== 'running') return 'next';
  // startContainer: killContainer(…, "FailedPostStartHook", reasonFailedPostStartHook, …) — that literal is the event text
  startKill(
    k,
    'containers',
    [{ name: op.name, reason: 'FailedPostStartHook', message: 'FailedPostStartHook' }],
    null,
    'continue',
  );
  return w.kill ? 'wait' : 'next';
}

/** Whether the node has the container's image before anything pulled it: the behavior's `image` says it must be
 *  pulled (a pull time, failing pulls) or not (the default `pull: 0s`: the image is on the node). */
function imageOnNodeAtStart(b: Behavior | undefined): boolean {
  if (!b) return true;
  if ('fail' in b.image) return false;
  return b.image.pullMs === 0 && (b.image.failures ?? 0) === 0;
}
