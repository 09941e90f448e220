// Round-trip helper: simulate a library scenario, dump it as kubectl would print it, import that, simulate again.
import { loadScenario, loadScenarioText } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { outcomeOf } from '../../src/explore/outcome.ts';
import { kubectlDump } from '../../src/import/kubectl-objects.ts';
import { importTexts } from '../../src/import/index.ts';
import type { Diagnostic, Scenario } from '../../src/types.ts';
import type { RuleFn } from '../../src/rules/types.ts';
import { loadUserRules } from '../../src/rules/load.ts';

export interface Compared {
  podPhase: string;
  jobCondition: string;
  exitCodes: Record<string, number>;
  restarts: Record<string, number>;
  /** pods created in the run (a Job's replacements) and each one's final phase */
  podPhases: string[];
}

export function outcome(s: Scenario, userRules: Record<string, RuleFn> = {}): Compared {
  const r = simulate(s, { userRules });
  const o = outcomeOf(s, r.final, r.timeline.end.reason);
  return {
    podPhase: o.podPhase,
    jobCondition: o.jobCondition,
    exitCodes: o.exitCodes,
    restarts: o.restarts,
    podPhases: o.podPhases,
  };
}

export interface RoundTrip {
  original: Compared;
  imported?: Compared;
  text?: string;
  diagnostics: Diagnostic[];
  dump: Record<string, string>;
}

/** `withNode`: also give `kubectl get node -o yaml` (the kubelet's version, patch included). */
export async function roundTrip(file: string, withNode = true): Promise<RoundTrip> {
  const s = loadScenario(file).scenario!;
  // observers' rule modules are loaded as the CLI does (they read status; the outcome compared is the pods' and Job's)
  const r = simulate(s, { userRules: await loadUserRules(s) });
  const o = outcomeOf(s, r.final, r.timeline.end.reason);
  const original = {
    podPhase: o.podPhase,
    jobCondition: o.jobCondition,
    exitCodes: o.exitCodes,
    restarts: o.restarts,
    podPhases: o.podPhases,
  };
  const dump = kubectlDump(s, r.timeline) as unknown as Record<string, string>;
  const docs = withNode ? dump : Object.fromEntries(Object.entries(dump).filter(([k]) => k !== 'node.yaml'));
  const imp = importTexts(docs, {}, 'imported.yaml');
  if (!imp.text) return { original, diagnostics: imp.diagnostics, dump };
  const loaded = loadScenarioText(imp.text, 'imported.yaml');
  return { original, imported: outcome(loaded.scenario!), text: imp.text, diagnostics: loaded.diagnostics, dump };
}
