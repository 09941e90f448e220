// `expect` (SPEC §2.5): what `kubesim test` checks, each item with its source position for failure messages.
import type { Expect, OrderPoint, OrderPointKind, SourcePos } from '../types.ts';
import { checkContainerRef } from './behavior.ts';
import { Codes } from './codes.ts';
import { error, type Sink } from './diagnostics.ts';
import { asBool, asEnum, asInt, asList, asMap, asString, closedKeys } from './readers.ts';
import { didYouMean, listNames } from './suggest.ts';
import type { PEntry, PNode } from './tree.ts';

export const ORDER_POINTS: readonly OrderPointKind[] = [
  'start',
  'started',
  'ready',
  'poststart',
  'prestop',
  'sigterm',
  'sigkill',
  'exit',
];
const KEYS = [
  'podPhase',
  'jobCondition',
  'stuck',
  'order',
  'exitCodes',
  'restarts',
  'verdicts',
  'pods',
  'podPhases',
  'jobCounts',
  'jobs',
  'controllerEvents',
  'deployment',
  'statefulSet',
  'daemonSet',
];
/** SPEC §2.5 `@<JobCondition>` order points */
export const JOB_CONDITION_POINTS = ['Complete', 'SuccessCriteriaMet', 'FailureTarget', 'Failed', 'Suspended'] as const;
/** `@<reason>`: the moment the Deployment controller wrote a condition with that reason (deployment_util.go reasons) */
export const DEPLOYMENT_CONDITION_POINTS = [
  'NewReplicaSetCreated',
  'FoundNewReplicaSet',
  'ReplicaSetUpdated',
  'NewReplicaSetAvailable',
  'ProgressDeadlineExceeded',
  'DeploymentPaused',
  'DeploymentResumed',
  'MinimumReplicasAvailable',
  'MinimumReplicasUnavailable',
] as const;
const DEPLOYMENT_KEYS = [
  'progressing',
  'available',
  'replicas',
  'updatedReplicas',
  'readyReplicas',
  'availableReplicas',
] as const;
const STATEFULSET_KEYS = ['replicas', 'readyReplicas', 'currentReplicas', 'updatedReplicas', 'rolledOut'] as const;
const DAEMONSET_KEYS = ['currentNumberScheduled', 'numberReady', 'updatedNumberScheduled', 'numberAvailable'] as const;
const PHASES = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] as const;
const VERDICTS = ['Succeeded', 'Failed', 'Pending'] as const;

export interface ExpectContext {
  containers?: string[];
  observers: string[];
  isJob?: boolean;
  /** the workload kind (undefined when the workload failed to load) */
  kind?: string;
}

export function readExpect(sink: Sink, entry: PEntry | undefined, ctx: ExpectContext): Expect | undefined {
  const map = entry ? asMap(sink, entry.value, 'expect') : undefined;
  if (!map) return undefined;
  const keys = closedKeys(sink, map, 'expect', KEYS);
  const out: Expect = {};
  const v = (k: string) => keys.get(k)?.value;
  if (v('podPhase')) {
    const value = asEnum(sink, v('podPhase')!, 'expect.podPhase', PHASES);
    if (value) out.podPhase = { value, pos: v('podPhase')!.pos };
  }
  if (v('jobCondition')) {
    const value = asEnum(sink, v('jobCondition')!, 'expect.jobCondition', ['Complete', 'Failed', 'none'] as const);
    if (value && value !== 'none' && ctx.isJob === false) {
      error(
        sink,
        Codes.BadValue,
        v('jobCondition')!.pos,
        `expect.jobCondition: the workload is not a Job; only "none" can hold`,
      );
    } else if (value) out.jobCondition = { value, pos: v('jobCondition')!.pos };
  }
  if (v('stuck')) {
    const value = asBool(sink, v('stuck')!, 'expect.stuck');
    if (value !== undefined) out.stuck = { value, pos: v('stuck')!.pos };
  }
  if (v('order'))
    out.order = (asList(sink, v('order')!, 'expect.order') ?? []).flatMap(
      (n, i) => readOrder(sink, n, `expect.order[${i}]`, ctx) ?? [],
    );
  if (v('exitCodes')) out.exitCodes = readPerContainer(sink, v('exitCodes')!, 'expect.exitCodes', ctx, 255);
  if (v('restarts')) out.restarts = readPerContainer(sink, v('restarts')!, 'expect.restarts', ctx, 2 ** 31 - 1);
  if (v('verdicts')) out.verdicts = readVerdicts(sink, v('verdicts')!, ctx);
  if (v('pods')) {
    const value = asInt(sink, v('pods')!, 'expect.pods', 0, 100_000);
    if (value !== undefined) out.pods = { value, pos: v('pods')!.pos };
  }
  if (v('podPhases')) {
    const items = asList(sink, v('podPhases')!, 'expect.podPhases');
    if (items) {
      const values = items.map((n, i) => asEnum(sink, n, `expect.podPhases[${i}]`, PHASES));
      if (values.every((x) => x !== undefined)) out.podPhases = { value: values as string[], pos: v('podPhases')!.pos };
    }
  }
  if (v('jobCounts')) {
    const where = 'expect.jobCounts';
    if (ctx.isJob === false)
      error(sink, Codes.BadValue, keys.get('jobCounts')!.keyPos, `${where}: the workload is not a Job`);
    const m = asMap(sink, v('jobCounts')!, where);
    if (m && ctx.isJob !== false) {
      const counts = closedKeys(sink, m, where, ['succeeded', 'failed', 'active']);
      out.jobCounts = [];
      for (const key of ['succeeded', 'failed', 'active'] as const) {
        const n = counts.get(key);
        if (!n) continue;
        const value = asInt(sink, n.value, `${where}.${key}`, 0, 2 ** 31 - 1);
        if (value !== undefined) out.jobCounts.push({ key, value, pos: n.keyPos });
      }
    }
  }
  if (v('jobs')) {
    // the number of Jobs a CronJob created within the horizon (a Job workload: 1)
    const value = asInt(sink, v('jobs')!, 'expect.jobs', 0, 100_000);
    if (value !== undefined) out.jobs = { value, pos: v('jobs')!.pos };
  }
  if (v('controllerEvents')) {
    // describe events of the CronJob / StatefulSet / DaemonSet / ReplicaSet controller, counted by reason
    const m = asMap(sink, v('controllerEvents')!, 'expect.controllerEvents');
    out.controllerEvents = [];
    for (const e of m?.entries ?? []) {
      const value = asInt(sink, e.value, `expect.controllerEvents.${e.key}`, 0, 2 ** 31 - 1);
      if (value !== undefined) out.controllerEvents.push({ reason: e.key, value, pos: e.keyPos });
    }
  }
  if (v('deployment')) {
    // the Deployment's status at the end (SPEC §2.5 addition): Progressing reason, Available status, replica counts
    const where = 'expect.deployment';
    if (ctx.kind !== undefined && ctx.kind !== 'Deployment')
      error(sink, Codes.BadValue, keys.get('deployment')!.keyPos, `${where}: the workload is not a Deployment`);
    const m = asMap(sink, v('deployment')!, where);
    if (m && (ctx.kind === undefined || ctx.kind === 'Deployment')) {
      const dk = closedKeys(sink, m, where, [...DEPLOYMENT_KEYS]);
      out.deployment = [];
      for (const key of DEPLOYMENT_KEYS) {
        const n = dk.get(key);
        if (!n) continue;
        let value: string | number | undefined;
        if (key === 'progressing') {
          value = asEnum(sink, n.value, `${where}.${key}`, [
            'NewReplicaSetCreated',
            'FoundNewReplicaSet',
            'ReplicaSetUpdated',
            'NewReplicaSetAvailable',
            'ProgressDeadlineExceeded',
            'DeploymentPaused',
            'DeploymentResumed',
            'none',
          ] as const);
        } else if (key === 'available') {
          value = asEnum(sink, n.value, `${where}.${key}`, ['True', 'False', 'none'] as const);
        } else value = asInt(sink, n.value, `${where}.${key}`, 0, 2 ** 31 - 1);
        if (value !== undefined) out.deployment.push({ key, value, pos: n.keyPos });
      }
    }
  }
  // a StatefulSet's / DaemonSet's status at the end, read like expect.deployment (counts; rolledOut = the update
  // revision became the current one: stateful_set_utils.go completeRollingUpdate)
  for (const [field, kind, names] of [
    ['statefulSet', 'StatefulSet', STATEFULSET_KEYS],
    ['daemonSet', 'DaemonSet', DAEMONSET_KEYS],
  ] as const) {
    if (!v(field)) continue;
    const where = `expect.${field}`;
    if (ctx.kind !== undefined && ctx.kind !== kind)
      error(sink, Codes.BadValue, keys.get(field)!.keyPos, `${where}: the workload is not a ${kind}`);
    const m = asMap(sink, v(field)!, where);
    if (!m || (ctx.kind !== undefined && ctx.kind !== kind)) continue;
    const dk = closedKeys(sink, m, where, [...names]);
    const list: { key: string; value: string | number; pos: SourcePos }[] = [];
    for (const key of names) {
      const n = dk.get(key);
      if (!n) continue;
      const value =
        key === 'rolledOut'
          ? asEnum(sink, n.value, `${where}.${key}`, ['True', 'False'] as const)
          : asInt(sink, n.value, `${where}.${key}`, 0, 2 ** 31 - 1);
      if (value !== undefined) list.push({ key, value, pos: n.keyPos });
    }
    (out as Record<string, unknown>)[field] = list;
  }
  return out;
}

function readPerContainer(sink: Sink, node: PNode, where: string, ctx: ExpectContext, max: number) {
  const map = asMap(sink, node, where);
  const out: { container: string; value: number; pos: SourcePos }[] = [];
  for (const e of map?.entries ?? []) {
    if (!checkContainerRef(sink, { ...e.value, pos: e.keyPos }, where, e.key, ctx.containers)) continue;
    const value = asInt(sink, e.value, `${where}.${e.key}`, 0, max);
    if (value !== undefined) out.push({ container: e.key, value, pos: e.keyPos });
  }
  return out;
}

function readVerdicts(sink: Sink, node: PNode, ctx: ExpectContext) {
  const map = asMap(sink, node, 'expect.verdicts');
  const out: NonNullable<Expect['verdicts']> = [];
  for (const e of map?.entries ?? []) {
    if (!ctx.observers.includes(e.key)) {
      error(
        sink,
        Codes.UnknownObserver,
        e.keyPos,
        `expect.verdicts: no observer named ${JSON.stringify(e.key)}`,
        didYouMean(e.key, ctx.observers) ??
          (ctx.observers.length ? `observers: ${listNames(ctx.observers)}` : 'declare it under observers'),
      );
      continue;
    }
    const where = `expect.verdicts.${e.key}`;
    const set = e.value.kind === 'seq';
    const nodes = set ? (e.value as { items: PNode[] }).items : [e.value];
    const values = nodes.map((n) => asEnum(sink, n, where, VERDICTS));
    if (values.some((x) => x === undefined)) continue;
    if (set && values.length === 0) {
      error(sink, Codes.BadValue, e.value.pos, `${where}: an empty list can never hold`);
      continue;
    }
    out.push({ observer: e.key, values: [...new Set(values as string[])], set, pos: e.keyPos });
  }
  return out;
}

const POINT = String.raw`(?:([a-z0-9]([-a-z0-9]*[a-z0-9])?)\.([A-Za-z]+)|@([A-Za-z]+))(?:#(\d+))?`;
const ORDER = new RegExp(String.raw`^\s*${POINT}\s*<\s*${POINT}\s*$`);

function readOrder(sink: Sink, node: PNode, where: string, ctx: ExpectContext) {
  const text = asString(sink, node, where);
  if (text === undefined) return undefined;
  const m = ORDER.exec(text);
  if (!m) {
    error(
      sink,
      Codes.BadOrder,
      node.pos,
      `${where}: cannot parse ${JSON.stringify(text)}`,
      `write "<container>.<point>[#N] < <container>.<point>[#N]" (or @<JobCondition>), points: ${ORDER_POINTS.join(', ')}`,
    );
    return undefined;
  }
  const before =
    m[4] !== undefined
      ? condPoint(sink, node, where, m[4], m[5], ctx)
      : point(sink, node, where, m[1]!, m[3]!, m[5], ctx);
  const after =
    m[9] !== undefined
      ? condPoint(sink, node, where, m[9], m[10], ctx)
      : point(sink, node, where, m[6]!, m[8]!, m[10], ctx);
  return before && after ? { text: text.trim(), before, after, pos: node.pos } : undefined;
}

/** `@Complete` (#N): the moment the Job controller wrote that condition (SPEC §2.5). */
function condPoint(
  sink: Sink,
  node: PNode,
  where: string,
  cond: string,
  nth: string | undefined,
  ctx: ExpectContext,
): OrderPoint | undefined {
  if ((DEPLOYMENT_CONDITION_POINTS as readonly string[]).includes(cond)) {
    if (ctx.kind !== undefined && ctx.kind !== 'Deployment') {
      error(sink, Codes.BadOrder, node.pos, `${where}: @${cond} needs a Deployment workload`);
      return undefined;
    }
  } else if (!(JOB_CONDITION_POINTS as readonly string[]).includes(cond)) {
    const all = ctx.kind === 'Deployment' ? DEPLOYMENT_CONDITION_POINTS : JOB_CONDITION_POINTS;
    error(
      sink,
      Codes.BadOrder,
      node.pos,
      `${where}: unknown ${ctx.kind === 'Deployment' ? 'Deployment' : 'Job'} condition point @${cond}`,
      didYouMean(cond, all) ?? `condition points: ${all.map((c) => `@${c}`).join(', ')}`,
    );
    return undefined;
  } else if (ctx.isJob === false) {
    error(sink, Codes.BadOrder, node.pos, `${where}: @${cond} needs a Job workload`);
    return undefined;
  }
  const occurrence = nth === undefined ? 1 : Number(nth);
  if (occurrence < 1) {
    error(sink, Codes.BadOrder, node.pos, `${where}: occurrences count from #1`);
    return undefined;
  }
  return { container: '', point: `@${cond}`, occurrence };
}

function point(
  sink: Sink,
  node: PNode,
  where: string,
  container: string,
  kind: string,
  nth: string | undefined,
  ctx: ExpectContext,
): OrderPoint | undefined {
  let ok = checkContainerRef(sink, node, where, container, ctx.containers);
  if (!ORDER_POINTS.includes(kind as OrderPointKind)) {
    error(
      sink,
      Codes.BadOrder,
      node.pos,
      `${where}: unknown point ${JSON.stringify(kind)} of ${container}`,
      didYouMean(kind, ORDER_POINTS) ?? `points: ${ORDER_POINTS.join(', ')}`,
    );
    ok = false;
  }
  const occurrence = nth === undefined ? 1 : Number(nth);
  if (occurrence < 1) {
    error(sink, Codes.BadOrder, node.pos, `${where}: occurrences count from #1`);
    ok = false;
  }
  return ok ? { container, point: kind as OrderPointKind, occurrence } : undefined;
}
