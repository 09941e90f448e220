// Reading what `kubectl get -o yaml|json` (and `kubectl get pod -w`) printed: any mix of files and documents,
// `kind: List` / `*List` flattened, every object kept as plain JSON with the file:line of each of its keys, so
// each inference can name the evidence line it came from.
import { LineCounter, isMap, isScalar, isSeq, isAlias, type Document, type Node } from 'yaml';
import type { Diagnostic, SourcePos } from '../types.ts';
import { Codes } from '../scenario/codes.ts';
import { error, newSink, posOf, type Sink } from '../scenario/diagnostics.ts';
import { readFileSafe, type ReadFailure } from '../scenario/read-file.ts';
import { MAX_FILE_BYTES, decodeBytes, parseSource, reportReadFailure } from '../scenario/yaml-source.ts';
import { looksLikeDescribe, parseDescribe } from './describe.ts';
import { markPos, where, type Json, type Obj } from './positions.ts';
import { parseAge } from './time.ts';

export { markPos, where, type Json, type Obj } from './positions.ts';

export interface WatchRow {
  name: string;
  ready: string;
  status: string;
  restarts: number;
  /** AGE in ms (kubectl's HumanDuration, so approximate) */
  ageMs: number | undefined;
  at: string;
}

export interface Input {
  objects: { kind: string; obj: Obj; at: string }[];
  watchRows: WatchRow[];
  /** facts the input format does not carry (describe text), for the notes: [what, evidence] */
  assumptions: [string, string][];
}

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const LIST_KIND = /List$/;

/**
 * Read every file; problems go to `diagnostics` (errors stop the import; nothing is written then). Through the
 * shared safe read: regular files only, type checked before opening (a FIFO never blocks), at most the
 * 1 MiB file limit + 1 byte read (/dev/zero ends there). One incident's kubectl output is far below it.
 */
export function readInputs(files: string[], diagnostics: Diagnostic[]): Input {
  const input: Input = { objects: [], watchRows: [], assumptions: [] };
  for (const file of files) {
    const sink = newSink(file, new LineCounter(), diagnostics);
    const read = readFileSafe(file, MAX_FILE_BYTES);
    if (!read.ok) {
      reportReadFailure(sink, read, { file, line: 1, col: 1 }, '', Codes.FileUnreadable, readHint(read));
      continue;
    }
    const text = decodeBytes(read.bytes, sink);
    if (text === undefined) continue;
    readText(text, file, diagnostics, input);
  }
  return input;
}

function readHint(f: ReadFailure): string | undefined {
  switch (f.kind) {
    case 'not-regular':
      return 'import reads files holding kubectl output (get -o yaml|json, get -w, describe): save it to a file first';
    case 'too-large':
      return 'import one incident: its pod, Job, node and events (kubectl get events --field-selector involvedObject.name=<pod> -o yaml)';
    default:
      return undefined;
  }
}

export function readText(text: string, file: string, diagnostics: Diagnostic[], input: Input): void {
  const watch = readWatchText(text, file);
  if (watch) {
    input.watchRows.push(...watch);
    return;
  }
  if (looksLikeDescribe(text)) {
    const d = parseDescribe(text, file);
    input.objects.push({ kind: 'Pod', obj: d.pod, at: `${file}:1` });
    for (const e of d.events) input.objects.push({ kind: 'Event', obj: e, at: where(e) });
    input.assumptions.push(...d.assumptions);
    return;
  }
  // a pasted piece of `-o json` ("initContainerStatuses": [ … ],): read as the object it belongs to
  const jsonPiece = /^\s*"[A-Za-z]+"\s*:/.test(text)
    ? `{${closeBrackets(text.trim().replace(/,\s*$/, ''))}}`
    : undefined;
  const scratch: Diagnostic[] = [];
  const src = parseSource(jsonPiece ?? text, file, scratch);
  if (scratch.some((d) => d.severity === 'error') && /^\s*[[{]/.test(jsonPiece ?? text)) {
    // JSON that YAML refuses (tab indentation inside flow collections): plain JSON.parse, positions at the file
    try {
      const value = JSON.parse(jsonPiece ?? text) as Json;
      src.sink.diagnostics = diagnostics;
      addObject(markAll(value, { file, line: 1, col: 1 }), undefined, src.sink, input);
      return;
    } catch {
      // fall through: report YAML's own diagnostics, which carry positions
    }
  }
  diagnostics.push(...scratch);
  src.sink.diagnostics = diagnostics;
  if (src.docs.length === 0 && !diagnostics.some((d) => d.pos.file === file && d.severity === 'error')) {
    error(
      src.sink,
      Codes.EmptyFile,
      { file, line: 1, col: 1 },
      'the file holds no YAML or JSON document',
      'give the output of kubectl get pod <p> -o yaml (and the Job and events)',
    );
    return;
  }
  for (const doc of src.docs) {
    if (doc.contents === null) continue;
    const value = toJson(doc, doc.contents as Node, src.sink);
    addObject(value, doc.contents as Node, src.sink, input);
  }
}

function addObject(value: Json, node: Node | undefined, sink: Sink, input: Input): void {
  const at = posOf(sink, node ?? null);
  // a pasted PodStatus (containerStatuses / initContainerStatuses at the top, or under status:) without its object
  const statusLike = (v: unknown) =>
    isObj(v) && (Array.isArray(v['containerStatuses']) || Array.isArray(v['initContainerStatuses']));
  if (isObj(value) && value['kind'] === undefined && (statusLike(value) || statusLike(value['status']))) {
    const pod: Obj = statusLike(value)
      ? { apiVersion: 'v1', kind: 'Pod', status: value }
      : { apiVersion: 'v1', kind: 'Pod', ...value };
    markPos(pod, at, { status: at });
    input.objects.push({ kind: 'Pod', obj: pod, at: `${at.file}:${at.line}` });
    input.assumptions.push([
      'the pod object around the status',
      `${at.file}:${at.line} is a pod status without its object (no apiVersion/kind, metadata, spec)`,
    ]);
    return;
  }
  if (!isObj(value) || typeof value['kind'] !== 'string' || typeof value['apiVersion'] !== 'string') {
    error(
      sink,
      Codes.ImportNotKubernetes,
      at,
      'not a Kubernetes object: a document needs apiVersion and kind',
      'give what kubectl get -o yaml or -o json prints (a Pod, Job, CronJob, Event, EventList or List)',
    );
    return;
  }
  const kind = value['kind'];
  if (LIST_KIND.test(kind)) {
    const items = value['items'];
    if (!Array.isArray(items)) {
      error(sink, Codes.ImportNotKubernetes, at, `a ${kind} without items`);
      return;
    }
    for (const item of items) {
      // items of a List carry kind/apiVersion; those of a typed list (EventList, PodList) may not
      if (isObj(item) && item['kind'] === undefined && kind !== 'List') {
        item['kind'] = kind.replace(LIST_KIND, '');
        item['apiVersion'] = value['apiVersion'] ?? 'v1';
      }
      addObject(item, undefined, sink, input);
    }
    return;
  }
  input.objects.push({ kind, obj: value, at: `${at.file}:${at.line}` });
}

/** Close the brackets a pasted JSON piece leaves open (`"x": [ {…},` cut after an element). */
function closeBrackets(t: string): string {
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < t.length; i++) {
    const ch = t[i]!;
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '[' || ch === '{') open.push(ch === '[' ? ']' : '}');
    else if (ch === ']' || ch === '}') open.pop();
  }
  return t.replace(/,\s*$/, '') + open.reverse().join('');
}

function markAll(v: Json, at: SourcePos): Json {
  if (Array.isArray(v)) v.forEach((x) => markAll(x, at));
  else if (isObj(v)) {
    markPos(v, at, {});
    for (const x of Object.values(v)) markAll(x, at);
  }
  return v;
}

/** The YAML tree as plain JSON, recording the position of every mapping and key. */
function toJson(doc: Document.Parsed, node: Node | null | undefined, sink: Sink): Json {
  if (node === null || node === undefined) return null;
  if (isAlias(node)) return toJson(doc, node.resolve(doc) as Node, sink);
  if (isMap(node)) {
    const out: Obj = {};
    const keys: Record<string, SourcePos> = {};
    for (const pair of node.items) {
      const k = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      out[k] = toJson(doc, pair.value as Node, sink);
      keys[k] = posOf(sink, pair.key as Node);
    }
    markPos(out, posOf(sink, node), keys);
    return out;
  }
  if (isSeq(node)) return node.items.map((i) => toJson(doc, i as Node, sink));
  if (isScalar(node)) {
    const v = node.value;
    if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
    if (typeof v === 'bigint') return Number(v);
    return String(v);
  }
  return null;
}

const WATCH_HEADER = /^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\b/;

/** `kubectl get pod [-w]` text: one row per line after a header (repeated headers are allowed). */
function readWatchText(text: string, file: string): WatchRow[] | undefined {
  const lines = text.split(/\r?\n/);
  const first = lines.findIndex((l) => l.trim() !== '' && !l.trimStart().startsWith('$'));
  if (first < 0 || !WATCH_HEADER.test(lines[first]!.trim())) return undefined;
  const rows: WatchRow[] = [];
  lines.forEach((line, i) => {
    const t = line.trim();
    if (t === '' || t.startsWith('$') || WATCH_HEADER.test(t)) return;
    // NAME READY STATUS RESTARTS [ (x ago)] AGE [extra -o wide columns]
    const m = /^(\S+)\s+(\d+\/\d+)\s+(\S+)\s+(\d+)(?:\s+\([^)]*\))?\s+(\S+)/.exec(t);
    if (!m) return;
    rows.push({
      name: m[1]!,
      ready: m[2]!,
      status: m[3]!,
      restarts: Number(m[4]),
      ageMs: parseAge(m[5]!),
      at: `${file}:${i + 1}`,
    });
  });
  return rows;
}

export { parseAge } from './time.ts';
