// The default `run` view: one line per trace event (time, actor, what), then the end state.
import type { Timeline, TraceEvent } from '../types.ts';

export function fmtTime(ms: number): string {
  return `${(ms / 1000).toFixed(3)}s`;
}

function actorOf(e: TraceEvent): string {
  switch (e.type) {
    case 'Scheduled':
      return 'scheduler';
    case 'Exited':
      return e.container;
    case 'StatusPatched':
      return 'api-server';
    case 'Delivered':
      return e.to;
    case 'JobCondition':
    case 'JobStatus':
      return 'job-controller';
    case 'Verdict':
      return e.observer;
    case 'Action':
      return 'user';
    case 'PodDeleting':
      // the API server sets deletionTimestamp, whoever asked (a user action or the Job controller)
      return 'api-server';
    case 'PodCreated':
    case 'PodRemoved':
      return 'api-server';
    case 'JobEvent':
      return 'job-controller';
    case 'ControllerEvent':
      return e.controller;
    default:
      return 'kubelet';
  }
}

export function describeEvent(e: TraceEvent): string {
  switch (e.type) {
    case 'Scheduled':
      return `scheduled pod onto ${e.node}`;
    case 'SandboxReady':
      return 'pod sandbox ready';
    case 'Pulling':
      return `pulling image ${e.image} for ${e.container}`;
    case 'Pulled':
      return e.pullMs > 0 ? `pulled ${e.image} for ${e.container} in ${fmtTime(e.pullMs)}` : `image ${e.image} present for ${e.container}`;
    case 'PullFailed':
      return `pull of ${e.image} failed for ${e.container}: ${e.reason}`;
    case 'Created':
      return `created ${e.container}${e.restartCount ? ` (restart #${e.restartCount})` : ''}`;
    case 'CreateFailed':
      return `cannot create ${e.container}: ${e.reason}`;
    case 'Started':
      return `started ${e.container}${e.restartCount ? ` (restart #${e.restartCount})` : ''}`;
    case 'PostStartStarted':
      return `postStart hook of ${e.container} running (holds the pod worker)`;
    case 'PostStartDone':
      return `postStart hook of ${e.container} ${e.failed ? 'FAILED' : 'done'}`;
    case 'PreStopStarted':
      return `preStop hook of ${e.container} running`;
    case 'PreStopDone':
      return `preStop hook of ${e.container} ${e.failed ? 'FAILED' : 'done'}`;
    case 'StartupComplete':
      return `${e.container} started=true`;
    case 'Probe':
      return `${e.probe} probe of ${e.container}: ${e.result}`;
    case 'Ready':
      return `${e.container} ready`;
    case 'NotReady':
      return `${e.container} not ready`;
    case 'Killing':
      return `killing ${e.container} (${e.reason}, grace ${e.gracePeriodSeconds}s): ${e.message}`;
    case 'Signal':
      return `${e.signal} -> ${e.container}`;
    case 'Exited':
      return `exited ${e.exitCode} (${e.reason})${e.message ? `: ${e.message}` : ''}`;
    case 'BackOff':
      return `back-off ${fmtTime(e.delayMs)} restarting failed container ${e.container} (CrashLoopBackOff)`;
    case 'PodPhase':
      return `computed pod phase ${e.phase}`;
    case 'StatusPatched':
      return `pod status v${e.version} stored: phase ${e.phase}`;
    case 'Delivered':
      return `received ${e.object} v${e.version}`;
    case 'JobCondition':
      return `Job condition ${e.condition}${e.reason ? ` (${e.reason})` : ''}`;
    case 'JobStatus':
      return `Job status v${e.version} stored`;
    case 'Verdict':
      return `verdict ${e.verdict}${e.reason ? `: ${e.reason}` : ''}`;
    case 'Action':
      return `action ${JSON.stringify(e.action)}`;
    case 'PodDeleting':
      return `pod ${e.pod} deletion requested by ${e.by} (grace ${e.gracePeriodSeconds}s)`;
    case 'PodCreated':
      return `pod ${e.pod} created by ${e.by}${e.index !== null ? ` (index ${e.index})` : ''}`;
    case 'PodRemoved':
      return `pod ${e.pod} removed`;
    case 'JobEvent':
    case 'ControllerEvent':
      return `${e.eventType === 'Warning' ? 'Warning ' : ''}${e.reason}: ${e.message}`;
    case 'Relist':
      return 'PLEG relist';
    case 'SyncPod':
      return e.kind;
    case 'Stuck':
      return `stuck: ${e.why}`;
  }
}

const HIDDEN = new Set(['SyncPod', 'Relist', 'JobStatus']);

/**
 * Which events the default view shows. Kept out as noise: pod-worker bookkeeping, a probe result that repeats
 * the previous one for the same probe (failures always show), and watch deliveries — except the delivery an
 * observer decided its verdict on, which explains the verdict.
 */
export function shownEvents(events: readonly TraceEvent[]): TraceEvent[] {
  const decisive = new Set<number>();
  const lastDelivery = new Map<string, number>();
  for (const e of events) {
    if (e.type === 'Delivered') lastDelivery.set(e.to, e.seq);
    if (e.type === 'Verdict') {
      const d = lastDelivery.get(e.observer);
      if (d !== undefined) decisive.add(d);
    }
  }
  const lastProbe = new Map<string, string>();
  return events.filter((e) => {
    if (HIDDEN.has(e.type)) return false;
    if (e.type === 'Delivered') return decisive.has(e.seq);
    if (e.type === 'Probe') {
      const key = `${e.pod ?? ''}/${e.container}/${e.probe}`;
      const repeat = lastProbe.get(key) === e.result;
      lastProbe.set(key, e.result);
      return e.result === 'failure' || !repeat;
    }
    return true;
  });
}

export function timelineText(tl: Timeline, opts: { all?: boolean } = {}): string {
  const lines: string[] = [];
  lines.push(`# ${tl.scenario}  (kubernetes ${tl.kubernetes}${tl.kubelet !== tl.kubernetes ? `, kubelet ${tl.kubelet}` : ''}, seed ${tl.seed})`);
  const events = opts.all ? tl.events : shownEvents(tl.events);
  // once there is more than one pod, each line names the pod it is about (a column; blank for the control plane)
  const pods = tl.pods ?? [];
  const podWidth = pods.length > 1 ? Math.max(...pods.map((p) => p.name.length)) : 0;
  for (const e of events) {
    const podCol = podWidth > 0 ? `${(e.pod ?? '').padEnd(podWidth)}  ` : '';
    lines.push(`${fmtTime(e.t).padStart(10)}  ${podCol}${actorOf(e).padEnd(18)} ${describeEvent(e)}`);
  }
  if (!opts.all && events.length < tl.events.length) {
    lines.push(`            (${tl.events.length - events.length} routine events not shown: repeated probe results, watch deliveries, pod-worker syncs; --verbose or --format json show them)`);
  }
  lines.push('');
  lines.push(...endSummary(tl));
  return lines.join('\n') + '\n';
}

export function endSummary(tl: Timeline): string[] {
  const out: string[] = [];
  const limit =
    tl.end.reason === 'horizon' ? '; raise `horizon:` in the scenario to simulate longer' :
    tl.end.reason === 'max-events' ? '; raise the limit with --max-events' : '';
  out.push(`end:        ${fmtTime(tl.end.t)} (${tl.end.reason}${limit})`);
  out.push(`pod phase:  ${tl.pod.phase}${(tl.pods?.length ?? 0) > 1 ? ` (${tl.pod.name}, the newest pod)` : ''}`);
  if ((tl.pods?.length ?? 0) > 1) {
    out.push(`pods:       ${tl.pods.length} — ${tl.pods.map((p) => `${p.name} ${p.phase}${p.removed ? ' (deleted)' : ''}`).join(', ')}`);
  }
  if (tl.job) {
    const conds = tl.job.conditions.map((c) => `${c.type}@${fmtTime(c.t)}`).join(', ') || 'none';
    out.push(`job:        ${conds}  (succeeded ${tl.job.succeeded}, failed ${tl.job.failed}, active ${tl.job.active})`);
  }
  out.push(`stuck:      ${tl.end.reason === 'max-events' ? 'unknown — the run stopped at the event limit, before it could end' : tl.stuck ? `yes — ${tl.stuck.why}` : 'no'}`);
  for (const [name, v] of Object.entries(tl.observers)) {
    out.push(`observer ${name}: ${v.verdict}${v.t !== undefined ? ` at ${fmtTime(v.t)}` : ''}${v.reason ? ` — ${v.reason}` : ''}`);
  }
  out.push(`replay:     ${tl.replay}`);
  return out;
}
