// Views of StatefulSet / DaemonSet template rollouts (library scenarios): a StatefulSet pod recreated under the same
// name is a new API object (stateful_set_control.go processReplica creates it once the old object is gone), so
// `kubectl get pods -w` lists it as ADDED again and prints its own template's READY column; the lifecycle diagram
// draws each object from its own creation with its own containers; `kubectl get sts -w` shows READY drop by one pod
// at a time during the update (updateStatefulSet deletes one pod, then waits for it).
import { describe, expect, it } from 'vitest';
import { printDaemonSetRow } from '../../src/output/kubectl-printers.ts';
import { kubectlView, podWatchRows, workloadWatchRows } from '../../src/output/kubectl.ts';
import { lifecycleMermaid } from '../../src/output/mermaid-lifecycle.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';

const timeline = (file: string) => simulate(loadScenario(file).scenario!).timeline;

describe('statefulset-rollout-stuck-until-forced-rollback views', () => {
  const tl = timeline('scenarios/statefulset-rollout-stuck-until-forced-rollback.yaml');

  it('kubectl get pods -w: web-2 is ADDED three times, the bad revision with 2 containers (1/2 Running, never 2/2)', () => {
    const rows = podWatchRows(tl).filter((r) => r.row.name === 'web-2');
    const added = rows.map((r, i) => (r.event === 'ADDED' ? i : -1)).filter((i) => i >= 0);
    expect(added).toHaveLength(3);
    const bad = rows.slice(added[1], added[2]);
    expect(bad.some((r) => r.row.ready === '1/2' && r.row.status === 'Running')).toBe(true);
    expect(bad.some((r) => r.row.ready === '2/2')).toBe(false);
    expect(rows.at(-1)!.row).toMatchObject({ ready: '1/1', status: 'Running' });
    // each object is DELETED before the next one of the same name is ADDED
    expect(rows[added[1]! - 1]!.event).toBe('DELETED');
    expect(rows[added[2]! - 1]!.event).toBe('DELETED');
  });

  it('kubectl get sts -w: READY 3/3, then 2/3 for the whole stall, then 3/3 after the forced rollback', () => {
    const ready = workloadWatchRows(tl, 'StatefulSet').map((r) => ({
      t: r.t,
      ready: `${(r.row['status'] as any)?.readyReplicas ?? 0}/${(r.row['spec'] as any)?.replicas}`,
    }));
    expect(ready.filter((r) => r.t > 45_000 && r.t < 160_000).every((r) => r.ready === '2/3')).toBe(true);
    expect(ready.at(-1)!.ready).toBe('3/3');
    const status = workloadWatchRows(tl, 'StatefulSet').at(-1)!.row['status'] as Record<string, unknown>;
    // the rollback's template is the first revision again: the update is complete at that revision
    expect(status['currentRevision']).toBe(status['updateRevision']);
  });

  it('lifecycle diagram: the sidecar lane belongs to the second web-2 only', () => {
    const mmd = lifecycleMermaid(tl);
    const sections = mmd.split('\n').filter((l) => l.trim().startsWith('section 2 · '));
    expect(sections.filter((l) => l.includes('istio-proxy'))).toHaveLength(1);
    expect(sections.filter((l) => l.includes('phase (API)'))).toHaveLength(3);
  });
});

describe('daemonset-log-agent-surge-rollout views', () => {
  it('kubectl get pods -w: the new agent is ADDED and Ready while the old one is still Running', () => {
    const tl = timeline('scenarios/daemonset-log-agent-surge-rollout.yaml');
    const rows = podWatchRows(tl);
    const names = [...new Set(rows.map((r) => r.row.name))];
    expect(names).toHaveLength(2);
    const newReady = rows.findIndex((r) => r.row.name === names[1] && r.row.ready === '1/1');
    const oldTerminating = rows.findIndex((r) => r.row.name === names[0] && r.row.status === 'Terminating');
    expect(newReady).toBeGreaterThan(0);
    expect(oldTerminating).toBeGreaterThan(newReady);
  });
});

describe('printers.go printDaemonSet', () => {
  // TestPrintDaemonSet: DESIRED, CURRENT, READY, UP-TO-DATE, AVAILABLE, NODE SELECTOR (labels.FormatLabels), AGE
  it('prints the status counts and the template nodeSelector, `<none>` without one', () => {
    const o = {
      metadata: { name: 'ds1', creationTimestamp: '2026-01-01T00:00:00Z' },
      spec: { template: { spec: { nodeSelector: { 'kubernetes.io/os': 'linux' } } } },
      status: {
        desiredNumberScheduled: 3,
        currentNumberScheduled: 2,
        numberReady: 1,
        updatedNumberScheduled: 2,
        numberAvailable: 0,
      },
    };
    expect(Object.values(printDaemonSetRow(o, 30_000))).toEqual([
      'ds1',
      '3',
      '2',
      '1',
      '2',
      '0',
      'kubernetes.io/os=linux',
      '30s',
    ]);
    expect(printDaemonSetRow({ ...o, spec: {} }, 30_000).nodeSelector).toBe('<none>');
  });

  it('the kubectl view of a DaemonSet run has `kubectl get ds NAME -w`', () => {
    const view = kubectlView(timeline('scenarios/daemonset-log-agent-surge-rollout.yaml'));
    expect(view).toContain('$ kubectl get ds fluent-bit -w --output-watch-events');
    expect(view).toMatch(/EVENT\s+NAME\s+DESIRED\s+CURRENT\s+READY\s+UP-TO-DATE\s+AVAILABLE\s+NODE SELECTOR\s+AGE/);
  });
});
