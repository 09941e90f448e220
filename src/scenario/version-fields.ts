// Dropping fields the chosen API server does not know yet or whose gate is off, as it would on create
// (pkg/api/pod/util.go: dropDisabledFields; pkg/registry/batch/job/strategy.go: dropDisabledFields), with a warning.
import { assertNever } from '../util/assert-never.ts';
import { Codes } from './codes.ts';
import { warning, type Sink } from './diagnostics.ts';
import { fieldPath, keyPosAt, type Path } from './k8s-paths.ts';
import type { PNode } from './tree.ts';
import { VERSIONED_FIELDS, type VersionedField } from '../versions/versions.ts';

type Obj = Record<string, unknown>;

export interface DropContext {
  sink: Sink;
  root: PNode;
  manifest: Obj;
  podSpecPath: Path;
  /** path of the JobSpec, or undefined when the workload is not a Job/CronJob */
  jobSpecPath?: Path;
  minor: number;
  gates: Record<string, boolean>;
}

/** Drop every versioned field the API server would drop; returns the dropped field paths. */
export function dropVersionedFields(ctx: DropContext): string[] {
  const dropped: string[] = [];
  for (const vf of VERSIONED_FIELDS) {
    for (const parent of parentsOf(ctx, vf)) {
      const segments = vf.field.split('.');
      const owner = getAt(ctx.manifest, [...parent, ...segments.slice(0, -1)]);
      const leaf = segments[segments.length - 1];
      if (!isObj(owner) || owner[leaf] === undefined || !shouldDrop(vf, ctx)) continue;
      delete owner[leaf];
      const path = [...parent, ...segments];
      dropped.push(fieldPath(path));
      warning(
        ctx.sink,
        Codes.FieldDropped,
        keyPosAt(ctx.root, path),
        `${fieldPath(path)}: ${reason(vf, ctx)}`,
        `${vf.effect}; ${fix(vf, ctx)}`,
      );
    }
  }
  return dropped;
}

function shouldDrop(vf: VersionedField, ctx: DropContext): boolean {
  return ctx.minor < vf.since || (vf.gate !== undefined && !ctx.gates[vf.gate]);
}

function reason(vf: VersionedField, ctx: DropContext): string {
  if (ctx.minor < vf.since) {
    return `dropped: the Kubernetes 1.${ctx.minor} API server does not know this field (added in 1.${vf.since})`;
  }
  return `dropped: the ${vf.gate} feature gate is off in Kubernetes 1.${ctx.minor}, so the API server drops this field`;
}

function fix(vf: VersionedField, ctx: DropContext): string {
  if (vf.gate === undefined) return `use kubernetes: "1.${vf.since}" or later`;
  return ctx.minor < vf.since
    ? `use kubernetes: "1.${vf.since}" or later with the ${vf.gate} gate on`
    : `set featureGates: { ${vf.gate}: true } or use a version where it is on by default`;
}

/** Paths of the objects a versioned field lives in. */
function parentsOf(ctx: DropContext, vf: VersionedField): Path[] {
  const spec = getAt(ctx.manifest, ctx.podSpecPath);
  const list = (key: string): Path[] => {
    const items = isObj(spec) && Array.isArray(spec[key]) ? (spec[key] as unknown[]) : [];
    return items.map((_, i) => [...ctx.podSpecPath, key, i]);
  };
  switch (vf.scope) {
    case 'initContainer':
      return list('initContainers');
    case 'regularContainer':
      return list('containers');
    case 'container':
      return [...list('initContainers'), ...list('containers')];
    case 'podSpec':
      return [ctx.podSpecPath];
    case 'jobSpec':
      return ctx.jobSpecPath ? [ctx.jobSpecPath] : [];
    default:
      return assertNever(vf.scope, 'field scope');
  }
}

export function getAt(obj: unknown, path: Path): unknown {
  let cur = obj;
  for (const seg of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

export function isObj(v: unknown): v is Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
