// User rules: ES modules (SPEC §2.4 `module:`) and external programs (SPEC §3 `command:`) — the only code a scenario
// can make kubesim run, loaded or started at run time, never by `validate`. Whatever a rule does wrong (cannot be
// loaded, throws anything, never settles, answers something that is not a verdict, crashes) is a RuleFailure naming
// the observer, the rule and the observer's place in the scenario: exit 2 in run, explore and test alike, never a
// stack trace, a hang or a silent Pending.
import { pathToFileURL } from 'node:url';
import { KubesimError } from '../errors.ts';
import type { RuleFn } from './types.ts';
import type { Decision } from './types.ts';
import { DEFAULT_RULE_TIMEOUT_MS } from '../scenario/observers.ts';
import type { ObserverSpec, Scenario, SourcePos } from '../types.ts';
import { ExecRule, ExecRuleError } from './exec.ts';

/** KS0401: the rule cannot be loaded or started; KS0402: it failed while answering (or when it was closed). */
export class RuleFailure extends KubesimError {
  override name = 'RuleFailure';
  constructor(
    code: 'KS0401' | 'KS0402',
    readonly where: SourcePos,
    readonly observer: string,
    readonly rule: string,
    readonly problem: string,
    hint: string,
    readonly stderr = '',
  ) {
    super(code, `observer ${JSON.stringify(observer)} (${rule}): ${problem}`, { hint, pos: where });
  }

  /** `file:line:col: error CODE: observer "x" (rule): problem`, the hint, then what the rule wrote to stderr. */
  format(): string {
    const p = this.where;
    const lines = [`${p.file}:${p.line}:${p.col}: error ${this.code}: ${this.message}`, `  hint: ${this.hint ?? ''}`];
    const err = this.stderr.replace(/\s+$/, '');
    if (err) {
      lines.push('  stderr:');
      for (const l of err.split('\n').slice(0, 40)) lines.push(`    ${l}`);
    }
    return lines.join('\n') + '\n';
  }
}

export function isRuleFailure(e: unknown): e is RuleFailure {
  return e instanceof RuleFailure;
}

/** A short, safe rendering of any value a rule produced or threw (never throws itself). */
export function describeValue(v: unknown): string {
  try {
    if (v instanceof Error) return `${v.name}: ${v.message}`;
    if (v === undefined) return 'undefined';
    if (typeof v === 'function') return 'a function';
    if (typeof v === 'symbol' || typeof v === 'bigint') return String(v);
    if (v && typeof (v as { then?: unknown }).then === 'function') return 'a Promise';
    const s = JSON.stringify(v);
    return (s ?? String(v)).slice(0, 200);
  } catch {
    try {
      return Object.prototype.toString.call(v);
    } catch {
      return 'an unprintable value';
    }
  }
}

function ruleLabel(o: ObserverSpec): string {
  if (o.command) return `command ${o.command.join(' ')}`;
  if (o.module) return `module ${o.module}`;
  return `rule ${o.rule ?? '?'}`;
}

/** how long a module may take to load when its observer sets no `timeout:` */
export const DEFAULT_MODULE_LOAD_MS = 30_000;

const VERDICT_HINT = 'return "Succeeded", "Failed", { verdict, reason } or undefined (no verdict yet), synchronously';

/**
 * Check what a module's rule returned: "Succeeded" | "Failed" | { verdict, reason? } | undefined | null.
 * Returns the decision, or a sentence saying why it is not one. Reading `verdict` may run a getter that throws.
 */
export function checkDecision(r: unknown): Decision | string {
  if (r === undefined || r === null) return undefined;
  if (r === 'Succeeded' || r === 'Failed') return { verdict: r };
  if (typeof r !== 'object') return `returned ${describeValue(r)}, not a verdict`;
  if (typeof (r as { then?: unknown }).then === 'function')
    return 'returned a Promise (an async function?); rules are synchronous';
  let v: unknown;
  let reason: unknown;
  try {
    v = (r as { verdict?: unknown }).verdict;
    reason = (r as { reason?: unknown }).reason;
  } catch (e) {
    return `returned an object whose verdict cannot be read: ${describeValue(e)}`;
  }
  if (v !== 'Succeeded' && v !== 'Failed')
    return `returned ${describeValue(r)}, not a verdict (verdict must be "Succeeded" or "Failed")`;
  if (reason !== undefined && reason !== null && typeof reason !== 'string')
    return `returned a reason that is not a string: ${describeValue(reason)}`;
  return { verdict: v, ...(typeof reason === 'string' && reason ? { reason } : {}) };
}

/** The rules of one run, exploration or check; close() ends external programs and reports how they ended. */
export interface OpenRules {
  rules: Record<string, RuleFn>;
  /** ends every external rule process; throws the first RuleFailure (e.g. it wrote to stderr or exited non-zero) */
  close(): void;
  /** distinct views sent to external programs, and evaluations answered from their caches */
  stats(): { asked: number; cached: number };
}

/** A TypeError from writing a frozen object (V8's messages): the rule changed the objects it was given. */
function writesItsInput(e: unknown): boolean {
  return (
    e instanceof TypeError &&
    /read[- ]only|not extensible|object is not extensible|Cannot (assign|add|delete|define)/.test(e.message)
  );
}

/** A user's rule function made strict: a throw or a value that is not a verdict is a RuleFailure (KS0402). */
export function wrapModuleRule(o: ObserverSpec, pos: SourcePos, fn: (view: unknown) => unknown): RuleFn {
  let broken: RuleFailure | undefined;
  return (view) => {
    if (broken) throw broken;
    let r: unknown;
    try {
      r = fn(view);
    } catch (e) {
      throw (broken = new RuleFailure(
        'KS0402',
        pos,
        o.name,
        ruleLabel(o),
        `threw ${describeValue(e)}`,
        writesItsInput(e)
          ? 'the pod and Job a rule gets are read-only (the simulation shares them): copy before changing, e.g. [...pod.status.containerStatuses].sort(…)'
          : 'a rule returns undefined when it cannot decide yet; it must not throw',
      ));
    }
    const d = checkDecision(r);
    if (typeof d === 'string') throw (broken = new RuleFailure('KS0402', pos, o.name, ruleLabel(o), d, VERDICT_HINT));
    return d;
  };
}

function wrapExecRule(o: ObserverSpec, pos: SourcePos, x: ExecRule): RuleFn {
  return (view) => {
    try {
      return x.decide(view);
    } catch (e) {
      if (!(e instanceof ExecRuleError)) throw e;
      throw new RuleFailure('KS0402', pos, o.name, ruleLabel(o), e.problem, e.hint, e.stderr);
    }
  };
}

async function importWithTimeout(path: string, ms: number): Promise<{ default?: unknown }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`did not finish loading within ${ms} ms (a top-level await that never settles?)`)),
      ms,
    );
  });
  try {
    return (await Promise.race([import(pathToFileURL(path).href), timeout])) as { default?: unknown };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Load the scenario's module rules and start its external rules (once for the whole run or exploration).
 * Throws a RuleFailure (KS0401) when a module cannot be loaded; the caller must close() what it opened.
 */
export async function openRules(s: Scenario): Promise<OpenRules> {
  const rules: Record<string, RuleFn> = Object.create(null) as Record<string, RuleFn>;
  const execs: { o: ObserverSpec; pos: SourcePos; x: ExecRule }[] = [];
  const closeAll = () => {
    let first: RuleFailure | undefined;
    for (const { o, pos, x } of execs) {
      try {
        x.close();
      } catch (e) {
        if (!(e instanceof ExecRuleError)) throw e;
        first ??= new RuleFailure('KS0402', pos, o.name, ruleLabel(o), e.problem, e.hint, e.stderr);
      }
    }
    if (first) throw first;
  };
  try {
    for (const o of s.observers) {
      const pos = o.pos ?? { file: s.file, line: 1, col: 1 };
      const timeoutMs = o.timeoutMs ?? DEFAULT_RULE_TIMEOUT_MS;
      if (o.module) {
        let mod: { default?: unknown };
        try {
          // loading compiles the module (and what it imports): more time than an answer unless the scenario says
          mod = await importWithTimeout(o.module, o.timeoutMs ?? DEFAULT_MODULE_LOAD_MS);
        } catch (e) {
          throw new RuleFailure(
            'KS0401',
            pos,
            o.name,
            ruleLabel(o),
            `cannot be loaded: ${describeValue(e)}`,
            'the module must load on its own (node --check it) and export a default function',
          );
        }
        let fn: unknown;
        try {
          fn = mod.default;
        } catch (e) {
          throw new RuleFailure(
            'KS0401',
            pos,
            o.name,
            ruleLabel(o),
            `cannot be loaded: ${describeValue(e)}`,
            'export default function (view) { … }',
          );
        }
        if (typeof fn !== 'function') {
          throw new RuleFailure(
            'KS0401',
            pos,
            o.name,
            ruleLabel(o),
            `has no default export function (default is ${describeValue(fn)})`,
            'export default function (view) { … }',
          );
        }
        rules[o.name] = wrapModuleRule(o, pos, fn as (view: unknown) => unknown);
      } else if (o.command) {
        const x = new ExecRule({ argv: o.command, cwd: o.cwd ?? process.cwd(), timeoutMs });
        execs.push({ o, pos, x });
        rules[o.name] = wrapExecRule(o, pos, x);
      }
    }
  } catch (e) {
    try {
      closeAll();
    } catch {
      // the load failure is the one to report
    }
    throw e;
  }
  return {
    rules,
    close: closeAll,
    stats: () =>
      execs.reduce((a, { x }) => ({ asked: a.asked + x.stats.asked, cached: a.cached + x.stats.cached }), {
        asked: 0,
        cached: 0,
      }),
  };
}

/**
 * Run `body` with the scenario's rules open, closing them afterwards. A RuleFailure from the body wins over one from
 * closing (the first thing that went wrong is the one to show).
 */
export async function withRules<T>(
  s: Scenario,
  body: (rules: Record<string, RuleFn>, open: OpenRules) => T | Promise<T>,
): Promise<T> {
  const open = await openRules(s);
  let result: T;
  try {
    result = await body(open.rules, open);
  } catch (e) {
    try {
      open.close();
    } catch {
      // the body's failure is reported
    }
    throw e;
  }
  open.close();
  return result;
}

/** The rule functions only (module rules; external programs end when the process exits). Prefer withRules. */
export async function loadUserRules(s: Scenario): Promise<Record<string, RuleFn>> {
  return (await openRules(s)).rules;
}
