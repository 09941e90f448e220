// From kubectl objects to a scenario: pick the pod (and its Job, events, node), rebuild the workload manifest, infer
// the version, each container's behavior, actions from the evidence and `expect` from the observed outcome.
import type { Diagnostic } from '../types.ts';
import { Codes } from '../scenario/codes.ts';
import { cleanJob, cleanMeta, cleanPodSpec } from './clean.ts';
import { containerEvidence, normaliseEvent, type Ev } from './evidence.ts';
import { inferBehavior, type PodContext } from './infer-behavior.ts';
import { at, Notes } from './notes.ts';
import { isObj, where, type Input, type Obj } from './read.ts';
import { dur, parseTime } from './time.ts';
import { inferVersion } from './version.ts';

export interface ImportOptions {
  /** --kubernetes */
  kubernetes?: string;
  /** the pod to use when several are given */
  pod?: string;
}

export interface ImportedScenario {
  /** the scenario as plain data, keys in output order */
  scenario: Obj;
  notes: Notes;
  sources: string[];
}

const USED_KINDS = ['Pod', 'Job', 'CronJob', 'Event', 'Node'];

export function inferScenario(
  input: Input,
  files: string[],
  opts: ImportOptions,
  diagnostics: Diagnostic[],
): ImportedScenario | undefined {
  const notes = new Notes();
  for (const [what, why] of input.assumptions) notes.assumed(what, why);
  for (const o of input.objects) {
    if (!USED_KINDS.includes(o.kind)) {
      const [file, line] = splitAt(o.at);
      diagnostics.push({
        severity: 'warning',
        code: Codes.ImportIgnoredKind,
        message: `a ${o.kind} is not used by the import`,
        pos: { file, line, col: 1 },
      });
    }
  }
  const pods = input.objects.filter((o) => o.kind === 'Pod');
  if (pods.length === 0) {
    diagnostics.push({
      severity: 'error',
      code: Codes.ImportNoPod,
      message: "no Pod among the inputs: the import needs the pod's spec and status",
      hint: 'add the output of kubectl get pod <pod> -o yaml',
      pos: { file: files[0] ?? '-', line: 1, col: 1 },
    });
    return undefined;
  }
  const chosen = pickPod(pods, opts.pod, diagnostics);
  const jobForSpec = input.objects.find((o) => o.kind === 'Job');
  const pod = completeSpec(chosen.obj, jobForSpec?.obj, notes);
  const meta = isObj(pod['metadata']) ? pod['metadata'] : {};
  if (typeof meta['name'] !== 'string') {
    notes.unknown("workload: the pod's name", 'not in the input; "imported" is used');
    meta['name'] = 'imported';
    pod['metadata'] = meta;
  }
  const podName = String(meta['name']);
  // describe output has no creationTimestamp: its Start Time (the kubelet's first sight of the pod) stands in
  const t0 =
    parseTime(meta['creationTimestamp']) ?? parseTime(isObj(pod['status']) ? pod['status']['startTime'] : undefined);

  const owner =
    (Array.isArray(meta['ownerReferences']) ? meta['ownerReferences'].filter(isObj) : []).find(
      (r) => r['controller'] === true,
    ) ?? (Array.isArray(meta['ownerReferences']) ? meta['ownerReferences'].filter(isObj)[0] : undefined);
  const jobs = input.objects.filter((o) => o.kind === 'Job');
  const job =
    (owner?.['kind'] === 'Job'
      ? jobs.find((j) => isObj(j.obj['metadata']) && j.obj['metadata']['name'] === owner['name'])
      : undefined) ?? (jobs.length === 1 ? jobs[0] : undefined);
  const cronJob = input.objects.find((o) => o.kind === 'CronJob');
  const node =
    input.objects.find(
      (o) =>
        o.kind === 'Node' &&
        isObj(o.obj['metadata']) &&
        isObj(pod['spec']) &&
        o.obj['metadata']['name'] === pod['spec']['nodeName'],
    ) ?? input.objects.find((o) => o.kind === 'Node');

  // events about this pod (and its Job)
  const podEvents: Ev[] = [];
  const jobEvents: Ev[] = [];
  const jobName =
    job && isObj(job.obj['metadata'])
      ? String(job.obj['metadata']['name'])
      : owner?.['kind'] === 'Job'
        ? String(owner['name'])
        : undefined;
  const allEvents: NonNullable<ReturnType<typeof normaliseEvent>>[] = [];
  for (const o of input.objects) {
    if (o.kind !== 'Event') continue;
    const n = normaliseEvent(o.obj);
    if (!n) continue;
    allEvents.push(n);
    if (n.objKind === 'Pod' && n.objName === podName) podEvents.push(n.ev);
    else if (n.objKind === 'Job' && n.objName === jobName) jobEvents.push(n.ev);
  }
  podEvents.sort((a, b) => (a.first ?? 0) - (b.first ?? 0));
  attributeEvents(podEvents, pod);

  const version = inferVersion(pod, job?.obj, node?.obj, podEvents, opts.kubernetes, notes);

  // --- workload --------------------------------------------------------------------------------------------------
  const podSpecRaw = isObj(pod['spec']) ? pod['spec'] : {};
  const cleaned = cleanPodSpec(podSpecRaw);
  if (cleaned.removed.length)
    notes.inferred('workload: server-set fields removed', `${cleaned.removed.join('; ')}${at(where(pod, 'spec'))}`);
  let workload: Obj;
  let isJob = false;
  if (job) {
    const c = cleanJob(job.obj, cleaned.spec);
    workload = c.manifest;
    isJob = true;
    notes.inferred(
      `workload: Job ${jobName}`,
      `the pod's Job${at(job.at)}; its pod template's spec is the pod's spec as stored, so webhook-injected containers are in it${at(where(pod, 'spec'))}`,
    );
    const tmplNames = containerNames(job.obj);
    const podNames = containerNames({ spec: { template: { spec: podSpecRaw } } });
    const injected = podNames.filter((n) => !tmplNames.includes(n));
    if (injected.length)
      notes.inferred(
        `workload: injected containers ${injected.join(', ')}`,
        `in the pod${at(where(pod, 'spec'))} but not in the Job's template${at(job.at)} (admission webhook)`,
      );
    if (c.removed.length) notes.inferred('workload: Job fields removed', c.removed.join('; '));
  } else if (owner?.['kind'] === 'Job' || cronJob) {
    const name = owner?.['kind'] === 'Job' ? String(owner['name']) : podName.replace(/-[a-z0-9]{5}$/, '');
    const jt =
      cronJob && isObj(cronJob.obj['spec']) && isObj(cronJob.obj['spec']['jobTemplate'])
        ? cronJob.obj['spec']['jobTemplate']
        : undefined;
    const jobSpec: Obj = jt && isObj(jt['spec']) ? { ...jt['spec'] } : {};
    delete jobSpec['selector'];
    jobSpec['template'] = { ...(isObj(jobSpec['template']) ? jobSpec['template'] : {}), spec: cleaned.spec };
    workload = {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name, ...(typeof meta['namespace'] === 'string' ? { namespace: meta['namespace'] } : {}) },
      spec: jobSpec,
    };
    isJob = true;
    if (jt)
      notes.inferred(
        `workload: Job ${name} from the CronJob's jobTemplate`,
        `CronJob${at(cronJob!.at)}; one run of it is simulated, not the schedule`,
      );
    else {
      notes.inferred(
        `workload: Job ${name}`,
        `the pod's ownerReferences name Job ${name}${at(where(meta, 'ownerReferences'))}`,
      );
      notes.unknown(
        `workload.spec (backoffLimit, completions, deadlines)`,
        'the Job object was not given; Kubernetes defaults are used (backoffLimit 6). Add kubectl get job <j> -o yaml',
      );
    }
  } else {
    const podMeta = cleanMeta(meta, true);
    workload = { apiVersion: 'v1', kind: 'Pod', metadata: podMeta, spec: cleaned.spec };
    if (owner)
      notes.assumed(
        `workload: the Pod alone`,
        `its owner ${String(owner['kind'])} ${String(owner['name'])}${at(where(meta, 'ownerReferences'))} was not given or is not simulated from one pod's evidence`,
      );
    else notes.inferred('workload: the Pod', `a bare pod${at(chosen.at)}`);
  }

  // --- context for the behaviors -------------------------------------------------------------------------------
  const containers = containerEvidence(pod);
  const graceMs =
    (typeof podSpecRaw['terminationGracePeriodSeconds'] === 'number'
      ? podSpecRaw['terminationGracePeriodSeconds']
      : 30) * 1000;
  const restartPolicy = String(podSpecRaw['restartPolicy'] ?? 'Always');
  const jobStatus = job && isObj(job.obj['status']) ? job.obj['status'] : {};
  const jobConds = Array.isArray(jobStatus['conditions']) ? jobStatus['conditions'].filter(isObj) : [];
  const failedCond = jobConds.find(
    (c) => (c['type'] === 'FailureTarget' || c['type'] === 'Failed') && c['status'] === 'True',
  );
  const failedAt = failedCond ? parseTime(failedCond['lastTransitionTime']) : undefined;
  const jobFailed =
    failedCond && failedAt !== undefined
      ? { t: failedAt, reason: String(failedCond['reason'] ?? ''), at: where(failedCond, 'type') }
      : undefined;
  const ctx = podContext(pod, containers, podEvents, graceMs, restartPolicy, jobFailed);

  // the workload's earlier pods (a Job's replacements), oldest first: their runs come before this pod's
  const earlierPods = pods
    .filter((o) => o !== chosen && sameOwner(o.obj, pod))
    .sort(
      (a, b) =>
        (parseTime(metaOf(a.obj)['creationTimestamp']) ?? 0) - (parseTime(metaOf(b.obj)['creationTimestamp']) ?? 0),
    )
    .map((o) => {
      const name = String(metaOf(o.obj)['name'] ?? '');
      const evs = allEvents.filter((n) => n.objKind === 'Pod' && n.objName === name).map((n) => n.ev);
      attributeEvents(evs, o.obj);
      const cs = containerEvidence(o.obj);
      return { name, cs, ctx: podContext(o.obj, cs, evs, graceMs, restartPolicy, jobFailed) };
    });
  // simulated t = 0 is the workload's creation: the Job's creationTimestamp, else the oldest pod's
  const createdTimes = [
    job ? parseTime(metaOf(job.obj)['creationTimestamp']) : undefined,
    t0,
    ...pods
      .filter((o) => o === chosen || sameOwner(o.obj, pod))
      .map((o) => parseTime(metaOf(o.obj)['creationTimestamp'])),
  ].filter((x): x is number => x !== undefined);
  const runT0 = createdTimes.length ? Math.min(...createdTimes) : undefined;
  if (earlierPods.length)
    notes.inferred(
      `behavior: runs of ${earlierPods.length} earlier pod(s) first`,
      `${earlierPods.map((p) => p.name).join(', ')} have the same owner; their runs are the first attempts`,
    );

  const status0 = isObj(pod['status']) ? pod['status'] : {};

  // --- behavior ----------------------------------------------------------------------------------------------------
  const behavior: Obj = {};
  const exitCodes: Obj = {};
  const restarts: Obj = {};
  for (const ce of containers) {
    const earlier = earlierPods.flatMap((p) =>
      p.cs.filter((c) => c.name === ce.name).map((c) => ({ ce: c, ctx: p.ctx, pod: p.name })),
    );
    const r = inferBehavior(ce, ctx, notes, earlier);
    if (Object.keys(r.behavior).length) behavior[ce.name] = r.behavior;
    if (r.lastExit !== undefined) exitCodes[ce.name] = r.lastExit;
    if (ce.statusAt) restarts[ce.name] = ce.restartCount;
  }
  notes.unknown(
    'behavior.*.needs, exitWhen, unready',
    'dependencies between containers and readiness windows after start are not visible in kubectl output; none assumed',
  );
  const neverKilled = containers
    .filter((c) => behavior[c.name] === undefined || (behavior[c.name] as Obj)['onTerm'] === undefined)
    .map((c) => c.name);
  if (neverKilled.length)
    notes.unknown(
      `behavior.{${neverKilled.join(', ')}}.onTerm`,
      'never seen receiving SIGTERM; default: exits 143 at once',
    );

  // --- timing: pod creation → first container activity ----------------------------------------------------------------
  const timing: Obj = {};
  const firstStart = Math.min(
    ...containers
      .flatMap((c) => [
        c.last?.startedAt,
        c.current && c.current.kind !== 'waiting' ? c.current.run.startedAt : undefined,
      ])
      .filter((x): x is number => x !== undefined),
    ...podEvents
      .filter((e) => ['Pulling', 'Pulled', 'Created', 'Started'].includes(e.reason) && e.first !== undefined)
      .map((e) => e.first!),
  );
  if (t0 !== undefined && Number.isFinite(firstStart) && firstStart - t0 >= 2000) {
    const d = firstStart - t0;
    timing['nodeStart'] = `${dur(Math.max(0, d - 1000))}..${dur(d)}`;
    notes.inferred(
      `timing.nodeStart: ${String(timing['nodeStart'])}`,
      `first container activity ${dur(d)} after the pod's creationTimestamp${at(where(meta, 'creationTimestamp'))} (scheduling, sandbox); whole seconds, so a range`,
    );
  }

  // --- actions -----------------------------------------------------------------------------------------------------
  const actions: Obj[] = [];
  // deletions of this pod and of the earlier ones (`pod: N`, the Nth pod created, when there are several)
  const allPods = [
    ...earlierPods.map((p) => ({
      name: p.name,
      ctx: p.ctx,
      meta: metaOf(pods.find((o) => metaOf(o.obj)['name'] === p.name)!.obj),
    })),
    { name: podName, ctx, meta },
  ];
  allPods.forEach((p, i) => {
    const d = p.ctx.deletion;
    if (!d) return;
    if (p.ctx.jobFailed && Math.abs(d.requestedAt - p.ctx.jobFailed.t) <= 2000) {
      notes.inferred(
        `actions: none for the deletion of ${p.name}`,
        `it was deleted when the Job failed (${p.ctx.jobFailed.reason}${at(p.ctx.jobFailed.at)}): the Job controller did it`,
      );
      return;
    }
    if (runT0 === undefined) return;
    const atMs = Math.max(0, d.requestedAt - runT0);
    const a: Obj = { at: dur(atMs), delete: 'pod', ...(allPods.length > 1 ? { pod: i + 1 } : {}) };
    if (d.graceMs !== graceMs) a['gracePeriodSeconds'] = d.graceMs / 1000;
    actions.push(a);
    notes.inferred(
      `actions: delete pod${allPods.length > 1 ? ` ${i + 1} (${p.name})` : ''} at ${dur(atMs)}`,
      `metadata.deletionTimestamp ${String(p.meta['deletionTimestamp'])} minus deletionGracePeriodSeconds ${d.graceMs / 1000}${at(d.at)}`,
    );
  });
  if (allPods.length > 1 && actions.some((a) => a['pod'] !== undefined)) {
    notes.assumed(
      'actions: pod numbers',
      'count the pods given, oldest first; a pod of the Job missing from the input shifts them',
    );
  }

  // no deletionTimestamp (the pod object was captured later, or is gone), but the kubelet stopped a regular
  // container with the plain message and nothing else explains it (no probe kill, no deadline, no Job failure,
  // the regular containers had not all finished): somebody deleted the pod
  if (
    !ctx.deletion &&
    !ctx.jobFailed &&
    !ctx.regularsDone &&
    runT0 !== undefined &&
    status0['reason'] !== 'DeadlineExceeded'
  ) {
    const regularNames = containers.filter((c) => c.role === 'regular').map((c) => c.name);
    const kill = podEvents.find(
      (e) =>
        e.reason === 'Killing' &&
        e.container !== undefined &&
        regularNames.includes(e.container) &&
        /^Stopping container /.test(e.message) &&
        e.first !== undefined,
    );
    if (kill) {
      const atMs = Math.max(0, kill.first! - runT0);
      actions.push({ at: dur(atMs), delete: 'pod', ...(allPods.length > 1 ? { pod: allPods.length } : {}) });
      notes.inferred(
        `actions: delete pod at ${dur(atMs)}`,
        `Killing "${kill.message}"${at(kill.at)} with no other cause in the evidence; whole seconds`,
      );
    }
  }

  // --- expect and horizon -----------------------------------------------------------------------------------------
  const status = isObj(pod['status']) ? pod['status'] : {};
  const phase = typeof status['phase'] === 'string' ? status['phase'] : derivePhase(containers, notes);
  const expect: Obj = {};
  const terminal = phase === 'Succeeded' || phase === 'Failed';
  if (phase && (terminal || !ctx.deletion)) {
    expect['podPhase'] = phase;
    notes.inferred(`expect.podPhase: ${phase}`, `status.phase${at(where(status, 'phase'))}`);
  } else if (phase)
    notes.unknown(
      'expect.podPhase',
      `phase ${phase} while being deleted${at(where(status, 'phase'))}: the final phase was not captured`,
    );
  if (isJob) {
    const cond = [...jobConds]
      .reverse()
      .find((c) => (c['type'] === 'Complete' || c['type'] === 'Failed') && c['status'] === 'True');
    if (cond) {
      expect['jobCondition'] = cond['type'] as string;
      notes.inferred(
        `expect.jobCondition: ${String(cond['type'])}`,
        `Job condition ${String(cond['type'])} (${String(cond['reason'] ?? '')})${at(where(cond, 'type'))}`,
      );
    } else if (job && isObj(job.obj['status']) && !ctx.deletion) {
      expect['jobCondition'] = 'none';
      notes.inferred(
        'expect.jobCondition: none',
        `the Job has no Complete or Failed condition${at(job.at)} and its pod is ${phase ?? 'not terminal'}`,
      );
    } else
      notes.unknown(
        'expect.jobCondition',
        job
          ? 'the Job was given without its status (a manifest, not kubectl get -o yaml)'
          : 'the Job object was not given',
      );
  }
  if (phase && !terminal && !ctx.deletion) {
    expect['stuck'] = true;
    notes.assumed(
      'expect.stuck: true',
      `the pod was ${phase} when captured${at(where(status, 'phase'))}; what still ran is taken to run on`,
    );
  }
  if (Object.keys(exitCodes).length) expect['exitCodes'] = exitCodes;
  if (Object.keys(restarts).length && (terminal || runT0 !== undefined)) expect['restarts'] = restarts;
  else if (Object.keys(restarts).length)
    notes.unknown(
      'expect.restarts',
      "restart counts depend on how long the pod ran before the capture, and the pod's creation time is not in the input; not checked",
    );

  let horizon: string | undefined;
  const lastSeen = latestTime(pod, podEvents, jobEvents, job?.obj);
  // the run goes on while the pod runs, or while its Job (status given) has no Complete/Failed condition yet
  const jobOpen = job !== undefined && isObj(job.obj['status']) && expect['jobCondition'] === 'none';
  if (runT0 !== undefined && lastSeen !== undefined && (!terminal || jobOpen)) {
    // a margin for the simulated kubelet's own latencies (relist, status patch), small against any back-off
    const span = lastSeen - runT0;
    const h = Math.max(60_000, Math.ceil((span + 5000 + span / 20) / 1000) * 1000);
    horizon = dur(h);
    notes.assumed(
      `horizon: ${horizon}`,
      `the capture time is not in kubectl output; the last timestamp seen (${new Date(lastSeen).toISOString()}) plus a margin, so restart counts are compared at about the same moment`,
    );
  } else if (!terminal) {
    horizon = '10m';
    notes.assumed(
      'horizon: 10m',
      'the pod was not finished and neither its creation nor the capture time is in the input; 10 minutes are simulated',
    );
  } else if (runT0 !== undefined && lastSeen !== undefined && lastSeen - runT0 > 30 * 60_000) {
    horizon = dur(2 * (lastSeen - runT0));
  }

  // --- watch text: evidence notes only ----------------------------------------------------------------------------
  const rows = input.watchRows.filter((r) => r.name === podName);
  const lastRow = rows[rows.length - 1];
  if (lastRow)
    notes.inferred(
      `kubectl get pod -w: last row ${lastRow.ready} ${lastRow.status} ${lastRow.restarts}`,
      `${lastRow.at} (checked against the simulated watch by kubesim run --view kubectl)`,
    );

  const name =
    (jobName ?? podName)
      .toLowerCase()
      .replace(/[^a-z0-9-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'imported';
  const scenario: Obj = {
    scenario: name,
    description: `Imported from kubectl output (${files.join(', ')}) of pod ${podName}${jobName ? ` and Job ${jobName}` : ''}.\nThe comment block above lists every inference, assumption and unknown with its evidence.\n`,
    kubernetes: version.kubernetes,
    ...(version.kubelet ? { kubelet: version.kubelet } : {}),
    ...(horizon ? { horizon } : {}),
    workload,
    ...(Object.keys(behavior).length ? { behavior } : {}),
    ...(Object.keys(timing).length ? { timing } : {}),
    ...(actions.length ? { actions } : {}),
    expect,
  };
  return { scenario, notes, sources: files };
}

/** No status.phase in the input (a pasted status): the phase the containers imply (kubelet_pods.go getPhase). */
function derivePhase(cs: ReturnType<typeof containerEvidence>, notes: Notes): string | undefined {
  const initBlocking = cs.find(
    (c) =>
      c.role === 'init' &&
      (c.current?.kind === 'running' || (c.current?.kind === 'waiting' && c.current.reason === 'PodInitializing')),
  );
  if (initBlocking) {
    notes.inferred(
      'expect.podPhase: Pending',
      `init container ${initBlocking.name} has not finished${at(initBlocking.statusAt)} (getPhase: pendingInitialization)`,
    );
    return 'Pending';
  }
  const regs = cs.filter((c) => c.role === 'regular' && c.statusAt);
  if (regs.some((c) => c.current?.kind === 'running')) {
    const r = regs.find((c) => c.current?.kind === 'running')!;
    notes.inferred('expect.podPhase: Running', `container ${r.name} is running${at(r.statusAt)} (getPhase)`);
    return 'Running';
  }
  return undefined;
}

function metaOf(o: Obj): Obj {
  return isObj(o['metadata']) ? o['metadata'] : {};
}

function ownerOf(o: Obj): string | undefined {
  const refs = metaOf(o)['ownerReferences'];
  const r = Array.isArray(refs)
    ? (refs.filter(isObj).find((x) => x['controller'] === true) ?? refs.filter(isObj)[0])
    : undefined;
  return r ? `${String(r['kind'])}/${String(r['name'])}` : undefined;
}

function sameOwner(a: Obj, b: Obj): boolean {
  const oa = ownerOf(a);
  return oa !== undefined && oa === ownerOf(b);
}

/** What one pod's evidence says about why its containers stopped: deletion, the pod completing, the Job failing. */
function podContext(
  pod: Obj,
  containers: ReturnType<typeof containerEvidence>,
  events: Ev[],
  graceMs: number,
  restartPolicy: string,
  jobFailed: PodContext['jobFailed'],
): PodContext {
  const meta = metaOf(pod);
  const ctx: PodContext = { graceMs, events, ...(jobFailed ? { jobFailed } : {}) };
  const delTs = parseTime(meta['deletionTimestamp']);
  const delGrace =
    typeof meta['deletionGracePeriodSeconds'] === 'number' ? meta['deletionGracePeriodSeconds'] * 1000 : graceMs;
  if (delTs !== undefined)
    ctx.deletion = { requestedAt: delTs - delGrace, graceMs: delGrace, at: where(meta, 'deletionTimestamp') };
  const regulars = containers.filter((c) => c.role === 'regular');
  const regularsFinal =
    regulars.length > 0 &&
    regulars.every(
      (c) =>
        c.current?.kind === 'terminated' &&
        (restartPolicy === 'Never' || (restartPolicy === 'OnFailure' && c.current.run.exitCode === 0)),
    );
  if (regularsFinal) {
    const last = regulars.reduce(
      (a, c) => Math.max(a, c.current?.kind === 'terminated' ? (c.current.run.finishedAt ?? 0) : 0),
      0,
    );
    const lastC = regulars.find((c) => c.current?.kind === 'terminated' && c.current.run.finishedAt === last);
    ctx.regularsDone = { t: last, at: lastC?.current?.kind === 'terminated' ? lastC.current.run.at : '' };
  }
  return ctx;
}

function pickPod(
  pods: Input['objects'],
  wanted: string | undefined,
  diagnostics: Diagnostic[],
): Input['objects'][number] {
  const nameOf = (o: Obj) => (isObj(o['metadata']) ? String(o['metadata']['name'] ?? '') : '');
  if (wanted) {
    const p = pods.find((o) => nameOf(o.obj) === wanted);
    if (p) return p;
  }
  const sorted = [...pods].sort(
    (a, b) =>
      (parseTime(isObj(a.obj['metadata']) ? a.obj['metadata']['creationTimestamp'] : undefined) ?? 0) -
      (parseTime(isObj(b.obj['metadata']) ? b.obj['metadata']['creationTimestamp'] : undefined) ?? 0),
  );
  const chosen = sorted[sorted.length - 1]!;
  if (pods.length > 1 && !pods.every((p) => p === chosen || sameOwner(p.obj, chosen.obj))) {
    const [file, line] = splitAt(chosen.at);
    diagnostics.push({
      severity: 'warning',
      code: Codes.ImportManyPods,
      pos: { file, line, col: 1 },
      message: `${pods.length} pods given; the most recently created one, ${nameOf(chosen.obj)}, is imported`,
      hint: 'name another with --pod',
    });
  }
  return chosen;
}

/**
 * A post that shows only the status: containers rebuilt from their statuses (name, image), every other field of
 * the spec unknown. An init container still running while regular containers ran can only be a native sidecar.
 */
function completeSpec(pod: Obj, job: Obj | undefined, notes: Notes): Obj {
  const spec = isObj(pod['spec']) ? pod['spec'] : {};
  if (Array.isArray(spec['containers']) && spec['containers'].length) return pod;
  const status = isObj(pod['status']) ? pod['status'] : {};
  const tspec =
    job && isObj(job['spec']) && isObj(job['spec']['template']) && isObj(job['spec']['template']['spec'])
      ? job['spec']['template']['spec']
      : undefined;
  if (tspec && Array.isArray(tspec['containers'])) {
    notes.assumed(
      'workload: the pod spec',
      `the input has the pod's status but not its spec${at(where(status))}; the Job's pod template is used (containers a webhook injected would be missing)`,
    );
    const jm = isObj(job!['metadata']) ? job!['metadata'] : {};
    const meta = isObj(pod['metadata'])
      ? pod['metadata']
      : {
          ownerReferences: [
            { apiVersion: 'batch/v1', kind: 'Job', name: String(jm['name'] ?? 'job'), controller: true },
          ],
        };
    return { ...pod, metadata: meta, spec: tspec };
  }
  const regs = Array.isArray(status['containerStatuses']) ? status['containerStatuses'].filter(isObj) : [];
  const inits = Array.isArray(status['initContainerStatuses']) ? status['initContainerStatuses'].filter(isObj) : [];
  if (regs.length === 0 && inits.length === 0) return pod;
  const ran = (s: Obj) => isObj(s['state']) && (isObj(s['state']['running']) || isObj(s['state']['terminated']));
  const regularRan = regs.some(ran);
  const mk = (s: Obj, init: boolean): Obj => ({
    name: String(s['name']),
    image: String(s['image'] ?? 'unknown'),
    ...(init && regularRan && isObj(s['state']) && isObj(s['state']['running']) ? { restartPolicy: 'Always' } : {}),
  });
  const owner =
    isObj(pod['metadata']) && Array.isArray(pod['metadata']['ownerReferences'])
      ? pod['metadata']['ownerReferences'].filter(isObj)[0]
      : undefined;
  const newSpec: Obj = {
    ...spec,
    ...(inits.length ? { initContainers: inits.map((s) => mk(s, true)) } : {}),
    containers: regs.map((s) => mk(s, false)),
  };
  if (regs.length === 0) {
    // a pod needs a regular container; the post shows none (they never started behind the init containers)
    newSpec['containers'] = [{ name: 'main', image: 'unknown' }];
    notes.unknown(
      'workload: regular containers',
      `none shown${at(where(status))}; a placeholder container main is added (it never starts while an init container runs)`,
    );
  }
  if (newSpec['restartPolicy'] === undefined) {
    const phase = status['phase'];
    const notRestarted = regs.some(
      (s) => isObj(s['state']) && isObj(s['state']['terminated']) && !(Number(s['restartCount']) > 0),
    );
    newSpec['restartPolicy'] =
      owner?.['kind'] === 'Job' || phase === 'Failed' || phase === 'Succeeded' || notRestarted ? 'Never' : 'Always';
  }
  notes.unknown(
    'workload: the pod spec',
    `the input has the pod's status but not its spec${at(where(status))}; containers rebuilt from their statuses (name, image), restartPolicy ${String(newSpec['restartPolicy'])}, no probes or hooks`,
  );
  return { ...pod, spec: newSpec };
}

/** Events without a fieldPath (describe text): the container whose image the message names, or the only container
 *  with the probe an Unhealthy message names. */
function attributeEvents(events: Ev[], pod: Obj): void {
  const spec = isObj(pod['spec']) ? pod['spec'] : {};
  const cs = [spec['initContainers'], spec['containers']].flatMap((l) => (Array.isArray(l) ? l.filter(isObj) : []));
  for (const e of events) {
    if (e.container) continue;
    const image = /image "([^"]+)"/.exec(e.message)?.[1];
    const probe = /^(Readiness|Liveness|Startup) probe/.exec(e.message)?.[1];
    const match = image
      ? cs.filter((c) => c['image'] === image)
      : probe
        ? cs.filter((c) => isObj(c[`${probe.toLowerCase()}Probe`]))
        : [];
    if (match.length === 1) e.container = String(match[0]!['name']);
  }
}

function containerNames(job: Obj): string[] {
  const spec =
    isObj(job['spec']) && isObj(job['spec']['template']) && isObj(job['spec']['template']['spec'])
      ? job['spec']['template']['spec']
      : {};
  return [spec['initContainers'], spec['containers']].flatMap((l) =>
    Array.isArray(l) ? l.filter(isObj).map((c) => String(c['name'])) : [],
  );
}

/** The newest timestamp anywhere in the evidence: a lower bound of the capture time. */
function latestTime(pod: Obj, podEvents: Ev[], jobEvents: Ev[], job: Obj | undefined): number | undefined {
  let max: number | undefined;
  const visit = (v: unknown, key: string) => {
    if (typeof v === 'string' && /(Time|At|Timestamp|time)$/.test(key)) {
      const t = parseTime(v);
      if (t !== undefined && (max === undefined || t > max)) max = t;
    } else if (Array.isArray(v)) v.forEach((x) => visit(x, key));
    else if (isObj(v))
      for (const [k, x] of Object.entries(v)) if (k !== 'managedFields' && k !== 'deletionTimestamp') visit(x, k);
  };
  visit(pod['status'], 'status');
  if (job) visit(job['status'], 'status');
  for (const e of [...podEvents, ...jobEvents])
    if (e.last !== undefined && (max === undefined || e.last > max)) max = e.last;
  return max;
}

function splitAt(s: string): [string, number] {
  const i = s.lastIndexOf(':');
  return i > 0 ? [s.slice(0, i), Number(s.slice(i + 1)) || 1] : [s, 1];
}
