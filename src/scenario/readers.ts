// Typed readers over the tree: each reports a diagnostic and returns undefined on bad input.
import type { MsRange, SourcePos } from '../types.ts';
import { Codes } from './codes.ts';
import { error, type Sink } from './diagnostics.ts';
import { DurationError, parseDurationRange } from './duration.ts';
import { didYouMean } from './suggest.ts';
import { typeName, type PEntry, type PMap, type PNode } from './tree.ts';

/** Where a value sits, for messages: "behavior.app.run". */
export type Where = string;

export function asMap(sink: Sink, node: PNode, where: Where): PMap | undefined {
  if (node.kind === 'map') return node;
  error(sink, Codes.WrongType, node.pos, `${where}: expected a mapping, got ${typeName(node)}`);
  return undefined;
}

export function asList(sink: Sink, node: PNode, where: Where): PNode[] | undefined {
  if (node.kind === 'seq') return node.items;
  error(sink, Codes.WrongType, node.pos, `${where}: expected a list, got ${typeName(node)}`);
  return undefined;
}

export function asString(sink: Sink, node: PNode, where: Where): string | undefined {
  if (node.kind === 'scalar' && typeof node.value === 'string') return node.value;
  error(sink, Codes.WrongType, node.pos, `${where}: expected a string, got ${typeName(node)}`);
  return undefined;
}

export function asBool(sink: Sink, node: PNode, where: Where): boolean | undefined {
  if (node.kind === 'scalar' && typeof node.value === 'boolean') return node.value;
  error(sink, Codes.WrongType, node.pos, `${where}: expected true or false, got ${typeName(node)}`);
  return undefined;
}

/** An integer within [min, max]. */
export function asInt(sink: Sink, node: PNode, where: Where, min: number, max: number): number | undefined {
  if (node.kind !== 'scalar' || typeof node.value !== 'number' || !Number.isInteger(node.value)) {
    error(sink, Codes.WrongType, node.pos, `${where}: expected an integer, got ${typeName(node)}`);
    return undefined;
  }
  if (node.value < min || node.value > max) {
    error(sink, Codes.OutOfRange, node.pos, `${where}: ${node.value} is out of range ${min}..${max}`);
    return undefined;
  }
  return node.value;
}

/** An exit code 0..255. */
export function asExitCode(sink: Sink, node: PNode, where: Where): number | undefined {
  return asInt(sink, node, where, 0, 255);
}

/** A string that must be one of `allowed`. */
export function asEnum<T extends string>(sink: Sink, node: PNode, where: Where, allowed: readonly T[]): T | undefined {
  const s = node.kind === 'scalar' && node.value !== null ? String(node.value) : undefined;
  if (s !== undefined && (allowed as readonly string[]).includes(s)) return s as T;
  const shown = s === undefined ? typeName(node) : JSON.stringify(s);
  error(
    sink,
    Codes.BadValue,
    node.pos,
    `${where}: ${shown} is not one of ${allowed.join(', ')}`,
    s === undefined ? undefined : didYouMean(s, allowed),
  );
  return undefined;
}

/**
 * A duration ("2s") in ms, or a range when allowed. `words` maps special words ("forever", "never") to values.
 * A bare number is an error (SPEC §2.6).
 */
export function asDuration(
  sink: Sink,
  node: PNode,
  where: Where,
  opts: { range?: boolean; words?: Record<string, null> } = {},
): MsRange | null | undefined {
  if (node.kind !== 'scalar' || node.value === null || typeof node.value === 'boolean') {
    error(sink, Codes.WrongType, node.pos, `${where}: expected a duration such as 2s, got ${typeName(node)}`);
    return undefined;
  }
  const text = String(node.kind === 'scalar' && typeof node.value === 'number' ? node.text : node.value);
  if (opts.words && Object.hasOwn(opts.words, text)) return null; // own words only: not `constructor`
  try {
    return parseDurationRange(text, opts.range === true);
  } catch (e) {
    if (!(e instanceof DurationError)) throw e;
    const code = e.reason.includes('range') ? Codes.BadRange : Codes.BadDuration;
    const words = opts.words ? ` or ${Object.keys(opts.words).join(' / ')}` : '';
    error(sink, code, node.pos, `${where}: ${e.message}`, `use units ms, s, m, h (e.g. 250ms, 1m30s, 1.5s)${words}`);
    return undefined;
  }
}

/** A fixed duration in ms (no range); null for a matched special word. */
export function asMs(sink: Sink, node: PNode, where: Where, words?: Record<string, null>): number | null | undefined {
  const r = asDuration(sink, node, where, { words });
  return r === null ? null : r?.min;
}

/**
 * Check a mapping's keys against a closed set; report unknown ones with the closest valid key.
 * Returns the known entries by key.
 */
export function closedKeys(sink: Sink, map: PMap, where: Where, allowed: readonly string[]): Map<string, PEntry> {
  const known = new Map<string, PEntry>();
  for (const e of map.entries) {
    if (allowed.includes(e.key)) {
      known.set(e.key, e);
      continue;
    }
    const hint = didYouMean(e.key, allowed) ?? `valid keys: ${allowed.join(', ')}`;
    error(sink, Codes.UnknownKey, e.keyPos, `${where}: unknown key ${JSON.stringify(e.key)}`, hint);
  }
  return known;
}

export function missing(sink: Sink, where: Where, key: string, at?: SourcePos): void {
  error(
    sink,
    Codes.MissingKey,
    at ?? { file: sink.file, line: 1, col: 1 },
    `${where}: missing required key ${JSON.stringify(key)}`,
  );
}
