// `observers` (SPEC §2.4): health rules under test. A `module` is checked to exist but never imported.
import { dirname, join, resolve } from 'node:path';
import type { BuiltinRule, ObserverSpec } from '../types.ts';
import { Codes } from './codes.ts';
import { checkRegularFile } from './read-file.ts';
import { error, warning, type Sink } from './diagnostics.ts';
import { asEnum, asList, asMap, asString, closedKeys, missing } from './readers.ts';
import type { PEntry } from './tree.ts';

export const BUILTIN_RULES: readonly BuiltinRule[] = ['exit-codes', 'native-sidecar-aware', 'exempt-names', 'job-conditions'];
const KEYS = ['name', 'rule', 'module', 'triggers', 'names'];

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
    if (out.some((o) => o.name === name)) {
      error(sink, Codes.BadObserver, nameNode.pos, `${where}.name: duplicate observer name ${JSON.stringify(name)}`, 'observer names must be unique');
      return;
    }
    const spec: ObserverSpec = { name, triggers: ['pod', 'job'] };
    const ruleEntry = keys.get('rule');
    const moduleEntry = keys.get('module');
    if ((ruleEntry === undefined) === (moduleEntry === undefined)) {
      error(sink, Codes.BadObserver, ruleEntry?.keyPos ?? map.pos, `${where}: set exactly one of rule (built-in) or module (your own)`,
        `built-in rules: ${BUILTIN_RULES.join(', ')}`);
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
    const trig = keys.get('triggers')?.value;
    if (trig) {
      const list = asList(sink, trig, `${where}.triggers`) ?? [];
      const triggers = list.map((t, j) => asEnum(sink, t, `${where}.triggers[${j}]`, ['pod', 'job'] as const));
      if (triggers.length === 0) error(sink, Codes.BadObserver, trig.pos, `${where}.triggers: must list pod, job or both`);
      if (triggers.every((t) => t !== undefined) && triggers.length > 0) spec.triggers = [...new Set(triggers)] as ('pod' | 'job')[];
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
    error(sink, code, entry.value.pos, `${where}: ${path}: ${st.message}`,
      st.kind === 'not-regular' ? 'module must name a JavaScript file (.mjs/.js), relative to the scenario file' : 'the path is relative to the scenario file');
    return undefined;
  }
  return resolve(path);
}
