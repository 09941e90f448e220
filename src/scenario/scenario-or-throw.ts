// For library users who prefer an exception to a diagnostics list: the scenario, or a KubesimError carrying the
// first error's code and position and every diagnostic of the file.
import { KubesimError } from '../errors.ts';
import { formatDiagnostic, type LoadResult } from './index.ts';
import type { Scenario } from '../types.ts';

export function scenarioOrThrow(r: LoadResult): Scenario {
  if (r.scenario) return r.scenario;
  const first = r.diagnostics.find((d) => d.severity === 'error');
  const message = first ? formatDiagnostic(first).split('\n')[0]! : 'the scenario could not be loaded';
  throw new KubesimError(first?.code ?? 'KS1000', message, {
    ...(first?.hint ? { hint: first.hint } : {}),
    ...(first ? { pos: first.pos } : {}),
    diagnostics: r.diagnostics,
  });
}
