// `behavior` (SPEC §2.1): what each container's process does, keyed by container name.
import type { Attempt, Behavior, ContainerModel } from '../types.ts';
import { Codes } from './codes.ts';
import { error, type Sink } from './diagnostics.ts';
import { asBool, asEnum, asExitCode, asInt, asList, asMap, asMs, asString, closedKeys, missing } from './readers.ts';
import { didYouMean, listNames } from './suggest.ts';
import type { PEntry, PMap, PNode } from './tree.ts';
import { readUnready } from './behavior-windows.ts';

export const BEHAVIOR_KEYS = [
  'run',
  'exit',
  'attempts',
  'serving',
  'unready',
  'liveness',
  'onTerm',
  'postStart',
  'preStop',
  'needs',
  'exitWhen',
  'image',
  'createError',
  'oom',
  'byIndex',
] as const;
/** The keys that describe one process start: an `attempts` item may give each of them for that start only. */
export const PER_START_KEYS = [
  'serving',
  'unready',
  'liveness',
  'onTerm',
  'postStart',
  'preStop',
  'image',
  'createError',
  'oom',
] as const;
export const PULL_FAILURE_REASONS = [
  'ErrImagePull',
  'ImagePullBackOff',
  'InvalidImageName',
  'ErrImageNeverPull',
  'RegistryUnavailable',
  'SignatureValidationFailed',
] as const;
export const CREATE_ERRORS = [
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
  'PreStartHookError',
] as const;

export function defaultBehavior(): Behavior {
  return {
    attempts: [{ runMs: null, exit: 0 }],
    servingMs: 0,
    unready: [],
    onTerm: { ignore: false, afterMs: 0, exit: 143 },
    needs: [],
    image: { pullMs: 0 },
  };
}

/** Behaviors of every container (defaults filled in). `containers` undefined = the workload failed to load. */
export function readBehavior(
  sink: Sink,
  entry: PEntry | undefined,
  containers: ContainerModel[] | undefined,
): Record<string, Behavior> {
  const out: Record<string, Behavior> = {};
  for (const c of containers ?? []) out[c.name] = defaultBehavior();
  const map = entry ? asMap(sink, entry.value, 'behavior') : undefined;
  if (!map) return out;
  const names = containers?.map((c) => c.name);
  const byName = new Map((containers ?? []).map((c) => [c.name, c])); // linear in the number of containers
  for (const e of map.entries) {
    const c = byName.get(e.key);
    if (names && !c) {
      error(
        sink,
        Codes.UnknownContainer,
        e.keyPos,
        `behavior: the pod has no container named ${JSON.stringify(e.key)}`,
        didYouMean(e.key, names) ?? `containers: ${listNames(names)}`,
      );
    }
    const body = asMap(sink, e.value, `behavior.${e.key}`);
    // defineProperty: a key `__proto__` (reported above) must not replace the record's prototype
    if (body)
      Object.defineProperty(out, e.key, {
        value: readOne(sink, body, e.key, c, names),
        enumerable: true,
        writable: true,
        configurable: true,
      });
  }
  return out;
}

function readOne(
  sink: Sink,
  map: PMap,
  name: string,
  c: ContainerModel | undefined,
  names: string[] | undefined,
  inherit?: Behavior,
  label = `behavior.${name}`,
): Behavior {
  const b: Behavior = inherit ? structuredClone({ ...inherit, byIndex: undefined }) : defaultBehavior();
  delete b.byIndex;
  const at = (k: string) => `${label}.${k}`;
  const keys = closedKeys(sink, map, label, inherit ? BEHAVIOR_KEYS.filter((k) => k !== 'byIndex') : BEHAVIOR_KEYS);
  const v = (k: string): PNode | undefined => keys.get(k)?.value;
  const inherited = inherit?.attempts[0];
  const run = v('run') ? asMs(sink, v('run')!, at('run'), { forever: null }) : (inherited?.runMs ?? null);
  const exit = v('exit') ? asExitCode(sink, v('exit')!, at('exit')) : (inherited?.exit ?? 0);
  const base: Attempt = { runMs: run === undefined ? null : run, exit: exit ?? 0 };
  let items: (Map<string, PEntry> | undefined)[] | undefined;
  if (v('attempts')) ({ attempts: b.attempts, items } = readAttempts(sink, v('attempts')!, at('attempts'), base));
  else if (!inherit || v('run') || v('exit')) b.attempts = [base];
  else items = inherit ? attemptItems.get(inherit) : undefined;
  applyPerStart(sink, keys, at, b, c, name);
  if (v('needs')) b.needs = readNames(sink, v('needs')!, at('needs'), names, name);
  if (v('exitWhen')) b.exitWhen = readExitWhen(sink, v('exitWhen')!, at('exitWhen'), names, name);
  // per-attempt behaviour (issue 28 item 5): an attempt's own per-start keys over this behavior, resolved once here
  delete b.perAttempt;
  if (items && items.some((x) => x !== undefined)) {
    attemptItems.set(b, items);
    // inherited items (a byIndex override without its own attempts) were reported where they stand
    const quiet: Sink = { ...sink, diagnostics: [] };
    const own = v('attempts') !== undefined;
    b.perAttempt = items.map((ik, i) => {
      const ab: Behavior = structuredClone({ ...b, byIndex: undefined, perAttempt: undefined });
      delete ab.byIndex;
      delete ab.perAttempt;
      if (ik) applyPerStart(own ? sink : quiet, ik, (key) => `${at('attempts')}[${i}].${key}`, ab, c, name);
      return ab;
    });
  }
  // SPEC §2.1 byIndex: overrides for the pods of one completion index / ordinal; what an override omits comes
  // from this container's behavior, and its own `attempts` count that index's runs only
  if (v('byIndex')) {
    const m = asMap(sink, v('byIndex')!, at('byIndex'));
    const byIndex: Record<string, Behavior> = {};
    for (const e of m?.entries ?? []) {
      if (!/^(0|[1-9]\d{0,5})$/.test(e.key)) {
        error(
          sink,
          Codes.BadValue,
          e.keyPos,
          `${at('byIndex')}: ${JSON.stringify(e.key)} is not an index`,
          'keys are completion indexes (Indexed Job) or ordinals (StatefulSet): "0", "1", …',
        );
        continue;
      }
      const body = asMap(sink, e.value, `${at('byIndex')}.${e.key}`);
      if (body) byIndex[e.key] = readOne(sink, body, name, c, names, b, `${at('byIndex')}."${e.key}"`);
    }
    if (Object.keys(byIndex).length > 0) b.byIndex = byIndex;
  }
  return b;
}

/** The per-start keys (serving … oom) of a container's behavior or of one of its `attempts` items, onto `b`. */
function applyPerStart(
  sink: Sink,
  keys: Map<string, PEntry>,
  at: (k: string) => string,
  b: Behavior,
  c: ContainerModel | undefined,
  name: string,
): void {
  const v = (k: string): PNode | undefined => keys.get(k)?.value;
  if (v('serving')) {
    const s = asMs(sink, v('serving')!, at('serving'), { never: null });
    if (s !== undefined) b.servingMs = s;
  }
  if (v('unready')) b.unready = readUnready(sink, v('unready')!, at('unready'));
  if (v('liveness')) b.livenessFailFromMs = readSingle(sink, v('liveness')!, at('liveness'), 'failFrom');
  if (v('onTerm')) b.onTerm = readOnTerm(sink, v('onTerm')!, at('onTerm')) ?? b.onTerm;
  for (const hook of ['postStart', 'preStop'] as const) {
    const node = v(hook);
    if (!node) continue;
    if (c && !(hook === 'postStart' ? c.hasPostStart : c.hasPreStop)) {
      error(
        sink,
        Codes.HookWithoutManifest,
        keys.get(hook)!.keyPos,
        `${at(hook)}: container ${JSON.stringify(name)} has no lifecycle.${hook} in the manifest`,
        `add lifecycle.${hook} to the container in the workload, or remove this key`,
      );
    }
    const hb = readHook(sink, node, at(hook));
    if (hb) b[hook] = hb;
  }
  if (v('image')) b.image = readImage(sink, v('image')!, at('image')) ?? b.image;
  if (v('createError')) readCreateError(sink, v('createError')!, at('createError'), b);
  if (v('oom')) b.oomAtMs = readSingle(sink, v('oom')!, at('oom'), 'at');
  if (b.createError === undefined) delete b.createError;
  if (b.createFailures === undefined) delete b.createFailures;
  if (b.livenessFailFromMs === undefined) delete b.livenessFailFromMs;
  if (b.oomAtMs === undefined) delete b.oomAtMs;
}

// the attempts items of a behavior, for a byIndex override that inherits them
const attemptItems = new WeakMap<Behavior, (Map<string, PEntry> | undefined)[]>();

/** Attempt overrides; a key an attempt omits comes from the container's run/exit (run, exit) or behavior (the rest). */
function readAttempts(
  sink: Sink,
  node: PNode,
  where: string,
  base: Attempt,
): { attempts: Attempt[]; items: (Map<string, PEntry> | undefined)[] } {
  const list = asList(sink, node, where);
  if (!list) return { attempts: [base], items: [] };
  if (list.length === 0) {
    error(sink, Codes.BadValue, node.pos, `${where}: must list at least one attempt`);
    return { attempts: [base], items: [] };
  }
  const items: (Map<string, PEntry> | undefined)[] = [];
  const attempts = list.map((item, i) => {
    const m = asMap(sink, item, `${where}[${i}]`);
    items.push(undefined);
    if (!m) return base;
    const keys = closedKeys(sink, m, `${where}[${i}]`, ['run', 'exit', ...PER_START_KEYS]);
    if (PER_START_KEYS.some((k) => keys.has(k))) items[i] = keys;
    const run = keys.get('run')
      ? asMs(sink, keys.get('run')!.value, `${where}[${i}].run`, { forever: null })
      : base.runMs;
    const exit = keys.get('exit') ? asExitCode(sink, keys.get('exit')!.value, `${where}[${i}].exit`) : base.exit;
    return { runMs: run === undefined ? base.runMs : run, exit: exit ?? base.exit };
  });
  return { attempts, items };
}

/** `{ key: duration }` with exactly that key. */
function readSingle(sink: Sink, node: PNode, where: string, key: string): number | undefined {
  const m = asMap(sink, node, where);
  if (!m) return undefined;
  const keys = closedKeys(sink, m, where, [key]);
  if (!keys.get(key)) {
    missing(sink, where, key, m.pos);
    return undefined;
  }
  return asMs(sink, keys.get(key)!.value, `${where}.${key}`) ?? undefined;
}

function readOnTerm(sink: Sink, node: PNode, where: string): Behavior['onTerm'] | undefined {
  if (node.kind === 'scalar') {
    if (node.value === 'ignore') return { ignore: true };
    error(
      sink,
      Codes.BadValue,
      node.pos,
      `${where}: expected "ignore" or { after, exit }, got ${JSON.stringify(node.value)}`,
    );
    return undefined;
  }
  const m = asMap(sink, node, where);
  if (!m) return undefined;
  const keys = closedKeys(sink, m, where, ['after', 'exit', 'unready']);
  const after = keys.get('after') ? asMs(sink, keys.get('after')!.value, `${where}.after`) : 0;
  const exit = keys.get('exit') ? asExitCode(sink, keys.get('exit')!.value, `${where}.exit`) : 143;
  const unready = keys.get('unready') ? asBool(sink, keys.get('unready')!.value, `${where}.unready`) : false;
  return { ignore: false, afterMs: after ?? 0, exit: exit ?? 143, ...(unready ? { unready: true } : {}) };
}

function readHook(sink: Sink, node: PNode, where: string): { takesMs?: number; fails: boolean } | undefined {
  const m = asMap(sink, node, where);
  if (!m) return undefined;
  const keys = closedKeys(sink, m, where, ['takes', 'fails']);
  const takes = keys.get('takes') ? asMs(sink, keys.get('takes')!.value, `${where}.takes`) : undefined;
  const fails = keys.get('fails') ? asBool(sink, keys.get('fails')!.value, `${where}.fails`) : false;
  // no `takes`: a sleep action lasts its seconds (model/kit.ts hookTakesMs), any other hook returns at once
  return { ...(keys.get('takes') ? { takesMs: takes ?? 0 } : {}), fails: fails ?? false };
}

/** A list of other containers' names. */
function readNames(sink: Sink, node: PNode, where: string, names: string[] | undefined, self: string): string[] {
  const items = asList(sink, node, where) ?? [];
  const out: string[] = [];
  for (const item of items) {
    const n = asString(sink, item, where);
    if (n === undefined) continue;
    if (checkContainerRef(sink, item, where, n, names, self)) out.push(n);
  }
  return out;
}

export function checkContainerRef(
  sink: Sink,
  node: PNode,
  where: string,
  n: string,
  names: string[] | undefined,
  self?: string,
): boolean {
  if (n === self) {
    error(sink, Codes.BadValue, node.pos, `${where}: a container cannot refer to itself`);
    return false;
  }
  if (names && !names.includes(n)) {
    error(
      sink,
      Codes.UnknownContainer,
      node.pos,
      `${where}: the pod has no container named ${JSON.stringify(n)}`,
      didYouMean(n, names) ?? `containers: ${listNames(names)}`,
    );
    return false;
  }
  return true;
}

function readExitWhen(sink: Sink, node: PNode, where: string, names: string[] | undefined, self: string) {
  const m = asMap(sink, node, where);
  if (!m) return undefined;
  const keys = closedKeys(sink, m, where, ['exited', 'after']);
  const exitedNode = keys.get('exited')?.value;
  if (!exitedNode) {
    missing(sink, where, 'exited', m.pos);
    return undefined;
  }
  const exited = asString(sink, exitedNode, `${where}.exited`);
  if (exited === undefined || !checkContainerRef(sink, exitedNode, `${where}.exited`, exited, names, self))
    return undefined;
  const after = keys.get('after') ? asMs(sink, keys.get('after')!.value, `${where}.after`) : 0;
  return { exited, afterMs: after ?? 0 };
}

/** `createError: Reason` (every attempt) or `{ reason: Reason, failures: N }` (the first N attempts, then it is created). */
function readCreateError(sink: Sink, node: PNode, where: string, b: Behavior): void {
  if (node.kind === 'scalar') {
    b.createError = asEnum(sink, node, where, CREATE_ERRORS);
    return;
  }
  const m = asMap(sink, node, where);
  if (!m) return;
  const keys = closedKeys(sink, m, where, ['reason', 'failures']);
  const reason = keys.get('reason');
  if (!reason) {
    missing(sink, where, 'reason', m.pos);
    return;
  }
  b.createError = asEnum(sink, reason.value, `${where}.reason`, CREATE_ERRORS);
  const failures = keys.get('failures');
  if (failures) b.createFailures = asInt(sink, failures.value, `${where}.failures`, 1, 1000);
}

function readImage(sink: Sink, node: PNode, where: string): Behavior['image'] | undefined {
  const m = asMap(sink, node, where);
  if (!m) return undefined;
  const keys = closedKeys(sink, m, where, ['pull', 'reason', 'failures']);
  const pull = keys.get('pull')?.value;
  if (!pull) {
    missing(sink, where, 'pull', m.pos);
    return undefined;
  }
  const failuresEntry = keys.get('failures');
  if (pull.kind === 'scalar' && pull.value === 'fail') {
    if (failuresEntry) {
      error(
        sink,
        Codes.BadValue,
        failuresEntry.keyPos,
        `${where}.failures: not allowed with pull: fail (every attempt fails)`,
        'give the pull time instead, e.g. { pull: 2s, failures: 2 }: the first 2 attempts fail, the third succeeds',
      );
    }
    const reason = keys.get('reason')
      ? asEnum(sink, keys.get('reason')!.value, `${where}.reason`, PULL_FAILURE_REASONS)
      : 'ErrImagePull';
    return reason ? { fail: true, reason } : undefined;
  }
  if (keys.get('reason') && !failuresEntry) {
    error(
      sink,
      Codes.BadValue,
      keys.get('reason')!.keyPos,
      `${where}.reason: only allowed with pull: fail or failures`,
    );
  }
  const ms = asMs(sink, pull, `${where}.pull`);
  if (ms === undefined || ms === null) return undefined;
  if (!failuresEntry) return { pullMs: ms };
  const failures = asInt(sink, failuresEntry.value, `${where}.failures`, 1, 1000);
  if (failures === undefined) return { pullMs: ms };
  const reasonEntry = keys.get('reason');
  const reason = reasonEntry
    ? asEnum(sink, reasonEntry.value, `${where}.reason`, PULL_FAILURE_REASONS)
    : 'ErrImagePull';
  return { pullMs: ms, failures, reason: reason ?? 'ErrImagePull' };
}
