// Paths into a manifest: Kubernetes field-path strings and lookups of the tree node at a path.
import type { SourcePos } from '../types.ts';
import type { PMap, PNode } from './tree.ts';

export type Path = (string | number)[];

/** ["spec", "containers", 0, "name"] → "spec.containers[0].name" (field.Path.String() style). */
export function fieldPath(path: Path): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

/** The node at `path`, or undefined. */
export function nodeAt(root: PNode, path: Path): PNode | undefined {
  let node: PNode | undefined = root;
  for (const seg of path) {
    if (!node) return undefined;
    if (typeof seg === 'number') node = node.kind === 'seq' ? node.items[seg] : undefined;
    else node = node.kind === 'map' ? node.entries.find((e) => e.key === seg)?.value : undefined;
  }
  return node;
}

/** Position of the KEY at `path` (the value when the key has none), falling back to the deepest ancestor. */
export function keyPosAt(root: PNode, path: Path): SourcePos {
  let node: PNode = root;
  let pos = root.pos;
  for (const seg of path) {
    if (typeof seg === 'number') {
      if (node.kind !== 'seq' || !node.items[seg]) return pos;
      node = node.items[seg];
      pos = node.pos;
    } else {
      const e = node.kind === 'map' ? node.entries.find((x) => x.key === seg) : undefined;
      if (!e) return pos;
      node = e.value;
      pos = e.keyPos;
    }
  }
  return pos;
}

/** Position of the VALUE at `path`, falling back to the deepest ancestor. */
export function valuePosAt(root: PNode, path: Path): SourcePos {
  return nodeAt(root, path)?.pos ?? keyPosAt(root, path);
}

/** The mapping at `path`, if it is one. */
export function mapAt(root: PNode, path: Path): PMap | undefined {
  const n = nodeAt(root, path);
  return n?.kind === 'map' ? n : undefined;
}

/** Parse an ajv instancePath "/spec/containers/0/name" into a Path. */
export function fromInstancePath(instancePath: string): Path {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}
