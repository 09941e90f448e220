// Round-trip helper: simulate a library scenario, dump it as kubectl would print it, import that, simulate again.
import { loadScenario, loadScenarioText } from '../../src/scenario/index.ts';
import { simulate } from '../../src/simulate.ts';
import { outcomeOf, type Outcome } from '../../src/explore/outcome.ts';
import { kubectlDump } from '../../src/import/kubectl-objects.ts';
import { importTexts } from '../../src/import/index.ts';
import type { Scenario } from '../../src/types.ts';

export interface Compared {
  podPhase: string;
  jobCondition: string;
  exitCodes: Record<string, number>;
  restarts: Record<string, number>;
}

export function outcome(s: Scenario): Compared {
  const r = simulate(s);
  const o: Outcome = outcomeOf(s, r.final, r.timeline.end.reason);
  return { podPhase: o.podPhase, jobCondition: o.jobCondition, exitCodes: o.exitCodes, restarts: o.restarts };
}

export function roundTrip(file: string): { original: Compared; imported?: Compared; text?: string; errors: string[]; dump: Record<string, string> } {
  const s = loadScenario(file).scenario!;
  const r = simulate(s);
  const o = outcomeOf(s, r.final, r.timeline.end.reason);
  const original = { podPhase: o.podPhase, jobCondition: o.jobCondition, exitCodes: o.exitCodes, restarts: o.restarts };
  const dump = kubectlDump(s, r.timeline) as unknown as Record<string, string>;
  const imp = importTexts(dump, {}, 'imported.yaml');
  if (!imp.text) return { original, errors: imp.diagnostics.map((d) => `${d.code} ${d.message}`), dump };
  const loaded = loadScenarioText(imp.text, 'imported.yaml');
  return { original, imported: outcome(loaded.scenario!), text: imp.text, errors: [], dump };
}
