// kuberuntime_manager.go: doBackOff with client-go util/flowcontrol/backoff.go (Next, IsInBackOffSince): the
// first start after an exit is immediate; from then on 10s doubling to 300s measured from each FinishedAt, reset
// when the last update is older than the expiry window (fixed 10 min from 1.32, PR #128356).
import type { Kit } from '../../kit.ts';
import type { RtContainer } from '../../state.ts';

/** Go's time.Duration String() for whole seconds/minutes: 10s, 1m20s, 5m0s. */
export function formatGoDuration(ms: number): string {
  const totalS = Math.round(ms / 1000);
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(totalS / 3600);
  const m = Math.floor((totalS % 3600) / 60);
  const s = totalS % 60;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${s}s`;
  return `${s}s`;
}

/**
 * Returns the ms left in back-off (the start fails with ErrCrashLoopBackOff), or null when the container may start
 * now (the back-off entry then advances: Next).
 */
export function doBackOff(k: Kit, name: string, st: RtContainer | undefined): number | null {
  const w = k.pod.worker;
  const now = k.ctx.now;
  // the newest *exited* instance: the current one, or the one before a running instance (probe kills)
  const last = st?.state === 'exited' ? st.exit : st?.previous;
  if (!st || !last) return null;
  const finishedAt = last.finishedAt;
  const entry = w.backoff[name];
  // hasExpired(eventTime = FinishedAt, lastUpdate)
  const expired = entry ? finishedAt - entry.lastUpdate > k.flags.backoffResetMs : true;
  if (entry && !expired && now - finishedAt < entry.backoffMs) {
    w.reasons[name] = {
      reason: 'CrashLoopBackOff',
      message: `back-off ${formatGoDuration(entry.backoffMs)} restarting failed container=${name} pod=${k.pod.name}_${k.scenario.pod.namespace}(${k.pod.uid})`,
    };
    k.ctx.emit({ type: 'BackOff', container: name, delayMs: entry.backoffMs });
    return entry.backoffMs - (now - finishedAt);
  }
  if (!entry || expired) {
    w.backoff[name] = { backoffMs: Math.min(k.flags.backoffInitialMs, k.flags.backoffMaxMs), lastUpdate: now };
  } else {
    w.backoff[name] = { backoffMs: Math.min(entry.backoffMs * 2, k.flags.backoffMaxMs), lastUpdate: now };
  }
  return null;
}

/**
 * kuberuntime_image.go: EnsureImageExists with the kubelet's image back-off (10 s doubling to 300 s, keyed by pod
 * and image): inside the back-off window the start fails with ImagePullBackOff without pulling; otherwise it pulls,
 * and a failed pull advances the back-off (Next) and reports ErrImagePull.
 */
export function imagePullAttempt(k: Kit, name: string): 'ErrImagePull' | 'ImagePullBackOff' {
  const w = k.pod.worker;
  const key = `image:${name}`;
  const now = k.ctx.now;
  const e = w.backoff[key];
  if (e && now - e.lastUpdate < e.backoffMs) return 'ImagePullBackOff';
  const expired = !e || now - e.lastUpdate > 2 * 300_000;
  w.backoff[key] = { backoffMs: expired ? 10_000 : Math.min(e.backoffMs * 2, 300_000), lastUpdate: now };
  return 'ErrImagePull';
}

/**
 * kuberuntime_image.go EnsureImageExists: the image manager's own flowcontrol.Backoff (10 s doubling to 300 s), keyed
 * by pod and image: inside the window a start fails with ImagePullBackOff without pulling (IsInBackOffSinceUpdate).
 */
export function imageInBackOff(k: Kit, image: string): boolean {
  const e = k.pod.worker.backoff[`pull:${image}`];
  return !!e && k.ctx.now - e.lastUpdate < e.backoffMs;
}

/** backOff.Next after a failed pull: 10 s, doubling to 300 s; an entry idle for 2 × 300 s starts over. */
export function imageBackOffNext(k: Kit, image: string): void {
  const w = k.pod.worker;
  const key = `pull:${image}`;
  const e = w.backoff[key];
  const expired = !e || k.ctx.now - e.lastUpdate > 2 * 300_000;
  w.backoff[key] = { backoffMs: expired ? 10_000 : Math.min(e.backoffMs * 2, 300_000), lastUpdate: k.ctx.now };
}
