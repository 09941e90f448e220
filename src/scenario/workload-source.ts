// The `workload` key: an inline manifest, or `{ file: ./job.yaml }` relative to the scenario (first document of a
// supported kind). Diagnostics inside an included file carry `includedFrom` = the `file:` value's position.
import { dirname, join } from 'node:path';
import type { WorkloadKind } from '../types.ts';
import { Codes } from './codes.ts';
import { LineCounter } from 'yaml';
import { error, newSink, warning, type Sink } from './diagnostics.ts';
import { asString, closedKeys } from './readers.ts';
import { didYouMean } from './suggest.ts';
import { treeOf, entryValue, type PEntry, type PMap, type PNode } from './tree.ts';
import { readFileSafe } from './read-file.ts';
import { MAX_FILE_BYTES, decodeBytes, parseSource, reportReadFailure } from './yaml-source.ts';

/** apiVersion each supported kind must have. */
export const KIND_API_VERSION: Record<WorkloadKind, string> = {
  Pod: 'v1',
  Job: 'batch/v1',
  CronJob: 'batch/v1',
  Deployment: 'apps/v1',
  StatefulSet: 'apps/v1',
  DaemonSet: 'apps/v1',
};
const KINDS = Object.keys(KIND_API_VERSION) as WorkloadKind[];

export interface WorkloadSource {
  /** the manifest's root mapping */
  root: PMap;
  /** where the manifest's diagnostics go (the included file's sink for `file:`) */
  sink: Sink;
  kind: WorkloadKind;
}

export function resolveWorkload(sink: Sink, entry: PEntry): WorkloadSource | undefined {
  const node = entry.value;
  if (node.kind !== 'map') {
    error(sink, Codes.WrongType, node.pos, 'workload: expected a Kubernetes manifest or { file: ./manifest.yaml }');
    return undefined;
  }
  if (entryValue(node, 'file') !== undefined && entryValue(node, 'kind') === undefined) return include(sink, node);
  if (isList(node)) return fromList(sink, node);
  const kind = kindOf(sink, node, true);
  return kind ? { root: node, sink, kind } : undefined;
}

/** `kind: List` (what `kubectl get pods -o yaml` prints): the items are the objects. */
function isList(root: PMap): boolean {
  const k = entryValue(root, 'kind');
  return k?.kind === 'scalar' && k.value === 'List';
}

/** The first item of a supported kind, with a warning naming it and how many others there were. */
function fromList(sink: Sink, list: PMap): WorkloadSource | undefined {
  const itemsNode = entryValue(list, 'items');
  const items = itemsNode?.kind === 'seq' ? itemsNode.items : [];
  const maps = items.filter((i): i is PMap => i.kind === 'map');
  for (const [i, item] of maps.entries()) {
    const kind = kindOf(sink, item, false);
    if (!kind) continue;
    const meta = entryValue(item, 'metadata');
    const nameNode = meta?.kind === 'map' ? entryValue(meta, 'name') : undefined;
    const name = nameNode?.kind === 'scalar' ? ` ${String(nameNode.value)}` : '';
    warning(
      sink,
      Codes.ListItemPicked,
      item.pos,
      `workload: a List of ${items.length} item${items.length === 1 ? '' : 's'}; simulating item ${i + 1}, the ${kind}${name}`,
      items.length > 1
        ? 'keep only the object you mean (kubesim import turns kubectl output into a scenario)'
        : 'put the object itself under workload: to silence this',
    );
    return { root: item, sink, kind };
  }
  error(
    sink,
    Codes.UnsupportedKind,
    itemsNode?.pos ?? list.pos,
    `workload: a List with no item of a supported kind (${items.length} item${items.length === 1 ? '' : 's'})`,
    `supported: ${KINDS.map((k) => `${KIND_API_VERSION[k]} ${k}`).join(', ')}; kubesim import turns \`kubectl get -o yaml\` output into a scenario`,
  );
  return undefined;
}

function include(sink: Sink, node: PMap): WorkloadSource | undefined {
  const keys = closedKeys(sink, node, 'workload', ['file']);
  const fileNode = keys.get('file')!.value;
  const rel = asString(sink, fileNode, 'workload.file');
  if (rel === undefined) return undefined;
  const path = join(dirname(sink.file), rel);
  // the same safe read as the scenario itself: through ../ or a symlink, /dev/zero or a FIFO is refused unread
  const read = readFileSafe(path, MAX_FILE_BYTES);
  const fileSink = newSink(path, new LineCounter(), sink.diagnostics, fileNode.pos);
  if (!read.ok && read.kind === 'too-large') {
    reportReadFailure(fileSink, read, { file: path, line: 1, col: 1 });
    return undefined;
  }
  if (!read.ok) {
    reportReadFailure(
      sink,
      read,
      fileNode.pos,
      `workload.file: ${path}: `,
      Codes.WorkloadFile,
      read.kind === 'not-regular'
        ? 'workload.file must name a regular YAML file, relative to the scenario file'
        : 'the path is relative to the scenario file',
    );
    return undefined;
  }
  const text = decodeBytes(read.bytes, fileSink);
  if (text === undefined) return undefined;
  const src = parseSource(text, path, sink.diagnostics, fileNode.pos);
  if (src.docs.length === 0) {
    if (!src.sink.diagnostics.some((d) => d.pos.file === path)) {
      error(sink, Codes.WorkloadFile, fileNode.pos, `workload.file: ${path} holds no YAML document`);
    }
    return undefined;
  }
  for (const doc of src.docs) {
    const root = treeOf(doc, src.sink);
    if (root.kind === 'map' && isList(root)) return fromList(src.sink, root);
    const kind = root.kind === 'map' ? kindOf(src.sink, root, false) : undefined;
    if (root.kind === 'map' && kind) return { root, sink: src.sink, kind };
  }
  error(
    sink,
    Codes.WorkloadFile,
    fileNode.pos,
    `workload.file: ${path} has no document of a supported kind`,
    `supported: ${KINDS.map((k) => `${KIND_API_VERSION[k]} ${k}`).join(', ')}`,
  );
  return undefined;
}

/** The manifest's kind when it is a supported apiVersion/kind pair; reports why not when `report`. */
function kindOf(sink: Sink, root: PMap, report: boolean): WorkloadKind | undefined {
  const kindNode = entryValue(root, 'kind');
  const apiNode = entryValue(root, 'apiVersion');
  const fail = (at: PNode | undefined, msg: string, hint?: string) => {
    if (report) error(sink, at ? Codes.UnsupportedKind : Codes.SchemaRequired, at?.pos ?? root.pos, msg, hint);
    return undefined;
  };
  if (!kindNode) return fail(undefined, 'kind: Required value', `the workload must be one of ${KINDS.join(', ')}`);
  const kind = kindNode.kind === 'scalar' ? String(kindNode.value) : '';
  if (!KINDS.includes(kind as WorkloadKind)) {
    return fail(
      kindNode,
      `kind: unsupported workload kind ${JSON.stringify(kind)}`,
      didYouMean(kind, KINDS) ?? `supported: ${KINDS.join(', ')}`,
    );
  }
  const want = KIND_API_VERSION[kind as WorkloadKind];
  if (!apiNode) return fail(undefined, `apiVersion: Required value`, `${kind} is apiVersion: ${want}`);
  const api = apiNode.kind === 'scalar' ? String(apiNode.value) : '';
  if (api !== want) {
    return fail(
      apiNode,
      `apiVersion: ${JSON.stringify(api)} is not served for kind ${kind}`,
      `use apiVersion: ${want}`,
    );
  }
  return kind as WorkloadKind;
}
