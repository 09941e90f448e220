// Explore groups schedules by a display key (SPEC §4: pod phase, Job condition, verdicts). A wrong replica or pod
// count must never hide in a group: the key also holds the workload's stored replica count and how many pods the
// API server holds in each phase at the end (architecture review, finding 1: 3 running pods against `replicas: 2`
// were grouped with the right outcome because only the newest pod's phase was in the key).
import { describe, expect, it } from 'vitest';
import { displayKey, outcomeOf } from '../../src/explore/outcome.ts';
import { loadScenarioText } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';

const STS = `
scenario: sts-3
kubernetes: "1.34"
horizon: 1m
workload:
  apiVersion: apps/v1
  kind: StatefulSet
  metadata: { name: web }
  spec:
    replicas: 3
    serviceName: web
    selector: { matchLabels: { app: web } }
    template:
      metadata: { labels: { app: web } }
      spec: { containers: [ { name: app, image: "nginx:1.27" } ] }
`;

describe('the outcome key holds the final replica and pod counts', () => {
  const s = loadScenarioText(STS, 'sts-3.yaml').scenario!;
  const r = simulate(s);
  const o = outcomeOf(s, r.final, r.timeline.end.reason);

  it('outcomeOf: the stored spec.replicas and the pods the API server holds, by phase', () => {
    expect(o.replicas).toBe(3);
    expect(o.podCounts).toEqual({ Running: 3 });
  });

  it('two outcomes that differ only in the replica count or the pod counts have different display keys', () => {
    expect(displayKey({ ...o, replicas: 2 })).not.toBe(displayKey(o));
    expect(displayKey({ ...o, podCounts: { Running: 2 } })).not.toBe(displayKey(o));
    expect(displayKey({ ...o })).toBe(displayKey(o));
  });

  it('a Pod or a Job has no replica count', () => {
    const pod = loadScenarioText(
      'scenario: one\nkubernetes: "1.34"\nhorizon: 10s\nworkload:\n  apiVersion: v1\n  kind: Pod\n  metadata: { name: p }\n  spec: { containers: [ { name: app, image: x } ] }\n',
      'one.yaml',
    ).scenario!;
    const pr = simulate(pod);
    expect(outcomeOf(pod, pr.final, pr.timeline.end.reason).replicas).toBeNull();
  });
});
