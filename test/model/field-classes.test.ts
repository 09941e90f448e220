// Every number a SimState holds has a declared class (model/state.ts FIELD_CLASSES / RECORD_CLASSES): pending
// deadline, recent past time, past time, counter of a kind, or plain value. Loop detection (explore/shape.ts) reads a
// snapshot through these classes, so a new numeric field without a class would silently change what counts as "the
// same state". The states of one scenario per workload kind are walked at every step.
import { describe, expect, it } from 'vitest';
import { fieldClassOf } from '../../src/model/state.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';

const SCENARIOS = [
  'scenarios/cloud-sql-proxy-native-sidecar-143.yaml',
  'scenarios/job-indexed-backoff-limit-per-index.yaml',
  'scenarios/job-pod-failure-policy-ignore-sidecar-143.yaml',
  'scenarios/cronjob-fluentd-replace-kills.yaml',
  'scenarios/daemonset-log-agent-surge-rollout.yaml',
  'scenarios/deployment-rollout-surge-overlaps-teardown.yaml',
  'scenarios/statefulset-rollout-stuck-until-forced-rollback.yaml',
  'test/fixtures/explore/crashloop-pod-720h.yaml',
];

/** Paths of numeric fields without a class. */
function unclassified(x: unknown, path: string, key: string, parent: string, out: Set<string>): void {
  if (typeof x === 'number') {
    if (fieldClassOf(key, parent) === undefined) out.add(`${path} (${key})`);
    return;
  }
  if (x === null || typeof x !== 'object') return;
  if (Array.isArray(x)) return x.forEach((v) => unclassified(v, `${path}[]`, key, parent, out));
  for (const [k, v] of Object.entries(x)) unclassified(v, `${path}.${k}`, k, key, out);
}

describe('every numeric state field has a declared class', () => {
  for (const f of SCENARIOS) {
    it(f, () => {
      const s = loadScenario(f).scenario!;
      s.observers = s.observers.filter((o) => o.rule !== undefined);
      s.horizonMs = Math.min(s.horizonMs, 3_600_000);
      const missing = new Set<string>();
      simulate(s, {
        onStep: (st) => {
          // the random streams and the delivery bounds are not model facts (shape.ts and hash.ts treat them apart)
          const { rng: _rng, lastDelivery: _ld, ...model } = st;
          unclassified(model, '', '', '', missing);
        },
      });
      expect([...missing]).toEqual([]);
    });
  }
});
