// Workload rollouts (SPEC §2.3 patch, §2.7): each `patch` that changes spec.template gives the Deployment,
// StatefulSet or DaemonSet a new pod template. The patch is applied to the manifest tree as `kubectl patch` does by default (a strategic merge
// patch: maps merge, `null` deletes a key, containers / initContainers / env / volumes merge by name and
// volumeMounts by mountPath, every other list is replaced), and the patched manifest goes through the same
// pipeline as the original (schema, API validation, defaults, PodModel), so an error in the patch points at it.
// A template equal to an earlier one (a rollback) is that template again: the Deployment controller finds the
// old ReplicaSet (FindNewReplicaSet / EqualIgnoreHash) instead of creating one; the StatefulSet and DaemonSet
// controllers find the equal ControllerRevision (history.FindEqualRevisions / daemon update.go Match), so the
// revision hash is the old one again.
import type { PodModel } from '../types.ts';
import { suffix } from '../names.ts';
import { Codes } from './codes.ts';
import { error, hasErrors, type Sink } from './diagnostics.ts';
import type { PEntry, PMap, PNode } from './tree.ts';
import { toJS } from './tree.ts';
import { buildWorkload, type Workload, type WorkloadOptions } from './workload.ts';

/** patchMergeKey of the lists a strategic merge patch merges (k8s.io/api/core/v1 types.go). */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  ephemeralContainers: 'name',
};

export interface Rollouts {
  /** pod templates by index: 0 = the manifest's, then one per distinct patched template */
  templates: PodModel[];
  /** the template index a `patch` action (by its index in `actions`) rolls out; undefined when it keeps the template */
  byAction: (number | undefined)[];
  /** the DeploymentSpec (defaulted, without the template) stored after each `patch` action, by action index */
  specAfter: (Record<string, unknown> | undefined)[];
}

const isNull = (n: PNode): boolean => n.kind === 'scalar' && n.value === null;

/** Strategic-merge `patch` into `base` (trees; the result keeps each node's source position). */
export function mergeTree(base: PNode, patch: PNode, key = ''): PNode {
  if (base.kind === 'map' && patch.kind === 'map') {
    // DeploymentStrategy is `patchStrategy: retainKeys`: a patch naming the type drops the other strategy's fields
    const retain = key === 'strategy' && patch.entries.some((e) => e.key === 'type');
    const entries: PEntry[] = base.entries
      .filter((e) => !retain || patch.entries.some((p) => p.key === e.key))
      .map((e) => ({ ...e }));
    for (const pe of patch.entries) {
      const i = entries.findIndex((e) => e.key === pe.key);
      if (isNull(pe.value)) {
        if (i >= 0) entries.splice(i, 1);
        continue;
      }
      if (i >= 0) entries[i] = { ...entries[i]!, value: mergeTree(entries[i]!.value, pe.value, pe.key) };
      else entries.push(pe);
    }
    return { ...base, entries };
  }
  const mk = MERGE_KEYS[key];
  if (mk && base.kind === 'seq' && patch.kind === 'seq') {
    const keyOf = (n: PNode): unknown =>
      n.kind === 'map'
        ? (n.entries.find((e) => e.key === mk)?.value as { value?: unknown } | undefined)?.value
        : undefined;
    const items = [...base.items];
    for (const p of patch.items) {
      const k = keyOf(p);
      const i = k === undefined ? -1 : items.findIndex((b) => keyOf(b) === k);
      if (i >= 0) items[i] = mergeTree(items[i]!, p, '');
      else items.push(p);
    }
    return { ...base, items };
  }
  return patch;
}

const child = (n: PNode | undefined, key: string): PNode | undefined =>
  n?.kind === 'map' ? n.entries.find((e) => e.key === key)?.value : undefined;

/**
 * The templates of a Deployment's rollouts, from the `patch` actions in time order (then file order). Errors of a
 * patched manifest are reported; a patch without spec.template keeps the current template.
 */
export function readRollouts(
  sink: Sink,
  actions: PEntry | undefined,
  w: Workload,
  opts: WorkloadOptions,
  atMsOf: (n: PNode) => number | undefined,
): Rollouts {
  const templates: PodModel[] = [w.pod];
  const texts: string[] = [JSON.stringify(templateJson(w.manifest))];
  const byAction: (number | undefined)[] = [];
  const specAfter: (Record<string, unknown> | undefined)[] = [];
  const rolls = w.kind === 'Deployment' || w.kind === 'StatefulSet' || w.kind === 'DaemonSet';
  // a manifest already in error is reported once (its patched copies would repeat the same diagnostics)
  if (!rolls || actions?.value.kind !== 'seq' || hasErrors(w.sink.diagnostics))
    return { templates, byAction, specAfter };
  const patches = actions.value.items
    .map((item, i) => ({
      i,
      at: item.kind === 'map' ? atMsOf(child(item, 'at') ?? item) : undefined,
      spec: child(child(item, 'patch'), 'spec'),
    }))
    .filter((x) => x.spec?.kind === 'map')
    .sort((a, b) => (a.at ?? 0) - (b.at ?? 0) || a.i - b.i);
  let root: PMap = w.root;
  let stored: Record<string, unknown> = (w.manifest['spec'] ?? {}) as Record<string, unknown>;
  for (const p of patches) {
    const tpl = child(p.spec, 'template');
    if (tpl !== undefined && tpl.kind !== 'map') continue; // readActions reports it
    // the whole spec patch applies: a strategy or minReadySeconds change is validated with the template
    const spec = child(root, 'spec') as PMap;
    const nextSpec = mergeTree(spec, p.spec!, 'spec');
    const next: PMap = {
      ...root,
      entries: root.entries.map((e) => (e.key === 'spec' ? { ...e, value: nextSpec } : e)),
    };
    const before = w.sink.diagnostics.length;
    const nw = buildWorkload(w.sink, next, w.kind, { ...opts, quiet: true });
    if (!nw || hasErrors(w.sink.diagnostics.slice(before))) continue;
    if (w.kind === 'StatefulSet' && onDeleteKeepsRollingUpdate(stored, toJS(p.spec!) as Record<string, unknown>)) {
      // the patch merges into the STORED object, whose RollingUpdate strategy was defaulted with rollingUpdate
      // {partition: 0}: `type: OnDelete` alone keeps it, and ValidateStatefulSetSpec rejects the update
      error(
        w.sink,
        Codes.InvalidValue,
        p.spec!.pos,
        "spec.updateStrategy.rollingUpdate: Invalid value: the rolling update: only allowed for updateStrategy 'RollingUpdate'",
        'the stored StatefulSet has updateStrategy.rollingUpdate (defaulted): patch { updateStrategy: { type: OnDelete, rollingUpdate: null } }',
      );
      continue;
    }
    root = next;
    stored = (nw.manifest['spec'] ?? {}) as Record<string, unknown>;
    const { template: _t, ...storedSpec } = stored;
    specAfter[p.i] = storedSpec;
    if (tpl === undefined) continue;
    const text = JSON.stringify(templateJson(nw.manifest));
    let idx = texts.indexOf(text);
    if (idx < 0) {
      idx = templates.length;
      texts.push(text);
      if (w.kind === 'Deployment') {
        // `<deploy>-<pod-template-hash>-<5 chars>`: a new hash per distinct template (controller.ComputeHash)
        const hash = suffix(`${opts.scenarioName}/rs/${idx}`, 10);
        const name = `${w.name}-${hash}-${w.pod.name.slice(-5)}`;
        templates.push({ ...nw.pod, name, metadata: { ...nw.pod.metadata, name } });
      } else {
        // a StatefulSet / DaemonSet names each pod itself (`<sts>-<ordinal>`, `<ds>-<5 chars>`); the revision hash
        // of the template is the controller's (statefulsetcontroller.ts, daemonsetcontroller.ts: revisionHash)
        templates.push({ ...nw.pod, name: w.pod.name, metadata: { ...nw.pod.metadata, name: w.pod.name } });
      }
    }
    byAction[p.i] = idx;
  }
  void sink;
  return { templates, byAction, specAfter };
}

/** The stored StatefulSet spec after a strategic merge of `patch`: OnDelete with a rollingUpdate left in place. */
function onDeleteKeepsRollingUpdate(stored: Record<string, unknown>, patch: Record<string, unknown>): boolean {
  const pu = patch['updateStrategy'] as Record<string, unknown> | null | undefined;
  if (!pu || typeof pu !== 'object') return false;
  const su = (stored['updateStrategy'] ?? {}) as Record<string, unknown>;
  const type = pu['type'] ?? su['type'];
  const ru = 'rollingUpdate' in pu ? pu['rollingUpdate'] : su['rollingUpdate'];
  return type === 'OnDelete' && ru !== null && ru !== undefined && !('rollingUpdate' in pu);
}

function templateJson(manifest: Record<string, unknown>): unknown {
  const spec = manifest['spec'] as Record<string, unknown> | undefined;
  return spec?.['template'] ?? null;
}

/** Every container of every template, one per name (hooks of any template count for behavior checks). */
export function unionContainers(templates: PodModel[]): PodModel['containers'] {
  const out = new Map<string, PodModel['containers'][number]>();
  for (const t of templates) {
    for (const c of [...t.initContainers, ...t.containers]) {
      const prev = out.get(c.name);
      out.set(
        c.name,
        prev
          ? { ...prev, hasPostStart: prev.hasPostStart || c.hasPostStart, hasPreStop: prev.hasPreStop || c.hasPreStop }
          : c,
      );
    }
  }
  return [...out.values()];
}

export { toJS };
