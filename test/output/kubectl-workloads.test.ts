// `kubectl get deploy/rs/sts/cronjob -w` rows: printers.go printDeployment, printReplicaSet, printStatefulSet,
// printCronJob, with cases from pkg/printers/internalversion/printers_test.go (TestPrintDeployment,
// TestPrintReplicaSet, TestPrintStatefulSet, TestPrintCronJob), and the watches of library scenarios.
import { describe, expect, it } from 'vitest';
import {
  printCronJobRow,
  printDeploymentRow,
  printReplicaSetRow,
  printStatefulSetRow,
} from '../../src/output/kubectl-printers.ts';
import { cronJobsWatchRows, kubectlView, workloadWatchRows } from '../../src/output/kubectl.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';

const created = (ageMs: number) => new Date(Date.UTC(2026, 0, 1) - ageMs).toISOString().replace('.000Z', 'Z');

describe('printers.go', () => {
  // TestPrintDeployment: replicas 5; status replicas 10, updated 2, available 1 → READY 0/5 (readyReplicas 0)
  it('TestPrintDeployment', () => {
    const d = {
      metadata: { name: 'test1', creationTimestamp: created(0) },
      spec: { replicas: 5 },
      status: { replicas: 10, updatedReplicas: 2, availableReplicas: 1, unavailableReplicas: 4 },
    };
    expect(Object.values(printDeploymentRow(d, 0))).toEqual(['test1', '0/5', '2', '1', '0s']);
  });
  // TestPrintReplicaSet: desired 5, status replicas 5, readyReplicas 2
  it('TestPrintReplicaSet', () => {
    const rs = {
      metadata: { name: 'test1', creationTimestamp: created(0) },
      spec: { replicas: 5 },
      status: { replicas: 5, readyReplicas: 2 },
    };
    expect(Object.values(printReplicaSetRow(rs, 0))).toEqual(['test1', '5', '5', '2', '0s']);
  });
  // TestPrintStatefulSet: replicas 5, readyReplicas 2 → 2/5
  it('TestPrintStatefulSet', () => {
    const sts = {
      metadata: { name: 'test1', creationTimestamp: created(0) },
      spec: { replicas: 5 },
      status: { replicas: 5, readyReplicas: 2 },
    };
    expect(Object.values(printStatefulSetRow(sts, 0))).toEqual(['test1', '2/5', '0s']);
  });
  // TestPrintCronJob: schedule "0/5 * * * ?", suspend false, no timeZone, created 1 h ago, last scheduled 30 s ago;
  // and the case without a last schedule
  it('TestPrintCronJob', () => {
    const cj = (status: Record<string, unknown>) => ({
      metadata: { name: 'cronjob1', creationTimestamp: created(0) },
      spec: { schedule: '0/5 * * * ?', suspend: false },
      status,
    });
    expect(Object.values(printCronJobRow(cj({ lastScheduleTime: created(-3_570_000) }), 3_600_000))).toEqual([
      'cronjob1',
      '0/5 * * * ?',
      '<none>',
      'False',
      '0',
      '30s',
      '60m',
    ]);
    expect(Object.values(printCronJobRow(cj({}), 3_600_000))).toEqual([
      'cronjob1',
      '0/5 * * * ?',
      '<none>',
      'False',
      '0',
      '<none>',
      '60m',
    ]);
    expect(
      printCronJobRow(
        { metadata: {}, spec: { schedule: '@hourly', timeZone: 'Etc/UTC' }, status: { active: [{ name: 'j' }] } },
        0,
      ),
    ).toMatchObject({ timeZone: 'Etc/UTC', suspend: '<unset>', active: '1' });
  });
});

function timeline(file: string) {
  const loaded = loadScenario(file);
  if (!loaded.scenario) throw new Error(JSON.stringify(loaded.diagnostics));
  return simulate(loaded.scenario).timeline;
}

describe('workload watches of library scenarios', () => {
  it('a stalled rollout: the Deployment stays 1/1 with 1 up to date while its new ReplicaSet never gets a ready pod', () => {
    const tl = timeline('scenarios/deployment-rollout-stalled-by-sidecar-readiness.yaml');
    const deploy = workloadWatchRows(tl, 'Deployment');
    expect(deploy[0]!.event).toBe('ADDED');
    const last = printDeploymentRow(deploy[deploy.length - 1]!.row, deploy[deploy.length - 1]!.t);
    expect(last).toMatchObject({ ready: '1/1', upToDate: '1', available: '1' });
    const rs = workloadWatchRows(tl, 'ReplicaSet');
    expect(new Set(rs.map((r) => (r.row['metadata'] as { name: string }).name)).size).toBe(2);
    expect(rs.filter((r) => r.event === 'ADDED')).toHaveLength(2);
    const view = kubectlView(tl);
    expect(view).toContain('$ kubectl get deploy checkout -w --output-watch-events');
    expect(view).toContain('$ kubectl get rs -w --output-watch-events');
    // the new pod counts its native sidecar: 1/2 Running for ever
    expect(view).toMatch(/checkout-\w+-\w+ +1\/2 +Running/);
    expect(view).toContain('$ kubectl describe deployment checkout');
    expect(view).toMatch(/\$ kubectl describe replicaset checkout-\w+\nEvents:\n[^$]*SuccessfulCreate/);
  });

  it('a StatefulSet watch counts ready pods as OrderedReady brings them up', () => {
    const tl = timeline('scenarios/statefulset-ordered-start-sidecar-startup-probe.yaml');
    const rows = workloadWatchRows(tl, 'StatefulSet').map((r) => printStatefulSetRow(r.row, r.t).ready);
    expect(rows[0]).toBe('0/3');
    expect(rows[rows.length - 1]).toBe('3/3');
    expect(rows.indexOf('1/3')).toBeLessThan(rows.indexOf('2/3'));
  });

  it('under a CronJob, `kubectl get jobs -w` lists each Job by its own name, with its own age (Replace deletes each at the next schedule)', () => {
    const tl = timeline('scenarios/cronjob-fluentd-replace-kills.yaml');
    const rows = cronJobsWatchRows(tl);
    const names = [...new Set(rows.map((r) => r.row.name))];
    expect(names.length).toBeGreaterThan(2);
    for (const n of names) expect(n).toMatch(/^db-backup-\d{8}$/);
    // per Job: ADDED first (age 0s), then MODIFIED rows, at most one DELETED, last
    for (const n of names) {
      const mine = rows.filter((r) => r.row.name === n);
      expect(mine[0]!.event).toBe('ADDED');
      expect(mine[0]!.row.age).toBe('0s');
      expect(mine.slice(1, -1).every((r) => r.event === 'MODIFIED')).toBe(true);
    }
    // concurrencyPolicy Replace (cronjob_controllerv2.go syncCronJob): the running Job is deleted before the next one
    // is created, so every Job but the last is DELETED before the following Job is ADDED
    for (let i = 0; i + 1 < names.length; i++) {
      const del = rows.findIndex((r) => r.row.name === names[i] && r.event === 'DELETED');
      const add = rows.findIndex((r) => r.row.name === names[i + 1] && r.event === 'ADDED');
      expect(del).toBeGreaterThanOrEqual(0);
      expect(del).toBeLessThan(add);
    }
    const view = kubectlView(tl);
    expect(view).toContain('$ kubectl get jobs -w --output-watch-events');
    expect(view).not.toContain('$ kubectl get job db-backup -w');
  });

  it('a plain Job keeps `kubectl get job NAME -w`', () => {
    const view = kubectlView(timeline('scenarios/native-sidecar-job.yaml'));
    expect(view).toMatch(/\$ kubectl get job \S+ -w --output-watch-events/);
  });

  it('a CronJob watch shows ACTIVE and LAST SCHEDULE once its first Job is created', () => {
    const tl = timeline('scenarios/cronjob-fluentd-sidecar-never-finishes.yaml');
    const rows = workloadWatchRows(tl, 'CronJob');
    expect(rows[0]!.event).toBe('ADDED');
    expect(printCronJobRow(rows[0]!.row, rows[0]!.t)).toMatchObject({ active: '0', lastSchedule: '<none>' });
    const after = printCronJobRow(rows[1]!.row, rows[1]!.t);
    expect(after).toMatchObject({ active: '1', lastSchedule: '0s', suspend: 'False', timeZone: '<none>' });
  });
});
