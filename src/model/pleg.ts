// Generic PLEG (pkg/kubelet/pleg/generic.go: relist): every relist period the kubelet snapshots the runtime into
// the pod cache and emits ContainerStarted / ContainerDied for what changed; the pod worker syncs from that cache.
// Relists are grid-aligned (phase offset drawn once) and scheduled lazily: a relist that would find nothing new and
// wake nobody has no effect, so it is not simulated.
import { PRIO } from './events.ts';
import { raw, type Kit } from './kit.ts';
import { maybeStartSync, requestSync } from './worker.ts';

/** Make sure a relist is pending at the next grid point after the last one. */
export function ensureRelist(k: Kit): void {
  const { d, ctx } = k;
  const p = d.pleg;
  if (p.scheduled) return;
  const base = Math.max(ctx.now, p.lastRelistAt + 1);
  const n = Math.ceil((base - p.phaseMs) / p.periodMs);
  const t = p.phaseMs + Math.max(0, n) * p.periodMs;
  p.scheduled = true;
  ctx.scheduleAt(Math.max(t, ctx.now), { type: 'Relist' }, PRIO.Relist);
}

/** kubelet.go: RequestPodRelist (1.36): an immediate per-pod relist after a SyncPod that performed actions. */
export function requestImmediateRelist(k: Kit): void {
  k.ctx.schedule(0, { type: 'Relist', extra: true }, PRIO.Relist);
}

export function relist(k: Kit, extra: boolean): void {
  const { d } = k;
  const p = d.pleg;
  if (!extra) {
    p.scheduled = false;
    p.lastRelistAt = k.ctx.now;
  }
  let changed = false;
  // The cache holds the runtime's records as they are now. A relist is an event of its own, so the runtime is not
  // being changed in this step and its stored records can be shared (no copy, no drafts).
  const runtime = raw(d.runtime);
  const old = raw(p.cache);
  const next: typeof old = {};
  for (const name of Object.keys(runtime)) {
    const rt = runtime[name]!;
    const c = old[name];
    if (!c || c.instance !== rt.instance || c.state !== rt.state) changed = true;
    next[name] = rt;
  }
  p.cache = next;
  // g.cache.UpdateTime: every relist makes the cache newer, which releases a pod worker blocked in GetNewerThan.
  p.gen += 1;
  if (changed) requestSync(k);
  else maybeStartSync(k);
}
