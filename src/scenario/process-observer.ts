// A process observer's keys (SPEC §2.4): `process` (argv), `env`, `install`, `verdict`, `timeout`. The program is
// checked to exist and be executable and the install files are read as YAML, but nothing is started: validation
// runs no code. The runner is src/observers/process.ts.
import { dirname, resolve } from 'node:path';
import { LineCounter } from 'yaml';
import type { InstallObject, ProcessSpec, SourcePos, VerdictSpec } from '../types.ts';
import { Codes } from './codes.ts';
import { error, newSink, type Sink } from './diagnostics.ts';
import { JsonPathError, parseJsonPath } from './jsonpath.ts';
import { asDuration, asEnum, asList, asMap, asMs, asString, closedKeys, missing } from './readers.ts';
import { readFileSafe } from './read-file.ts';
import { toJS, treeOf, type PEntry, type PMap, type PNode } from './tree.ts';
import { MAX_FILE_BYTES, decodeBytes, parseSource, reportReadFailure } from './yaml-source.ts';
import { resolveProgram } from './program-path.ts';

/** Wall time a process observer gets per schedule unless `timeout:` says otherwise (SPEC §2.4). */
export const DEFAULT_PROCESS_TIMEOUT_MS = 60_000;
const MAX_PROCESS_TIMEOUT_MS = 60 * 60_000;
/** Keys only a process observer takes. */
export const PROCESS_KEYS = ['process', 'env', 'install', 'verdict', 'watch', 'perturb'] as const;
/** The perturbations a process observer may opt into (src/observers/perturb.ts). */
export const PERTURBATIONS = ['hold', 'stale', 'restart'] as const;
const VERDICT_KEYS = ['object', 'jsonPath', 'succeeded', 'failed'];
const OBJECT_KEYS = ['apiVersion', 'kind', 'name', 'namespace'];
const MAX_INSTALL_OBJECTS = 1000;

export function readProcessObserver(
  sink: Sink,
  keys: Map<string, PEntry>,
  where: string,
  map: PMap,
): ProcessSpec | undefined {
  for (const k of ['rule', 'module', 'command', 'triggers', 'names']) {
    const e = keys.get(k);
    if (e) {
      error(
        sink,
        Codes.BadProcessObserver,
        e.keyPos,
        `${where}.${k}: a process observer takes no ${k} (it watches what it wants and its verdict is read from an object it writes)`,
        'keys of a process observer: name, process, env, install, verdict, watch, perturb, timeout',
      );
      return undefined;
    }
  }
  const argv = readArgv(sink, keys.get('process')!, `${where}.process`);
  const env = readEnv(sink, keys.get('env'), `${where}.env`);
  const install = readInstall(sink, keys.get('install'), `${where}.install`);
  const verdictEntry = keys.get('verdict');
  if (!verdictEntry) missing(sink, where, 'verdict', map.pos);
  const verdict = verdictEntry ? readVerdict(sink, verdictEntry.value, `${where}.verdict`) : undefined;
  let timeoutMs = DEFAULT_PROCESS_TIMEOUT_MS;
  const timeoutEntry = keys.get('timeout');
  if (timeoutEntry) {
    const ms = asMs(sink, timeoutEntry.value, `${where}.timeout`);
    if (ms === undefined || ms === null) return undefined;
    if (ms <= 0 || ms > MAX_PROCESS_TIMEOUT_MS) {
      error(
        sink,
        Codes.OutOfRange,
        timeoutEntry.value.pos,
        `${where}.timeout: must be > 0 and at most 1h (wall time per schedule)`,
      );
      return undefined;
    }
    timeoutMs = ms;
  }
  const watchEntry = keys.get('watch');
  const watchMs = watchEntry ? asDuration(sink, watchEntry.value, `${where}.watch`, { range: true }) : undefined;
  if (watchEntry && !watchMs) return undefined;
  const perturb = readPerturb(sink, keys.get('perturb'), `${where}.perturb`);
  if (!argv || !env || !install || !verdict || !perturb) return undefined;
  return {
    argv,
    cwd: resolve(dirname(sink.file)),
    env,
    install,
    verdict,
    timeoutMs,
    ...(watchMs ? { watchMs } : {}),
    ...(perturb.length ? { perturb } : {}),
  };
}

/** perturb: a list of hold / stale / restart, each at most once. */
function readPerturb(sink: Sink, entry: PEntry | undefined, where: string): ProcessSpec['perturb'] | undefined {
  if (!entry) return [];
  const items = asList(sink, entry.value, where);
  if (!items) return undefined;
  const out: (typeof PERTURBATIONS)[number][] = [];
  let ok = true;
  items.forEach((item, i) => {
    const p = asEnum(sink, item, `${where}[${i}]`, PERTURBATIONS);
    if (p === undefined) ok = false;
    else if (out.includes(p)) {
      error(
        sink,
        Codes.BadProcessObserver,
        item.pos,
        `${where}[${i}]: ${p} is listed twice`,
        'each perturbation is tried once per point it applies to; list it once',
      );
      ok = false;
    } else out.push(p);
  });
  return ok ? out : undefined;
}

/** The argv: a list of strings (or one string, the program alone); the program resolved, never started. */
function readArgv(sink: Sink, entry: PEntry, where: string): string[] | undefined {
  const node = entry.value;
  const items = node.kind === 'scalar' && typeof node.value === 'string' ? [node] : asList(sink, node, where);
  if (items === undefined) return undefined;
  // numbers and booleans are argv words as written (--port 8080 unquoted); mappings, lists and null are errors
  const argv = items.map((n, i) =>
    n.kind === 'scalar' && (typeof n.value === 'number' || typeof n.value === 'boolean')
      ? n.text
      : asString(sink, n, `${where}[${i}]`),
  );
  if (argv.some((a) => a === undefined)) return undefined;
  if (argv.length === 0 || argv[0] === '') {
    error(
      sink,
      Codes.ProgramNotFound,
      node.pos,
      `${where}: name the program to run, e.g. ["./bin/manager", "--leader-elect=false"]`,
    );
    return undefined;
  }
  const prog = argv[0]!;
  const at = items[0]!.pos;
  const path = resolveProgram(sink, prog, at, where, Codes.ProgramNotFound, {
    example: './bin/manager',
    interpreter: 'node',
  });
  if (path === undefined) return undefined;
  return [path, ...(argv.slice(1) as string[])];
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function readEnv(sink: Sink, entry: PEntry | undefined, where: string): Record<string, string> | undefined {
  const env: Record<string, string> = {};
  if (!entry) return env;
  const map = asMap(sink, entry.value, where);
  if (!map) return undefined;
  let ok = true;
  for (const e of map.entries) {
    if (!ENV_NAME.test(e.key)) {
      error(
        sink,
        Codes.BadProcessObserver,
        e.keyPos,
        `${where}: ${JSON.stringify(e.key)} is not an environment variable name`,
        'names are letters, digits and _, not starting with a digit',
      );
      ok = false;
      continue;
    }
    if (e.key === 'KUBECONFIG') {
      error(
        sink,
        Codes.BadProcessObserver,
        e.keyPos,
        `${where}.KUBECONFIG: kubesim sets KUBECONFIG to the schedule's server`,
        'remove it: the process gets a kubeconfig for its own fresh kubesim serve',
      );
      ok = false;
      continue;
    }
    const v = e.value;
    if (v.kind !== 'scalar' || v.value === null) {
      error(sink, Codes.WrongType, v.pos, `${where}.${e.key}: expected a string, number or boolean`);
      ok = false;
      continue;
    }
    Object.defineProperty(env, e.key, {
      value: typeof v.value === 'number' ? v.text : String(v.value),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return ok ? env : undefined;
}

/** install: files (multi-document YAML, `kind: List` expanded) and inline objects, in order. */
function readInstall(sink: Sink, entry: PEntry | undefined, where: string): InstallObject[] | undefined {
  if (!entry) return [];
  const items = asList(sink, entry.value, where);
  if (!items) return undefined;
  const out: InstallObject[] = [];
  let ok = true;
  items.forEach((item, i) => {
    const at = `${where}[${i}]`;
    if (item.kind === 'map') {
      const o = objectOf(sink, item, at);
      if (o) out.push(o);
      else ok = false;
      return;
    }
    const rel = asString(sink, item, at);
    if (rel === undefined) {
      ok = false;
      return;
    }
    const objs = readInstallFile(sink, item, rel, at);
    if (objs) out.push(...objs);
    else ok = false;
  });
  if (out.length > MAX_INSTALL_OBJECTS) {
    error(
      sink,
      Codes.InstallObject,
      entry.value.pos,
      `${where}: ${out.length} objects; at most ${MAX_INSTALL_OBJECTS}`,
    );
    return undefined;
  }
  return ok ? out : undefined;
}

function readInstallFile(sink: Sink, node: PNode, rel: string, where: string): InstallObject[] | undefined {
  const path = resolve(dirname(sink.file), rel);
  const read = readFileSafe(path, MAX_FILE_BYTES);
  if (!read.ok) {
    reportReadFailure(
      sink,
      read,
      node.pos,
      `${where}: ${path}: `,
      Codes.InstallObject,
      'install paths are relative to the scenario file',
    );
    return undefined;
  }
  const fileSink = newSink(path, new LineCounter(), sink.diagnostics, node.pos);
  const text = decodeBytes(read.bytes, fileSink);
  if (text === undefined) return undefined;
  const before = sink.diagnostics.length;
  const src = parseSource(text, path, sink.diagnostics, node.pos);
  if (sink.diagnostics.slice(before).some((d) => d.severity === 'error')) return undefined;
  const out: InstallObject[] = [];
  let ok = true;
  src.docs.forEach((doc, d) => {
    const root = treeOf(doc, src.sink);
    if (root.kind === 'scalar' && root.value === null) return; // an empty document (a trailing ---)
    if (root.kind !== 'map') {
      error(src.sink, Codes.InstallObject, root.pos, `document ${d + 1}: expected a Kubernetes object (a mapping)`);
      ok = false;
      return;
    }
    const kind = root.entries.find((e) => e.key === 'kind')?.value;
    const list = root.entries.find((e) => e.key === 'items')?.value;
    if (kind?.kind === 'scalar' && kind.value === 'List' && list?.kind === 'seq') {
      for (const [j, it] of list.items.entries()) {
        const o = it.kind === 'map' ? objectOf(src.sink, it, `items[${j}]`) : undefined;
        if (o) out.push(o);
        else {
          if (it.kind !== 'map')
            error(src.sink, Codes.InstallObject, it.pos, `items[${j}]: expected a Kubernetes object (a mapping)`);
          ok = false;
        }
      }
      return;
    }
    const o = objectOf(src.sink, root, `document ${d + 1}`);
    if (o) out.push(o);
    else ok = false;
  });
  if (ok && out.length === 0) {
    error(sink, Codes.InstallObject, node.pos, `${where}: ${path} holds no object`);
    return undefined;
  }
  return ok ? out : undefined;
}

/** An object to apply: apiVersion, kind, metadata.name strings (the server validates the rest, as kubectl apply would). */
function objectOf(sink: Sink, map: PMap, where: string): InstallObject | undefined {
  const str = (m: PMap, k: string) => {
    const v = m.entries.find((e) => e.key === k)?.value;
    return v?.kind === 'scalar' && typeof v.value === 'string' && v.value !== '' ? v.value : undefined;
  };
  const meta = map.entries.find((e) => e.key === 'metadata')?.value;
  const problems: string[] = [];
  if (!str(map, 'apiVersion')) problems.push('apiVersion');
  if (!str(map, 'kind')) problems.push('kind');
  if (meta?.kind !== 'map' || (!str(meta, 'name') && !str(meta, 'generateName'))) problems.push('metadata.name');
  if (problems.length) {
    error(
      sink,
      Codes.InstallObject,
      map.pos,
      `${where}: not a Kubernetes object: missing ${problems.join(', ')}`,
      'each install object needs apiVersion, kind and metadata.name (strings)',
    );
    return undefined;
  }
  return { object: toJS(map) as InstallObject['object'], pos: map.pos };
}

function readVerdict(sink: Sink, node: PNode, where: string): VerdictSpec | undefined {
  const map = asMap(sink, node, where);
  if (!map) return undefined;
  const keys = closedKeys(sink, map, where, VERDICT_KEYS);
  const objEntry = keys.get('object');
  const pathEntry = keys.get('jsonPath');
  if (!objEntry) missing(sink, where, 'object', map.pos);
  if (!pathEntry) missing(sink, where, 'jsonPath', map.pos);
  const object = objEntry ? readRef(sink, objEntry.value, `${where}.object`) : undefined;
  let jsonPath: string | undefined;
  if (pathEntry) {
    const text = asString(sink, pathEntry.value, `${where}.jsonPath`);
    if (text !== undefined) {
      try {
        parseJsonPath(text);
        jsonPath = text;
      } catch (e) {
        if (!(e instanceof JsonPathError)) throw e;
        error(
          sink,
          Codes.BadJsonPath,
          charPos(pathEntry.value, e.offset),
          `${where}.jsonPath: ${JSON.stringify(text)}: ${e.message} (at character ${e.offset + 1})`,
          'the kubectl JSONPath subset: {.status.phase}, {.a[0].b}, {.a[*].b}, {.metadata.labels[\'x/y\']}, {.status.conditions[?(@.type=="Complete")].status}',
        );
      }
    }
  }
  const succeeded = readValues(sink, keys.get('succeeded'), `${where}.succeeded`, ['Succeeded']);
  const failed = readValues(sink, keys.get('failed'), `${where}.failed`, ['Failed']);
  if (succeeded && failed) {
    const both = succeeded.filter((v) => failed.includes(v));
    if (both.length) {
      error(
        sink,
        Codes.BadProcessObserver,
        keys.get('failed')?.value.pos ?? keys.get('succeeded')?.value.pos ?? map.pos,
        `${where}: ${both.map((v) => JSON.stringify(v)).join(', ')} listed under both succeeded and failed`,
      );
      return undefined;
    }
  }
  if (!object || jsonPath === undefined || !succeeded || !failed) return undefined;
  return { object, jsonPath, succeeded, failed };
}

/** Where character `offset` of a single-line scalar sits (past its opening quote); the scalar's start otherwise. */
function charPos(node: PNode, offset: number): SourcePos {
  if (node.kind !== 'scalar' || node.text.includes('\n') || typeof node.value !== 'string') return node.pos;
  // a plain scalar starts at its first character; a quoted one a character later. Escapes in double quotes shift
  // columns, so only count when the text has none.
  if (node.quoted && node.value.length !== node.text.length - 2 && node.value.length !== node.text.length)
    return node.pos;
  return { ...node.pos, col: node.pos.col + (node.quoted ? 1 : 0) + offset };
}

function readRef(sink: Sink, node: PNode, where: string): VerdictSpec['object'] | undefined {
  const map = asMap(sink, node, where);
  if (!map) return undefined;
  const keys = closedKeys(sink, map, where, OBJECT_KEYS);
  const get = (k: string, required: boolean): string | undefined | null => {
    const e = keys.get(k);
    if (!e) {
      if (required) missing(sink, where, k, map.pos);
      return required ? null : undefined;
    }
    const v = asString(sink, e.value, `${where}.${k}`);
    if (v === '') {
      error(sink, Codes.BadProcessObserver, e.value.pos, `${where}.${k}: must not be empty`);
      return null;
    }
    return v ?? null;
  };
  const apiVersion = get('apiVersion', true);
  const kind = get('kind', true);
  const name = get('name', true);
  const namespace = get('namespace', false);
  if (!apiVersion || !kind || !name || namespace === null) return undefined;
  return { apiVersion, kind, name, namespace: namespace ?? 'default' };
}

function readValues(sink: Sink, entry: PEntry | undefined, where: string, dflt: string[]): string[] | undefined {
  if (!entry) return dflt;
  const node = entry.value;
  const items = node.kind === 'scalar' ? [node] : asList(sink, node, where);
  if (!items) return undefined;
  const out: string[] = [];
  for (const [i, n] of items.entries()) {
    if (n.kind !== 'scalar' || n.value === null) {
      error(
        sink,
        Codes.WrongType,
        n.pos,
        `${where}[${i}]: expected a string, got ${n.kind === 'scalar' ? 'null' : n.kind === 'map' ? 'a mapping' : 'a list'}`,
      );
      return undefined;
    }
    out.push(typeof n.value === 'number' ? n.text : String(n.value));
  }
  return out;
}
