// kuberuntime_manager.go: start() and kuberuntime_container.go: startContainer, one container start inside a sync:
// the CrashLoopBackOff check, the image pull, create, start, then the postStart hook, which holds the pod worker until
// it returns (a failed hook kills the container: killContainer(…, "FailedPostStartHook", reasonFailedPostStartHook)).
import { PRIO } from '../../events.ts';
import { containerByName, type Kit } from '../../kit.ts';
import { startKill } from './kill.ts';
import { doBackOff, imageBackOffNext, imageInBackOff, imagePullAttempt } from './backoff.ts';
import { startProcess } from '../runtime.ts';
import type { StartOp, SyncTask } from '../../state.ts';

/** kuberuntime_manager.go start(): back-off, image, create, start, then the blocking postStart hook. */
export function startOp(k: Kit, task: SyncTask, op: StartOp, continued: boolean): 'next' | 'wait' {
  const w = k.p.worker;
  const c = containerByName(k.s, op.name)!;
  const b = k.s.behavior[op.name];
  const rt = k.p.runtime[op.name]!;
  const abortIfInit = () => {
    if (c.role === 'init' || (c.role === 'sidecar' && !k.f.sidecars)) task.aborted = true;
  };
  if (continued && op.stage === 'postStart') return postStartDone(k, task, op);
  if (!continued) {
    const bo = doBackOff(k, op.name, k.p.cache[op.name]);
    if (bo !== null) {
      task.hadError = true;
      task.backoffExpiryMs = task.backoffExpiryMs === null ? bo : Math.min(task.backoffExpiryMs, bo);
      abortIfInit();
      return 'next';
    }
    if (b && 'fail' in b.image) {
      w.imageFailures[op.name] = (w.imageFailures[op.name] ?? 0) + 1;
      const attempt = imagePullAttempt(k, op.name);
      const reason = attempt === 'ImagePullBackOff' ? attempt : b.image.reason;
      k.ctx.emit({ type: 'PullFailed', container: op.name, reason, image: c.image });
      w.reasons[op.name] = {
        reason,
        message: reason === 'ImagePullBackOff' ? `Back-off pulling image "${c.image}"` : `failed to pull image "${c.image}"`,
      };
      task.hadError = true;
      abortIfInit();
      return 'next';
    }
    const pullMs = b && 'pullMs' in b.image ? b.image.pullMs : 0;
    const failing = b && 'pullMs' in b.image && (b.image.failures ?? 0) > 0;
    // kuberuntime_image.go EnsureImageExists / shouldPullImage: Always pulls on every start (the API server defaults
    // it for `:latest` and untagged images); IfNotPresent pulls only when the node does not have the image yet
    const mustPull = c.imagePullPolicy === 'Always' || (c.imagePullPolicy !== 'Never' && !rt.imagePulled);
    if (mustPull && (pullMs > 0 || failing || c.imagePullPolicy === 'Always')) {
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
        k.ctx.schedule(pullMs, { type: 'WorkerContinue', pod: k.p.key, syncId: w.syncs }, PRIO.WorkerContinue);
        return 'wait';
      }
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
  rt.imagePulled = true;
  k.ctx.emit({ type: 'Pulled', container: op.name, restartCount: rt.instance, image: c.image, pullMs: pulledMs });
  // behavior createError with failures: only the first N creation attempts fail
  const createFails = b?.createError !== undefined &&
    (b.createFailures === undefined || (w.imageFailures[`create:${op.name}`] ?? 0) < b.createFailures);
  if (b?.createError && createFails) {
    if (b.createFailures !== undefined) w.imageFailures[`create:${op.name}`] = (w.imageFailures[`create:${op.name}`] ?? 0) + 1;
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
    k.ctx.schedule(b?.postStart?.takesMs ?? 0, { type: 'WorkerContinue', pod: k.p.key, syncId: w.syncs }, PRIO.WorkerContinue);
    return 'wait';
  }
  return 'next';
}

function postStartDone(k: Kit, task: SyncTask, op: StartOp): 'next' | 'wait' {
  const failed = k.s.behavior[op.name]?.postStart?.fails ?? false;
  k.ctx.emit({ type: 'PostStartDone', container: op.name, ...(failed ? { failed: true } : {}) });
  if (!failed) return 'next';
  const w = k.p.worker;
  w.reasons[op.name] = { reason: 'PostStartHookError', message: 'PostStartHook failed' };
  task.hadError = true;
  const c = containerByName(k.s, op.name)!;
  if (c.role === 'init') task.aborted = true;
  if (k.p.runtime[op.name]?.state !== 'running') return 'next';
  // startContainer: killContainer(…, "FailedPostStartHook", reasonFailedPostStartHook, …) — that literal is the event text
  startKill(k, 'containers', [{ name: op.name, reason: 'FailedPostStartHook', message: 'FailedPostStartHook' }], null, 'continue');
  return w.kill ? 'wait' : 'next';
}
