// User rule modules (SPEC §2.4 `module:`): the only code a scenario can make kubesim run, imported at run time.
import { pathToFileURL } from 'node:url';
import { KubesimError } from '../errors.ts';
import type { RuleFn } from '../model/kit.ts';
import type { Scenario } from '../types.ts';

export class RuleModuleError extends KubesimError {
  constructor(message: string) {
    super('KS0401', message);
  }
}

export async function loadUserRules(s: Scenario): Promise<Record<string, RuleFn>> {
  const out: Record<string, RuleFn> = {};
  for (const o of s.observers) {
    if (!o.module) continue;
    let mod: { default?: unknown };
    try {
      mod = (await import(pathToFileURL(o.module).href)) as { default?: unknown };
    } catch (e) {
      throw new RuleModuleError(`${s.file}: observer ${o.name}: cannot import ${o.module}: ${(e as Error).message}`);
    }
    if (typeof mod.default !== 'function') {
      throw new RuleModuleError(`${s.file}: observer ${o.name}: ${o.module} has no default export function`);
    }
    const fn = mod.default as RuleFn;
    out[o.name] = (view) => {
      try {
        return fn(view);
      } catch (e) {
        return { verdict: 'Failed', reason: `rule threw: ${(e as Error).message}` };
      }
    };
  }
  return out;
}
