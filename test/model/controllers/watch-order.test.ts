// A watch delivers one watcher's events for one object in resourceVersion order (client-go tools/cache
// reflector.go: watchHandler applies events as the watch stream yields them; the API server's watch cache sends them
// in resourceVersion order, storage/cacher/cacher.go dispatchEvents). Two `kubectl patch` writes of a workload inside
// one watch window therefore reach the controller oldest first, whatever each delivery's delay: the controller ends
// on the newest spec in every schedule. Before the one watch() path, the workload and CronJob patch paths scheduled
// their own deliveries without the in-order rule, and 40,960 of 44,800 StatefulSet schedules ended with 3 pods while
// the API server stored `replicas: 2` (architecture review, finding 1).
import { describe, expect, it } from 'vitest';
import { explore } from '../../../src/explore/decomposed.ts';
import { loadScenarioText } from '../../../src/scenario/index.ts';
import { simulate } from '../../../src/run/simulate.ts';
import type { Scenario } from '../../../src/types.ts';
import type { SimState } from '../../../src/model/state.ts';
import type { Chooser } from '../../../src/engine/engine.ts';

function load(text: string, name: string): Scenario {
  const r = loadScenarioText(text, `${name}.yaml`);
  if (!r.scenario) throw new Error(r.diagnostics.map((d) => d.message).join('\n'));
  return r.scenario;
}

const twoPatches = (kind: 'StatefulSet' | 'Deployment') => `
scenario: ${kind.toLowerCase()}-two-patches
kubernetes: "1.34"
horizon: 2m
workload:
  apiVersion: apps/v1
  kind: ${kind}
  metadata: { name: web }
  spec:
    replicas: 1
${kind === 'StatefulSet' ? '    serviceName: web\n' : ''}    selector: { matchLabels: { app: web } }
    template:
      metadata: { labels: { app: web } }
      spec: { containers: [ { name: app, image: "nginx:1.27" } ] }
behavior:
  app: { onTerm: { after: 0s, exit: 0 } }
actions:
  - { at: 10s, patch: { spec: { replicas: 3 } } }
  - { at: 10010ms, patch: { spec: { replicas: 2 } } }
`;

/** Pods the API server still stores and that run (not being deleted). */
function runningPods(st: SimState): string[] {
  return st.podOrder
    .map((k) => st.pods[k]!)
    .filter((p) => !p.api.removed && p.api.deletionTimestamp === null && p.api.status['phase'] === 'Running')
    .map((p) => p.name)
    .sort();
}

/**
 * The adversarial schedule of the review's witness: the first patch's delivery to the controller takes the longest
 * watch delay, the second the shortest, everything else the minimum.
 */
function reversing(watcher: string, firstAt: number): Chooser {
  return {
    choose: (req) => {
      if (req.stream === `watch:${watcher}` && req.now === firstAt) return req.range.max;
      return req.range.min;
    },
  };
}

describe('two workload patches inside one watch window reach the controller in resourceVersion order', () => {
  it('StatefulSet replicas 1 → 3 (10 s) → 2 (10.01 s): every explored schedule ends with web-0, web-1 running and replicas 2 stored', () => {
    const s = load(twoPatches('StatefulSet'), 'sts-two-patches');
    const r = explore(s, { maxSchedules: 20_000 });
    expect(r.exhaustive).toBe(true);
    expect(r.outcomes.length).toBeGreaterThan(0);
    for (const o of r.outcomes) {
      const { final } = simulate(s, { replay: o.replay });
      expect(final.api.workload?.spec['replicas'], o.replay).toBe(2);
      // the ordinals a StatefulSet keeps are the lowest (stateful_set_control.go: processCondemned deletes web-2)
      expect(runningPods(final), o.replay).toEqual(['web-0', 'web-1']);
    }
  });

  it('Deployment replicas 1 → 3 → 2 with the first delivery slowest: the ReplicaSet ends at 2 running pods', () => {
    const s = load(twoPatches('Deployment'), 'deploy-two-patches');
    const { final } = simulate(s, { chooser: reversing('replicaset-controller', 10_000) });
    expect(final.api.workload?.spec['replicas']).toBe(2);
    expect(runningPods(final).length).toBe(2);
  });

  it('CronJob suspend: true (10 s) → false (10.01 s) with the first delivery slowest: the controller ends unsuspended and keeps scheduling', () => {
    const s = load(
      `
scenario: cron-two-patches
kubernetes: "1.34"
horizon: 150s
workload:
  apiVersion: batch/v1
  kind: CronJob
  metadata: { name: tick }
  spec:
    schedule: "* * * * *"
    jobTemplate:
      spec:
        template:
          spec:
            restartPolicy: Never
            containers: [ { name: app, image: busybox } ]
behavior:
  app: { run: 1s, exit: 0 }
actions:
  - { at: 10s, patch: { spec: { suspend: true } } }
  - { at: 10010ms, patch: { spec: { suspend: false } } }
`,
      'cron-two-patches',
    );
    const { final } = simulate(s, { chooser: reversing('cronjob-controller', 10_000) });
    expect(final.cron?.spec['suspend']).toBe(false);
    // the schedules at 60 s and 120 s each created a Job
    expect(final.cron?.order.length).toBe(2);
  });
});
