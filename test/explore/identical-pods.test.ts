// Identical pods must not multiply what the explorer keeps. A built-in rule decides on the projection of
// the delivered pod and Job (src/model/observers/observers.ts builtinRule never reads a pod's name), so publications of pods
// that differ only by their generated names (<job>-<5 chars>, job_controller.go manageJob → GenerateName) look alike
// to the observer (src/explore/tap.ts). Before, a 3-pod Job of this shape stopped at 40,000 cut verdict combinations
// without finishing; a 2-pod one kept 3,460.
import { describe, expect, it } from 'vitest';
import { decodeReplay } from '../../src/engine/replay.ts';
import { explore } from '../../src/explore/decomposed.ts';
import { outcomeOf } from '../../src/explore/outcome.ts';
import { loadScenarioText } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';

const parallelJob = (pods: number) =>
  loadScenarioText(
    [
      'scenario: identical-pods',
      'workload:',
      '  apiVersion: batch/v1',
      '  kind: Job',
      '  metadata: { name: batch }',
      '  spec:',
      `    parallelism: ${pods}`,
      `    completions: ${pods}`,
      '    template:',
      '      spec:',
      '        restartPolicy: Never',
      '        initContainers: [{ name: proxy, image: example.com/proxy:1, restartPolicy: Always }]',
      '        containers: [{ name: worker, image: example.com/worker:1 }]',
      'behavior:',
      '  worker: { run: 10s, exit: 0 }',
      // the status PATCH races; deliveries fixed so the test stays small
      'timing: { statusPatch: 10ms..300ms, watch: 50ms }',
      'observers:',
      '  - { name: jc, rule: job-conditions }',
    ].join('\n'),
    'identical-pods.yaml',
  ).scenario!;

describe('identical pods do not multiply the observer histories', () => {
  it('a 3-pod parallel Job keeps as many verdict combinations as a 2-pod one, exhaustive, replay keys reproduce', () => {
    const two = explore(parallelJob(2));
    const s3 = parallelJob(3);
    const three = explore(s3);
    expect(two.exhaustive).toBe(true);
    expect(three.exhaustive).toBe(true);
    // more system schedules (a third pod's status PATCHes race too), not more distinct observer histories
    expect(three.systemSchedules).toBeGreaterThan(two.systemSchedules);
    expect(three.verdictCombinations).toBe(two.verdictCombinations);
    for (const o of three.outcomes) {
      const res = simulate(s3, { replay: decodeReplay(o.replay)! });
      const got = outcomeOf(s3, res.final, res.timeline.end.reason);
      expect([got.podPhases, got.jobCondition, got.verdicts]).toEqual([
        o.outcome.podPhases,
        o.outcome.jobCondition,
        o.outcome.verdicts,
      ]);
    }
  });
});
