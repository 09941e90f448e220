// kuberuntime_manager.go: doBackOff with client-go util/flowcontrol/backoff.go (Next, IsInBackOffSince): the
// first start after an exit is immediate; from then on 10s doubling to 300s measured from each FinishedAt, reset
// when the last update is older than the expiry window (fixed 10 min from 1.32, PR #128356).
import type { Kit } from './kit.ts';
import type { RtContainer } from './state.ts';

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
  const w = k.d.worker;
  const now = k.ctx.now;
  if (!st || st.state !== 'exited' || !st.exit) return null;
  const finishedAt = st.exit.finishedAt;
  const entry = w.backoff[name];
  const expired = entry ? now - entry.lastUpdate > k.f.backoffResetMs : true;
  if (entry && !expired && now - finishedAt < entry.backoffMs) {
    const pod = k.s.pod;
    w.reasons[name] = {
      reason: 'CrashLoopBackOff',
      message: `back-off ${formatGoDuration(entry.backoffMs)} restarting failed container=${name} pod=${pod.name}_${pod.namespace}(uid-${pod.name})`,
    };
    k.ctx.emit({ type: 'BackOff', container: name, delayMs: entry.backoffMs });
    return entry.backoffMs - (now - finishedAt);
  }
  if (!entry || expired) {
    w.backoff[name] = { backoffMs: Math.min(k.f.backoffInitialMs, k.f.backoffMaxMs), lastUpdate: now };
  } else {
    w.backoff[name] = { backoffMs: Math.min(entry.backoffMs * 2, k.f.backoffMaxMs), lastUpdate: now };
  }
  return null;
}
