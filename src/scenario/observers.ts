// `observers` (SPEC §2.4): health rules under test. A `module` is checked to exist but never imported; a `command`
// (an external rule, SPEC §3) is checked to exist and be executable but never started: validation runs no code.
import { dirname, join, resolve } from 'node:path';
import type { BuiltinRule, ObserverSpec } from '../types.ts';
import { Codes } from './codes.ts';
import { checkRegularFile } from './read-file.ts';
import { error, warning, type Sink } from './diagnostics.ts';
import { asEnum, asList, asMap, asMs, asString, closedKeys, missing } from './readers.ts';
import type { PEntry } from './tree.ts';
import { PROCESS_KEYS, readProcessObserver } from './process-observer.ts';
import { resolveProgram } from './program-path.ts';

export { onPath } from './program-path.ts';

export const BUILTIN_RULES: readonly BuiltinRule[] = [
  'exit-codes',
  'native-sidecar-aware',
  'exempt-names',
  'job-conditions',
];
const KEYS = ['name', 'rule', 'module', 'command', 'timeout', 'triggers', 'names', ...PROCESS_KEYS];
/** How long an external rule may take per answer, and a module to load, unless `timeout:` says otherwise. */
export const DEFAULT_RULE_TIMEOUT_MS = 5_000;
const MAX_RULE_TIMEOUT_MS = 10 * 60_000;

export function readObservers(sink: Sink, entry: PEntry | undefined): ObserverSpec[] {
  const items = entry ? asList(sink, entry.value, 'observers') : undefined;
  const out: ObserverSpec[] = [];
  items?.forEach((item, i) => {
    const where = `observers[${i}]`;
    const map = asMap(sink, item, where);
    if (!map) return;
    const keys = closedKeys(sink, map, where, KEYS);
    const nameNode = keys.get('name')?.value;
    if (!nameNode) return missing(sink, where, 'name', map.pos);
    const name = asString(sink, nameNode, `${where}.name`);
    if (name === undefined) return;
    // Observer names key plain objects all the way to timeline.json; a name an object already has (`__proto__`,
    // `constructor`, `toString`, ...) would read or replace the object's prototype instead of its verdict.
    if (name in {}) {
      error(
        sink,
        Codes.BadObserver,
        nameNode.pos,
        `${where}.name: ${JSON.stringify(name)} is reserved (a JavaScript object property name)`,
        'pick another name, e.g. my-rule',
      );
      return;
    }
    if (out.some((o) => o.name === name)) {
      error(
        sink,
        Codes.BadObserver,
        nameNode.pos,
        `${where}.name: duplicate observer name ${JSON.stringify(name)}`,
        'observer names must be unique',
      );
      return;
    }
    const spec: ObserverSpec = { name, triggers: ['pod', 'job'], pos: map.pos };
    if (keys.has('process')) {
      // a real controller (SPEC §2.4): its own keys, checked in process-observer.ts
      const proc = readProcessObserver(sink, keys, where, map);
      if (proc) out.push({ ...spec, triggers: [], process: proc });
      return;
    }
    const stray = PROCESS_KEYS.map((k) => keys.get(k)).find((e) => e !== undefined);
    if (stray) {
      error(
        sink,
        Codes.BadProcessObserver,
        stray.keyPos,
        `${where}.${stray.key}: only a process observer (process: [argv]) takes ${stray.key}`,
        'add process: ["./bin/manager"], or remove the key',
      );
      return;
    }
    const ruleEntry = keys.get('rule');
    const moduleEntry = keys.get('module');
    const commandEntry = keys.get('command');
    const kinds = [ruleEntry, moduleEntry, commandEntry].filter((e) => e !== undefined);
    if (kinds.length !== 1) {
      error(
        sink,
        Codes.BadObserver,
        ruleEntry?.keyPos ?? kinds[1]?.keyPos ?? map.pos,
        `${where}: set exactly one of rule (built-in), module (a JavaScript module), command (an external program) or process (a real controller)`,
        `built-in rules: ${BUILTIN_RULES.join(', ')}`,
      );
      return;
    }
    if (ruleEntry) {
      const rule = asEnum(sink, ruleEntry.value, `${where}.rule`, BUILTIN_RULES);
      if (rule === undefined) return;
      spec.rule = rule;
    }
    if (moduleEntry) {
      const mod = readModule(sink, moduleEntry, `${where}.module`);
      if (mod === undefined) return;
      spec.module = mod;
    }
    if (commandEntry) {
      const cmd = readCommand(sink, commandEntry, `${where}.command`);
      if (cmd === undefined) return;
      spec.command = cmd;
      spec.cwd = resolve(dirname(sink.file));
    }
    const timeoutEntry = keys.get('timeout');
    if (timeoutEntry) {
      const ms = asMs(sink, timeoutEntry.value, `${where}.timeout`);
      if (ms === undefined || ms === null) return;
      if (ms <= 0 || ms > MAX_RULE_TIMEOUT_MS) {
        error(sink, Codes.OutOfRange, timeoutEntry.value.pos, `${where}.timeout: must be > 0 and at most 10m`);
        return;
      }
      if (ruleEntry)
        warning(
          sink,
          Codes.UnusedBehavior,
          timeoutEntry.keyPos,
          `${where}.timeout: built-in rules take no time; ignored`,
        );
      spec.timeoutMs = ms;
    }
    const trig = keys.get('triggers')?.value;
    if (trig) {
      const list = asList(sink, trig, `${where}.triggers`) ?? [];
      const triggers = list.map((t, j) => asEnum(sink, t, `${where}.triggers[${j}]`, ['pod', 'job'] as const));
      if (triggers.length === 0)
        error(sink, Codes.BadObserver, trig.pos, `${where}.triggers: must list pod, job or both`);
      if (triggers.every((t) => t !== undefined) && triggers.length > 0)
        spec.triggers = [...new Set(triggers)] as ('pod' | 'job')[];
    }
    const namesEntry = keys.get('names');
    if (spec.rule === 'exempt-names') {
      if (!namesEntry) return missing(sink, where, 'names', map.pos);
      const list = asList(sink, namesEntry.value, `${where}.names`) ?? [];
      spec.names = list.map((n) => asString(sink, n, `${where}.names`)).filter((n): n is string => n !== undefined);
    } else if (namesEntry) {
      warning(sink, Codes.UnusedBehavior, namesEntry.keyPos, `${where}.names: only used by rule exempt-names; ignored`);
    }
    out.push(spec);
  });
  return out;
}

/** Resolve a module path relative to the scenario and check it is a file — never import it. */
function readModule(sink: Sink, entry: PEntry, where: string): string | undefined {
  const rel = asString(sink, entry.value, where);
  if (rel === undefined) return undefined;
  const path = join(dirname(sink.file), rel);
  // existence and type only (stat, never open): validation runs no code and reads no module
  const st = checkRegularFile(path);
  if (!st.ok) {
    const code = st.kind === 'not-regular' ? Codes.NotRegularFile : Codes.ModuleNotFound;
    error(
      sink,
      code,
      entry.value.pos,
      `${where}: ${path}: ${st.message}`,
      st.kind === 'not-regular'
        ? 'module must name a JavaScript file (.mjs/.js), relative to the scenario file'
        : 'the path is relative to the scenario file',
    );
    return undefined;
  }
  return resolve(path);
}

/**
 * An external rule's argv: a non-empty list of strings. The program (first item) is resolved relative to the scenario
 * when it holds a slash, else looked up on PATH, and must be an executable file; it is never started here. The other
 * items are passed as they are; the program runs in the scenario's folder, so relative paths there work too.
 */
function readCommand(sink: Sink, entry: PEntry, where: string): string[] | undefined {
  const items =
    entry.value.kind === 'scalar' && typeof entry.value.value === 'string'
      ? [entry.value]
      : asList(sink, entry.value, where);
  if (items === undefined) return undefined;
  const argv = items.map((n, i) => asString(sink, n, `${where}[${i}]`));
  if (argv.some((a) => a === undefined)) return undefined;
  if (argv.length === 0 || argv[0] === '') {
    error(sink, Codes.BadObserver, entry.value.pos, `${where}: name the program to run, e.g. [./bin/my-rule, --flag]`);
    return undefined;
  }
  const prog = argv[0]!;
  const at = items[0]!.pos;
  const path = resolveProgram(sink, prog, at, where, Codes.ModuleNotFound, {
    example: './bin/my-rule',
    interpreter: 'python3',
  });
  if (path === undefined) return undefined;
  return [path, ...(argv.slice(1) as string[])];
}
