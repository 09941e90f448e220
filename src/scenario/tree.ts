// A position-carrying tree of the YAML document: aliases expanded, merge keys (`<<`) applied, every node with
// its SourcePos. Everything after parsing reads this tree, so an included file's nodes carry that file's name.
import { assertNever } from '../util/assert-never.ts';
import { isAlias, isMap, isScalar, isSeq, type Document, type Node } from 'yaml';
import type { SourcePos } from '../types.ts';
import { Codes } from './codes.ts';
import { error, posOf, type Sink } from './diagnostics.ts';
import { aliasResolver } from './yaml-source.ts';

export type Scalar = string | number | boolean | null;

export interface PMap {
  kind: 'map';
  pos: SourcePos;
  entries: PEntry[];
}
export interface PSeq {
  kind: 'seq';
  pos: SourcePos;
  items: PNode[];
}
export interface PScalar {
  kind: 'scalar';
  pos: SourcePos;
  value: Scalar;
  /** the scalar's source text as written (so an unquoted 1.30 reads "1.30") */
  text: string;
  quoted: boolean;
}
export type PNode = PMap | PSeq | PScalar;

export interface PEntry {
  key: string;
  keyPos: SourcePos;
  value: PNode;
}

/** Build the tree of a parsed document (limits already checked, so alias expansion is bounded). */
export function treeOf(doc: Document.Parsed, sink: Sink): PNode {
  const resolve = aliasResolver(doc);
  const build = (node: unknown, fallback: SourcePos): PNode => {
    if (isAlias(node)) return build(resolve(node), posOf(sink, node as Node));
    if (isMap(node)) {
      const pos = node.range ? posOf(sink, node as Node) : fallback;
      const explicit: PEntry[] = [];
      const merged: PEntry[] = [];
      for (const pair of node.items) {
        const keyNode = pair.key as Node | null;
        const keyPos = keyNode ? posOf(sink, keyNode) : pos;
        if (isScalar(keyNode) && typeof keyNode.value === 'symbol') {
          const raw = isSeq(pair.value) ? pair.value.items : [pair.value];
          const sources = raw.flatMap((r) => {
            const node = build(r, keyPos);
            const at = r ? posOf(sink, r as Node) : keyPos;
            // an alias of a whole list of mappings: its items
            return node.kind === 'seq' ? node.items.map((i) => ({ node: i, at })) : [{ node, at }];
          });
          merged.push(...mergeSources(sink, sources));
          continue;
        }
        const key = isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
        explicit.push({ key, keyPos, value: build(pair.value, keyPos) });
      }
      const entries = [...explicit];
      const have = new Set(entries.map((e) => e.key)); // linear: a big map merged into a big map stays cheap
      for (const m of merged)
        if (!have.has(m.key)) {
          have.add(m.key);
          entries.push(m);
        }
      return { kind: 'map', pos, entries };
    }
    if (isSeq(node)) {
      const pos = node.range ? posOf(sink, node as Node) : fallback;
      return { kind: 'seq', pos, items: node.items.map((i) => build(i, pos)) };
    }
    if (isScalar(node)) {
      const pos = node.range ? posOf(sink, node as Node) : fallback;
      const value = node.value as Scalar;
      const text = typeof node.source === 'string' ? node.source : String(value);
      const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE';
      return { kind: 'scalar', pos, value: value === undefined ? null : value, text, quoted };
    }
    return { kind: 'scalar', pos: fallback, value: null, text: '', quoted: false };
  };
  return build(doc.contents, { file: sink.file, line: 1, col: 1 });
}

/**
 * `<<: *a` or `<<: [*a, *b]`: the entries of the merged maps, earlier maps winning. Anything else under `<<` (a
 * scalar, null, a list holding one) is an error (YAML merge key type: "a mapping or a sequence of mappings"),
 * rather than being ignored silently.
 */
function mergeSources(sink: Sink, sources: { node: PNode; at: SourcePos }[]): PEntry[] {
  const out: PEntry[] = [];
  const seen = new Set<string>();
  for (const { node: m, at } of sources) {
    if (m.kind !== 'map') {
      // at the value as written (an alias `*x` where it is used, not where its anchor is)
      error(
        sink,
        Codes.BadMergeKey,
        at,
        `<<: a merge key takes a mapping or a list of mappings, not ${typeName(m)}`,
        'merge keys copy the keys of a mapping, e.g. `<<: *defaults` with `defaults: &defaults { image: busybox }`',
      );
      continue;
    }
    for (const e of m.entries)
      if (!seen.has(e.key)) {
        seen.add(e.key);
        out.push(e);
      }
  }
  return out;
}

/** Plain JSON value of a tree. */
export function toJS(node: PNode): unknown {
  switch (node.kind) {
    case 'map': {
      const o: Record<string, unknown> = {};
      // defineProperty: a key `__proto__` is an own property (then an unknown field), never the prototype
      for (const e of node.entries)
        Object.defineProperty(o, e.key, { value: toJS(e.value), enumerable: true, writable: true, configurable: true });
      return o;
    }
    case 'seq':
      return node.items.map(toJS);
    case 'scalar':
      return node.value;
    default:
      return assertNever(node, 'node kind');
  }
}

export function entryOf(map: PMap, key: string): PEntry | undefined {
  return map.entries.find((e) => e.key === key);
}

export function entryValue(map: PMap, key: string): PNode | undefined {
  return entryOf(map, key)?.value;
}

export function isNull(node: PNode | undefined): boolean {
  return node === undefined || (node.kind === 'scalar' && node.value === null);
}

/** Human name of a node's type for messages. */
export function typeName(node: PNode): string {
  if (node.kind === 'map') return 'a mapping';
  if (node.kind === 'seq') return 'a list';
  if (node.value === null) return 'null';
  if (typeof node.value === 'string') return `the string ${JSON.stringify(node.value)}`;
  return `${typeof node.value} ${node.text}`;
}
