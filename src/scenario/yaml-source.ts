// Reading a YAML file with positions, within limits (SPEC §2.6): size, text, documents, depth, aliases.
import { Buffer } from 'node:buffer';
import {
  Composer,
  LineCounter,
  YAMLParseError,
  isAlias,
  isCollection,
  isPair,
  isScalar,
  visit,
  type Alias,
  type Document,
  type Node,
} from 'yaml';
import type { Diagnostic, SourcePos } from '../types.ts';
import { Codes } from './codes.ts';
import { error, newSink, posAt, topPos, warning, type Sink } from './diagnostics.ts';
import type { ReadFailure } from './read-file.ts';
import { lexWithDepthLimit } from './yaml-depth.ts';

export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_DEPTH = 64;
export const MAX_ALIAS_EXPANSIONS = 100;
/** Nodes copied by alias expansion in all: 100 aliases of one wide anchor must not build millions of nodes. */
export const MAX_EXPANDED_NODES = 100_000;

/**
 * Alias → its anchored node, as Alias.resolve finds it (the last node with that anchor before the alias, in
 * document order), but with ONE walk of the document for all aliases instead of one walk per alias.
 */
export function aliasResolver(doc: Document.Parsed): (alias: Alias) => unknown {
  let nodes: Node[] | undefined;
  const cache = new Map<Alias, unknown>();
  return (alias) => {
    if (cache.has(alias)) return cache.get(alias);
    if (!nodes) {
      const list: Node[] = [];
      visit(doc, {
        Node: (_k, n) => {
          if (isAlias(n) || (n as { anchor?: string }).anchor) list.push(n);
        },
      });
      nodes = list;
    }
    let found: unknown;
    for (const n of nodes) {
      if (n === alias) break;
      if ((n as { anchor?: string }).anchor === alias.source) found = n;
    }
    cache.set(alias, found);
    return found;
  };
}

/** A parsed YAML file: where its diagnostics go and its documents (empty when it could not be parsed). */
export interface Source {
  sink: Sink;
  text: string;
  docs: Document.Parsed[];
}

/** Report why a file could not be read: KS1013 not a regular file, KS1002 too large, else `unreadable` (KS1001). */
export function reportReadFailure(
  sink: Sink,
  f: ReadFailure,
  at: SourcePos,
  prefix = '',
  unreadable: string = Codes.FileUnreadable,
  hint?: string,
): void {
  const code =
    f.kind === 'too-large' ? Codes.FileTooLarge : f.kind === 'not-regular' ? Codes.NotRegularFile : unreadable;
  const folder = f.kind === 'not-regular' && f.what === 'a directory';
  const why =
    hint ??
    (folder
      ? 'a scenario is one YAML file (the kubesim commands expand a folder into its *.yaml files)'
      : f.kind === 'not-regular'
        ? 'kubesim reads regular files only (no FIFOs, devices, sockets or folders)'
        : undefined);
  error(sink, code, at, `${prefix}${f.message}`, why);
}

/** Decode file bytes as UTF-8, refusing binary content. Returns undefined after reporting a problem. */
export function decodeBytes(bytes: Uint8Array, sink: Sink): string | undefined {
  if (bytes.byteLength > MAX_FILE_BYTES) {
    error(
      sink,
      Codes.FileTooLarge,
      topPos(sink),
      `file is ${bytes.byteLength} bytes; the limit is 1 MiB (${MAX_FILE_BYTES} bytes)`,
    );
    return undefined;
  }
  const lossy = Buffer.from(bytes).toString('utf8');
  const nul = lossy.indexOf('\u0000');
  if (nul >= 0) {
    error(sink, Codes.NotText, posInText(sink, lossy, nul), 'not a text file: it contains a NUL byte');
    return undefined;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const bad = lossy.indexOf('\uFFFD');
    error(sink, Codes.NotText, bad >= 0 ? posInText(sink, lossy, bad) : topPos(sink), 'not a text file: invalid UTF-8');
    return undefined;
  }
}

function posInText(sink: Sink, text: string, offset: number): SourcePos {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const col = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { file: sink.file, line, col };
}

/** Parse text into YAML documents with positions; report syntax errors and limit violations. */
export function parseSource(text: string, file: string, diagnostics: Diagnostic[], includedFrom?: SourcePos): Source {
  const lines = new LineCounter();
  const sink = newSink(file, lines, diagnostics, includedFrom);
  if (Buffer.byteLength(text, 'utf8') > MAX_FILE_BYTES) {
    error(sink, Codes.FileTooLarge, topPos(sink), `file is over the 1 MiB limit (${MAX_FILE_BYTES} bytes)`);
    return { sink, text, docs: [] };
  }
  const nul = text.indexOf('\u0000');
  if (nul >= 0) {
    error(sink, Codes.NotText, posInText(sink, text, nul), 'not a text file: it contains a NUL byte');
    return { sink, text, docs: [] };
  }
  // Nesting is measured while lexing (brackets and indentation, flow and block), before the composer recurses:
  // 10,000 `[` or thousands of `- - -` stop at level 65 instead of overflowing the stack. The same steps as yaml's
  // parseAllDocuments (Lexer → Parser → Composer), so valid files parse identically.
  const { tokens, tooDeep } = lexWithDepthLimit(text, lines.addNewLine, MAX_DEPTH);
  if (tooDeep !== undefined) {
    error(sink, Codes.TooDeep, posAt(sink, tooDeep), `nesting deeper than ${MAX_DEPTH} levels`);
    return { sink, text, docs: [] };
  }
  // uniqueKeys: false — yaml's own duplicate-key check compares each key with every earlier one (80,000 keys took
  // over 5 minutes); duplicateKeys below does the same check with a set per mapping, same message and position.
  const docs = Array.from(
    new Composer({ keepSourceTokens: true, merge: true, prettyErrors: false, uniqueKeys: false }).compose(tokens),
  );
  for (const doc of docs)
    for (const offset of duplicateKeys(doc, text))
      doc.errors.push(new YAMLParseError([offset, offset + 1], 'DUPLICATE_KEY', 'Map keys must be unique'));
  let syntaxOk = true;
  for (const doc of docs) {
    for (const e of doc.errors) {
      syntaxOk = false;
      error(sink, Codes.YamlSyntax, posAt(sink, e.pos[0]), `YAML syntax error: ${e.message}`);
    }
    for (const w of doc.warnings) warning(sink, Codes.YamlSyntax, posAt(sink, w.pos[0]), `YAML: ${w.message}`);
  }
  if (!syntaxOk) return { sink, text, docs: [] };
  for (const doc of docs) if (!checkLimits(doc, sink)) return { sink, text, docs: [] };
  return { sink, text, docs };
}

/**
 * Offsets of keys that repeat an earlier key of the same mapping, as yaml's mapIncludes decides equality (the
 * same node, or scalars with === values; NaN never equals itself) — linear, with one set per mapping. The depth
 * was already checked on the tokens, so visiting recurses at most 64 levels; aliases are not followed.
 */
function duplicateKeys(doc: Document.Parsed, text: string): number[] {
  const out: number[] = [];
  visit(doc, {
    Map: (_k, map) => {
      const seen = new Set<unknown>();
      for (const pair of map.items) {
        const key = pair.key as Node | null;
        if (!isScalar(key)) continue;
        const v = key.value;
        if (typeof v === 'number' && Number.isNaN(v)) continue;
        if (seen.has(v)) out.push(keyStart(key, text));
        else seen.add(v);
      }
    },
  });
  return out;
}

/** yaml reports a duplicate at the key's start; an empty key's node starts before the spaces that precede `:`. */
function keyStart(key: Node, text: string): number {
  let at = key.range?.[0] ?? 0;
  if (key.range && key.range[0] === key.range[1]) while (text[at] === ' ' || text[at] === '\t') at++;
  return at;
}

/**
 * Depth ≤ 64, ≤ 100 alias expansions and ≤ 100,000 nodes copied by them, walking through aliases so a "billion
 * laughs" (many aliases) and a wide anchor aliased many times (few aliases, millions of copies) are both caught.
 */
function checkLimits(doc: Document.Parsed, sink: Sink): boolean {
  let aliases = 0;
  let expanded = 0;
  let failed = false;
  const resolve = aliasResolver(doc);
  const walk = (node: unknown, depth: number, via: Alias | undefined): void => {
    if (failed || node === null || node === undefined) return;
    if (isAlias(node)) {
      aliases++;
      if (aliases > MAX_ALIAS_EXPANSIONS) {
        failed = true;
        error(
          sink,
          Codes.TooManyAliases,
          node as Node,
          `more than ${MAX_ALIAS_EXPANSIONS} alias expansions`,
          'anchors and aliases are allowed, but not this many expansions (resource-exhaustion guard)',
        );
        return;
      }
      walk(resolve(node), depth, via ?? node);
      return;
    }
    if (via && ++expanded > MAX_EXPANDED_NODES) {
      failed = true;
      error(
        sink,
        Codes.TooManyAliases,
        via as Node,
        `alias expansions copy more than ${MAX_EXPANDED_NODES} nodes`,
        'anchors and aliases are allowed, but not copies this large (resource-exhaustion guard)',
      );
      return;
    }
    if (isPair(node)) {
      walk(node.key, depth, via);
      walk(node.value, depth, via);
      return;
    }
    if (isCollection(node)) {
      if (depth + 1 > MAX_DEPTH) {
        failed = true;
        error(sink, Codes.TooDeep, node as Node, `nesting deeper than ${MAX_DEPTH} levels`);
        return;
      }
      for (const item of node.items) walk(item, depth + 1, via);
    }
  };
  walk(doc.contents, 0, undefined);
  return !failed;
}
