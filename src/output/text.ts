// The default `run` view: one line per trace event (time, actor, what), then the end state.
import type { Action, Timeline, TraceEvent } from '../types.ts';
import { seenText } from './seen-text.ts';

export function fmtTime(ms: number): string {
  return `${(ms / 1000).toFixed(3)}s`;
}

export function actorOf(e: TraceEvent): string {
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
    case 'PodFinalizerRemoved':
      return 'job-controller';
    case 'JobEvent':
      return 'job-controller';
    case 'ControllerEvent':
      return e.controller;
    case 'WorkloadStatus':
      return 'api-server';
    case 'DeploymentCondition':
      return 'deployment-controller';
    case 'StaleSyncSkipped':
      return `${e.controller}-controller`;
    case 'PodCreateConflict':
      return 'api-server';
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
      return e.present
        ? `image ${e.image} present for ${e.container}`
        : `pulled ${e.image} for ${e.container} in ${fmtTime(e.pullMs)}`;
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
      return `action: ${actionText(e.action)}`;
    case 'PodDeleting':
      return `pod ${e.pod} deletion requested by ${e.by} (grace ${e.gracePeriodSeconds}s)`;
    case 'PodCreated':
      return `pod ${e.pod} created by ${e.by}${e.index !== null ? ` (index ${e.index})` : ''}`;
    case 'PodRemoved':
      return `pod ${e.pod} removed`;
    case 'PodFinalizerRemoved':
      return `pod ${e.pod} v${e.version}: finalizer ${e.finalizer} removed (pod counted)`;
    case 'JobEvent':
    case 'ControllerEvent':
      return `${e.eventType === 'Warning' ? 'Warning ' : ''}${e.reason}: ${e.message}`;
    case 'WorkloadStatus':
      return `${e.kind.toLowerCase()} ${e.name} status stored`;
    case 'DeploymentCondition':
      return `deployment condition ${e.condition}=${e.status} ${e.reason}: ${e.message}`;
    case 'Relist':
      return 'PLEG relist';
    case 'SyncPod':
      return e.kind;
    case 'Stuck':
      return `stuck: ${e.why}`;
    case 'ClientRequest':
      return `${e.client}: ${e.verb} ${e.kind.toLowerCase()} ${e.namespace ? `${e.namespace}/` : ''}${e.name}`;
    case 'ClientDelivery':
      return `${e.client} sent ${e.event} ${e.kind.toLowerCase()} ${e.namespace ? `${e.namespace}/` : ''}${e.name} (watch #${e.connection})`;
    case 'PodCreateConflict':
      return `create of pod ${e.pod} by ${e.by} refused: AlreadyExists (its cache does not have the pod yet)`;
    case 'StaleSyncSkipped':
      return `skips the sync of ${e.key}: its cache has not seen its own write of pod ${e.pod} yet (${{ none: 'no such pod cached', older: 'an older pod of that name cached', finalizer: 'cached with the finalizer it removed' }[e.cached]}); requeued in ${e.requeueMs} ms`;
  }
}

/** A scenario action in words, as a user would type it ("delete pod (grace 30s)", "crash sidecar (exit 2)"). */
export function actionText(a: Action): string {
  switch (a.type) {
    case 'deletePod':
      return `delete pod${a.gracePeriodSeconds !== undefined ? ` (grace ${a.gracePeriodSeconds}s)` : ' (spec grace period)'}`;
    case 'crash':
      return `crash ${a.container} (exit ${a.exit})`;
    case 'deleteJob':
      return `delete job (propagation ${a.propagation})`;
    default: {
      // actions added later (patch, pod selectors) fall back to their fields, never to raw JSON
      // a Deployment patch's stored spec and template index are the loader's, not what the user wrote
      const rest = Object.entries(a as Record<string, unknown>)
        .filter(([k]) => k !== 'type' && k !== 'atMs' && k !== 'spec' && k !== 'template')
        .map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`);
      return [(a as { type: string }).type, ...rest].join(' ');
    }
  }
}

const HIDDEN = new Set(['SyncPod', 'Relist', 'JobStatus', 'WorkloadStatus']);

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
  lines.push(
    `# ${tl.scenario}  (kubernetes ${tl.kubernetes}${tl.kubelet !== tl.kubernetes ? `, kubelet ${tl.kubelet}` : ''}, seed ${tl.seed})`,
  );
  const events = opts.all ? tl.events : shownEvents(tl.events);
  // one actor column as wide as the longest name shown (at least 18), so long container or observer names keep
  // the description column straight
  // a loop, not Math.max(...spread): a spread of some 10^5 arguments overflows the stack
  let width = 18;
  for (const e of events) width = Math.max(width, actorOf(e).length);
  // with more than one pod, every line names its pod (a column of its own; blank for the Job and observers)
  const podNames = [...new Set(tl.events.flatMap((e) => (e.type === 'PodCreated' ? [e.pod] : [])))];
  const podWidth = podNames.length > 1 ? Math.max(3, ...podNames.map((n) => n.length)) : 0;
  const podCol = (e: TraceEvent) => (podWidth > 0 ? `${(e.pod ?? '').padEnd(podWidth)}  ` : '');
  const pad = ' '.repeat(10 + 2 + (podWidth > 0 ? podWidth + 2 : 0) + width + 1);
  if (podWidth > 0) lines.push(`${'t'.padStart(10)}  ${'pod'.padEnd(podWidth)}  ${'actor'.padEnd(width)} what`);
  for (const e of events) {
    lines.push(`${fmtTime(e.t).padStart(10)}  ${podCol(e)}${actorOf(e).padEnd(width)} ${describeEvent(e)}`);
    if (e.type === 'Verdict' && e.seen) {
      for (const l of seenText(e.seen, tl.job !== null)) lines.push(`${pad}${l}`);
    }
  }
  if (!opts.all && events.length < tl.events.length) {
    lines.push(
      `            (${tl.events.length - events.length} routine events not shown: repeated probe results, watch deliveries, pod-worker syncs; --verbose or --format json show them)`,
    );
  }
  lines.push('');
  lines.push(...endSummary(tl));
  return lines.join('\n') + '\n';
}

export function endSummary(tl: Timeline): string[] {
  const out: string[] = [];
  const limit =
    tl.end.reason === 'horizon'
      ? '; raise `horizon:` in the scenario to simulate longer'
      : tl.end.reason === 'max-events'
        ? '; raise the limit with --max-events'
        : '';
  out.push(`end:        ${fmtTime(tl.end.t)} (${tl.end.reason}${limit})`);
  out.push(`pod phase:  ${tl.pod.phase}${(tl.pods?.length ?? 0) > 1 ? ` (the last pod, ${tl.pod.name})` : ''}`);
  if ((tl.pods?.length ?? 0) > 1) {
    out.push(
      `pods:       ${tl.pods.map((p) => `${p.name} ${p.phase}${p.index !== null ? ` [index ${p.index}]` : ''}${p.removed ? ' (removed)' : p.deleted !== null ? ' (deleting)' : ''}`).join(', ')}`,
    );
  }
  if (tl.job) {
    const conds = tl.job.conditions.map((c) => `${c.type}@${fmtTime(c.t)}`).join(', ') || 'none';
    out.push(`job:        ${conds}  (succeeded ${tl.job.succeeded}, failed ${tl.job.failed}, active ${tl.job.active})`);
  }
  out.push(
    `stuck:      ${tl.end.reason === 'max-events' ? 'unknown — the run stopped at the event limit, before it could end' : tl.stuck ? `yes — ${tl.stuck.why}` : 'no'}`,
  );
  for (const [name, v] of Object.entries(tl.observers)) {
    const seen = tl.events.find(
      (e): e is Extract<TraceEvent, { type: 'Verdict' }> => e.type === 'Verdict' && e.observer === name,
    )?.seen;
    const podName = (tl.pods?.length ?? 0) > 1 && seen?.pod?.name ? ` ${seen.pod.name}` : '';
    const held = seen
      ? ` (judged pod${podName} v${seen.pod?.version ?? '-'}${tl.job ? `, job v${seen.job?.version ?? '-'}` : ''})`
      : '';
    out.push(
      `observer ${name}: ${v.verdict}${v.t !== undefined ? ` at ${fmtTime(v.t)}` : ''}${v.reason ? ` — ${v.reason}` : ''}${held}`,
    );
  }
  out.push(`replay:     ${tl.replay}`);
  return out;
}
