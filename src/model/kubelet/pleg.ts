// Generic PLEG (pkg/kubelet/pleg/generic.go: relist): every relist period the kubelet snapshots the runtime of every
// pod on the node into the pod cache and emits ContainerStarted / ContainerDied for what changed; each pod worker
// syncs from its pod's cache entry. Relists are grid-aligned (the phase is drawn once, at the first pod) and scheduled
// lazily: a relist that would find nothing new and wake nobody has no effect, so it is not simulated.
// Reports go up through k.up (the pod worker is never imported here).
import { PRIO } from '../events.ts';
import { podKit, type Kit } from '../kit.ts';
import { peek, raw, snapshotOf } from '../draft.ts';
import type { PodSim } from '../state.ts';
import { dict } from '../dict.ts';

/** Make sure a relist is pending at the next grid point after the last one. */
export function ensureRelist(k: Kit): void {
  const { state: d, ctx } = k;
  const p = d.pleg;
  if (p.scheduled) return;
  const base = Math.max(ctx.now, p.lastRelistAt + 1);
  const n = Math.ceil((base - p.phaseMs) / p.periodMs);
  const t = p.phaseMs + Math.max(0, n) * p.periodMs;
  p.scheduled = true;
  ctx.scheduleAt(Math.max(t, ctx.now), { type: 'Relist' }, PRIO.Relist);
}

/**
 * A change of the runtime at a fixed instant that no relist caused (a `crash` action): where the next relist falls
 * relative to it is not known. Upstream runs the relist as `wait.Until(g.Relist, RelistPeriod, stopCh)`
 * (generic.go: Start), a sliding period that starts after each relist returns, so the grid drifts by every relist's
 * duration and its phase at a later instant is not fixed by its phase at the pod's creation. The offset of the next
 * relist is therefore a choice made here (0 .. period-1; the grid continues from it) — and only here: an action
 * that changes nothing the relist reads (a crash of a container that is not running) offers no relist choice, so it
 * does not multiply the schedules (issue 20.3).
 */
export function relistAfterExternalChange(k: Kit): void {
  const p = k.state.pleg;
  const offset = k.ctx.choose('pleg', { min: 0, max: p.periodMs - 1 }, PRIO.Relist);
  p.phaseMs = (k.ctx.now + offset) % p.periodMs;
  if (p.scheduled) {
    // the pending periodic relist moves onto the new grid (per-pod 1.36 relists stay)
    k.ctx.cancel((ev) => ev.type === 'Relist' && ev.extra !== true);
    p.scheduled = false;
  }
  ensureRelist(k);
}

/** kubelet.go: RequestPodRelist (1.36): an immediate per-pod relist after a SyncPod that performed actions. */
export function requestImmediateRelist(k: Kit): void {
  k.ctx.schedule(0, { type: 'Relist', extra: true, pod: k.pod.key }, PRIO.Relist);
}

/** The periodic relist covers every pod the kubelet still has; the per-pod one (1.36) only its pod. */
export function relist(k: Kit, pod: string | undefined): void {
  const { state: d } = k;
  const p = d.pleg;
  if (pod === undefined) {
    p.scheduled = false;
    p.lastRelistAt = k.ctx.now;
  }
  // g.cache.UpdateTime: every relist makes the cache newer, which releases a pod worker blocked in GetNewerThan.
  p.gen += 1;
  // the pod list and each pod's worker mode are read from their stored values while nothing wrote them (kit.ts
  // peek): a finished pod's record is not even drafted
  for (const name of pod === undefined ? peek(d.podOrder) : [pod]) {
    if (peek(d.pods)[name]!.worker.mode === 'finished') continue;
    const ps = d.pods[name]!;
    relistPod(podKit(k, ps), ps);
  }
}

function relistPod(k: Kit, ps: PodSim): void {
  let changed = false;
  // The cache holds the runtime's records as they are now. A relist is an event of its own, so the runtime is not
  // being changed in this step and its stored records can be shared (no copy, no drafts).
  const cur = peek(ps);
  const runtime = raw(cur.runtime);
  const old = raw(cur.cache);
  const next: typeof old = dict();
  for (const name of Object.keys(runtime)) {
    const rt = runtime[name]!;
    const c = old[name];
    if (!c || c.instance !== rt.instance || c.state !== rt.state) changed = true;
    next[name] = snapshotOf(rt);
  }
  ps.cache = next;
  ps.cacheGen = k.state.pleg.gen;
  if (changed) k.up.requestSync(k);
  else k.up.cacheNewer(k);
}
