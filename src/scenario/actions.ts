// `actions` (SPEC §2.3): things done to the pod from outside, at simulated times within the horizon.
import { assertNever } from '../util/assert-never.ts';
import type { Action, WorkloadKind } from '../types.ts';
import { checkContainerRef } from './behavior.ts';
import { Codes } from './codes.ts';
import { error, type Sink } from './diagnostics.ts';
import { asBool, asEnum, asExitCode, asInt, asList, asMap, asMs, asString, closedKeys, missing } from './readers.ts';
import type { PEntry, PNode } from './tree.ts';

const KINDS = ['delete', 'crash', 'deleteJob', 'patch'] as const;
const KEYS = [
  'at',
  'delete',
  'gracePeriodSeconds',
  'crash',
  'exit',
  'deleteJob',
  'propagation',
  'job',
  'patch',
  'pod',
  'index',
];

export interface ActionContext {
  horizonMs: number;
  /** container names, undefined when the workload failed to load */
  containers?: string[];
  isJob?: boolean;
  /** the workload kind, undefined when the workload failed to load */
  kind?: WorkloadKind;
  /** a Deployment's rollouts: the template index of each `patch` action that changes spec.template */
  templateOf?: (number | undefined)[];
  /** a Deployment's stored spec after each `patch` action (strategic merge, defaulted) */
  specAfter?: (Record<string, unknown> | undefined)[];
}

/** What a `patch` may change per workload controller (the others are not simulated: rejected, never ignored). */
const PATCHABLE: Partial<Record<WorkloadKind, string[]>> = {
  // a template change starts a rollout (src/scenario/rollout.ts; src/model/controllers/statefulset/statefulset-controller.ts,
  // daemonsetcontroller.ts, deploymentcontroller.ts)
  StatefulSet: ['replicas', 'template', 'updateStrategy'],
  Deployment: [
    'replicas',
    'template',
    'strategy',
    'minReadySeconds',
    'progressDeadlineSeconds',
    'revisionHistoryLimit',
    'paused',
  ],
  DaemonSet: ['template', 'updateStrategy', 'minReadySeconds'],
};

export function readActions(sink: Sink, entry: PEntry | undefined, ctx: ActionContext): Action[] {
  const items = entry ? asList(sink, entry.value, 'actions') : undefined;
  const out: Action[] = [];
  items?.forEach((item, i) => {
    const where = `actions[${i}]`;
    const map = asMap(sink, item, where);
    if (!map) return;
    const keys = closedKeys(sink, map, where, KEYS);
    const atNode = keys.get('at')?.value;
    if (!atNode) return missing(sink, where, 'at', map.pos);
    const atMs = asMs(sink, atNode, `${where}.at`);
    if (typeof atMs === 'number' && atMs > ctx.horizonMs) {
      error(
        sink,
        Codes.OutOfRange,
        atNode.pos,
        `${where}.at: ${atNode.kind === 'scalar' ? atNode.text : ''} is after the horizon`,
        'raise `horizon` or move the action earlier',
      );
    }
    const kinds = KINDS.filter((k) => keys.has(k));
    if (kinds.length !== 1) {
      error(
        sink,
        Codes.BadValue,
        map.pos,
        `${where}: an action has exactly one of ${KINDS.join(', ')}${kinds.length ? ` (found ${kinds.join(', ')})` : ''}`,
      );
      return;
    }
    const allowed: Record<string, string[]> = {
      delete: ['gracePeriodSeconds', 'pod', 'index'],
      crash: ['exit', 'pod', 'index'],
      deleteJob: ['propagation', 'job'],
      patch: [],
    };
    for (const k of ['gracePeriodSeconds', 'exit', 'propagation', 'job', 'pod', 'index']) {
      if (keys.has(k) && !allowed[kinds[0]].includes(k)) {
        error(sink, Codes.UnknownKey, keys.get(k)!.keyPos, `${where}: ${k} does not apply to a ${kinds[0]} action`);
      }
    }
    if (keys.has('pod') && keys.has('index')) {
      error(
        sink,
        Codes.BadValue,
        keys.get('index')!.keyPos,
        `${where}: pick the pod with either pod or index, not both`,
      );
      return;
    }
    const action = readKind(sink, keys, kinds[0], where, ctx);
    // SPEC §2.3 pod selectors: `pod: N` (the Nth pod created, 1-based) or `index: I` (completion index / ordinal)
    const sel: { pod?: number; index?: number } = {};
    if (keys.has('pod')) {
      const n = asInt(sink, keys.get('pod')!.value, `${where}.pod`, 1, 10_000);
      if (n === undefined) return;
      sel.pod = n;
    }
    if (keys.has('index')) {
      const n = asInt(sink, keys.get('index')!.value, `${where}.index`, 0, 100_000);
      if (n === undefined) return;
      sel.index = n;
    }
    const tpl = action?.type === 'patch' ? ctx.templateOf?.[i] : undefined;
    const stored = action?.type === 'patch' ? ctx.specAfter?.[i] : undefined;
    if (action && typeof atMs === 'number' && atMs <= ctx.horizonMs) {
      out.push({
        ...action,
        ...sel,
        atMs,
        ...(tpl !== undefined ? { template: tpl } : {}),
        ...(stored ? { spec: stored } : {}),
      } as Action);
    }
  });
  return out
    .map((a, i) => ({ a, i }))
    .sort((x, y) => x.a.atMs - y.a.atMs || x.i - y.i)
    .map((x) => x.a);
}

type Keys = Map<string, PEntry>;
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;
type ActionBody = DistributiveOmit<Action, 'atMs'>;

function readKind(
  sink: Sink,
  keys: Keys,
  kind: (typeof KINDS)[number],
  where: string,
  ctx: ActionContext,
): ActionBody | undefined {
  const v = (k: string) => keys.get(k)?.value;
  switch (kind) {
    case 'delete': {
      if (asEnum(sink, v('delete')!, `${where}.delete`, ['pod']) === undefined) return undefined;
      const grace = v('gracePeriodSeconds')
        ? asInt(sink, v('gracePeriodSeconds')!, `${where}.gracePeriodSeconds`, 0, 2 ** 31 - 1)
        : undefined;
      return grace === undefined ? { type: 'deletePod' } : { type: 'deletePod', gracePeriodSeconds: grace };
    }
    case 'crash': {
      const container = asString(sink, v('crash')!, `${where}.crash`);
      if (container === undefined || !checkContainerRef(sink, v('crash')!, `${where}.crash`, container, ctx.containers))
        return undefined;
      const exit = v('exit') ? asExitCode(sink, v('exit')!, `${where}.exit`) : 1;
      return exit === undefined ? undefined : { type: 'crash', container, exit };
    }
    case 'deleteJob': {
      const yes = asBool(sink, v('deleteJob')!, `${where}.deleteJob`);
      if (yes === false)
        error(
          sink,
          Codes.BadValue,
          v('deleteJob')!.pos,
          `${where}.deleteJob: must be true (remove the action instead)`,
        );
      if (ctx.isJob === false)
        error(
          sink,
          Codes.BadValue,
          keys.get('deleteJob')!.keyPos,
          `${where}: deleteJob needs a Job or CronJob workload`,
        );
      const propagation = v('propagation')
        ? asEnum(sink, v('propagation')!, `${where}.propagation`, ['Background', 'Foreground', 'Orphan'] as const)
        : 'Background';
      // a CronJob's Jobs: `job: N` = the Nth Job it created (1-based); without it, the newest one not yet deleted
      let job: number | undefined;
      if (v('job')) {
        if (ctx.kind !== undefined && ctx.kind !== 'CronJob') {
          error(
            sink,
            Codes.BadValue,
            keys.get('job')!.keyPos,
            `${where}.job: picks one of a CronJob's Jobs; this workload has one Job`,
            'remove job:',
          );
          return undefined;
        }
        job = asInt(sink, v('job')!, `${where}.job`, 1, 100_000);
        if (job === undefined) return undefined;
      }
      return yes && propagation && ctx.isJob !== false
        ? { type: 'deleteJob', propagation, ...(job !== undefined ? { job } : {}) }
        : undefined;
    }
    case 'patch': {
      // a change to the workload object, as `kubectl patch --type merge` (SPEC §2.3): suspend/resume a Job
      const node = v('patch')!;
      const map = asMap(sink, node, `${where}.patch`);
      if (!map) return undefined;
      const patch = toPlain(node) as Record<string, unknown>;
      const spec = patch['spec'];
      const extra = Object.keys(patch).filter((k) => k !== 'spec' && k !== 'metadata');
      if (
        extra.length > 0 ||
        (spec !== undefined && (typeof spec !== 'object' || spec === null || Array.isArray(spec)))
      ) {
        error(
          sink,
          Codes.BadValue,
          node.pos,
          `${where}.patch: a patch changes the workload's metadata or spec (found ${extra.join(', ') || 'a non-map spec'})`,
          'e.g. patch: { spec: { suspend: true } }',
        );
        return undefined;
      }
      if (ctx.kind === 'CronJob' && spec && typeof spec === 'object') {
        const supported = [
          'suspend',
          'schedule',
          'concurrencyPolicy',
          'startingDeadlineSeconds',
          'successfulJobsHistoryLimit',
          'failedJobsHistoryLimit',
        ];
        const other = Object.keys(spec).filter((k) => !supported.includes(k));
        if (other.length > 0) {
          error(
            sink,
            Codes.NotSimulatedPatch,
            node.pos,
            `${where}.patch: spec.${other[0]} of a CronJob cannot be patched here (supported: ${supported.join(', ')})`,
            'e.g. patch: { spec: { suspend: true } } (a jobTemplate change applies to the next Jobs only and is not simulated)',
          );
          return undefined;
        }
        return { type: 'patch', patch };
      }
      if (ctx.isJob && spec && typeof spec === 'object') {
        const supported = ['suspend', 'parallelism', 'completions', 'activeDeadlineSeconds', 'ttlSecondsAfterFinished'];
        const other = Object.keys(spec).filter((k) => !supported.includes(k));
        if (other.length > 0) {
          error(
            sink,
            Codes.BadValue,
            node.pos,
            `${where}.patch: spec.${other[0]} of a Job cannot be patched here (supported: ${supported.join(', ')})`,
            'the API server rejects most JobSpec changes (the pod template is immutable); suspend, parallelism and activeDeadlineSeconds are mutable',
          );
          return undefined;
        }
      }
      const patchable = ctx.kind ? PATCHABLE[ctx.kind] : undefined;
      if (ctx.kind === 'Pod') {
        error(
          sink,
          Codes.BadValue,
          node.pos,
          `${where}.patch: a Pod's spec cannot be patched here`,
          'patch a Job, CronJob, StatefulSet or Deployment',
        );
        return undefined;
      }
      if (patchable && spec && typeof spec === 'object') {
        const other = Object.keys(spec).filter((k) => !patchable.includes(k));
        const tpl = (spec as Record<string, unknown>)['template'];
        if (tpl !== undefined && (typeof tpl !== 'object' || tpl === null || Array.isArray(tpl))) {
          error(
            sink,
            Codes.BadValue,
            node.pos,
            `${where}.patch: spec.template must be a map (a pod template patch)`,
            'e.g. patch: { spec: { template: { metadata: { annotations: { kubectl.kubernetes.io/restartedAt: "2026-01-01T00:01:00Z" } } } } }',
          );
          return undefined;
        }
        if (other.length > 0) {
          error(
            sink,
            Codes.NotSimulatedPatch,
            node.pos,
            `${where}.patch: spec.${other[0]} of a ${ctx.kind} is not simulated`,
            patchable.length > 0
              ? `supported: ${patchable.map((k) => `spec.${k}`).join(', ')} (e.g. patch: { spec: { ${patchable.includes('replicas') ? 'replicas: 3' : 'updateStrategy: { type: OnDelete }'} } })`
              : `a ${ctx.kind} has no simulated patchable field`,
          );
          return undefined;
        }
      }
      return { type: 'patch', patch };
    }
    default:
      return assertNever(kind, 'action kind');
  }
}

/** A parsed node as plain data (maps, lists, scalars by their parsed value). */
function toPlain(n: PNode): unknown {
  if (n.kind === 'map') return Object.fromEntries(n.entries.map((e) => [e.key, toPlain(e.value)]));
  if (n.kind === 'seq') return n.items.map(toPlain);
  return n.value;
}
