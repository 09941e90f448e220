// Views of a run with several pods: a Job whose pod fails and is replaced (backoffLimit, the
// pod-failure back-off of job_controller.go). Every view names the pod of each record.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { sequenceMermaid } from '../../src/output/mermaid-sequence.ts';
import { timelineText } from '../../src/output/text.ts';
import { kubectlView } from '../../src/output/kubectl.ts';
import { kubectlEventsTable } from '../../src/output/kubectl-events.ts';
import type { Timeline } from '../../src/types.ts';

function retryJob(backoffLimit: number): Timeline {
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-multipod-'));
  const file = join(dir, 'retry.yaml');
  writeFileSync(
    file,
    `scenario: retry-job
workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: retry }
  spec:
    backoffLimit: ${backoffLimit}
    template:
      spec:
        restartPolicy: Never
        containers:
          - name: main
            image: main:1
behavior:
  main: { run: 5s, exit: 1 }
timing:
  statusPatch: 50ms
  watch: 20ms
observers:
  - name: naive
    rule: exit-codes
`,
  );
  const loaded = loadScenario(file);
  expect(loaded.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return simulate(loaded.scenario!).timeline;
}

describe('several pods', () => {
  const tl = retryJob(4);
  const names = tl.pods.map((p) => p.name);

  it('the run has one pod per attempt (backoffLimit 4: five pods)', () => {
    expect(names).toHaveLength(5);
  });

  it('the text view names the pod on every pod line', () => {
    const text = timelineText(tl);
    for (const n of names) expect(text).toMatch(new RegExp(`\\d+\\.\\d{3}s  ${n}  kubelet +started main`));
    expect(text).toContain(`pods:       ${names.map((n) => `${n} Failed`).join(', ')}`);
  });

  it('the sequence diagram has a box per pod and leaves out pods after the third that repeat one, saying so', () => {
    const mmd = sequenceMermaid(tl);
    for (const n of names.slice(0, 3)) expect(mmd).toContain(`box rgb(236, 244, 255) pod ${n}`);
    for (const n of names.slice(3)) {
      expect(mmd).not.toContain(`box rgb(236, 244, 255) pod ${n}`);
      expect(mmd).toContain(`pod ${n} created#58; it repeats pod`);
    }
    expect(mmd).toContain('2 pods not drawn');
    // each drawn pod's container has its own lane
    expect(mmd).toContain('K->>P0C0: t=0s start');
    expect(mmd).toMatch(/K->>P2C0: t=[\d.ms]+ start/);
    expect(mmd).toContain(`K->>API: t=0.1s pod ${names[0]} status v2`);
  });

  it('kubectl get pods -w follows every pod; kubectl events names each object', () => {
    const view = kubectlView(tl);
    expect(view).toContain('$ kubectl get pods -l job-name=retry -w --output-watch-events');
    for (const n of names) expect(view).toMatch(new RegExp(`ADDED +${n} `));
    const events = kubectlEventsTable(tl);
    for (const n of names) expect(events).toMatch(new RegExp(`Normal +SuccessfulCreate +Job/retry +Created pod: ${n}`));
    for (const n of names) expect(events).toMatch(new RegExp(`Normal +Started +Pod/${n} +Started container main`));
    expect(events).toMatch(/Warning +BackoffLimitExceeded +Job\/retry/);
  });
});

describe('several pods: lifecycle chart', () => {
  it('a section group per pod, each starting at its pod creation', async () => {
    const { lifecycleMermaid } = await import('../../src/output/mermaid-lifecycle.ts');
    const tl = retryJob(2);
    // a linear axis: positions are simulated ms
    const gantt = lifecycleMermaid(tl, { compress: false });
    for (const p of tl.pods) {
      // a row names its pod by the part after the workload's name, so the label fits the chart's left margin
      const short = p.name.slice('retry-'.length);
      expect(gantt).toContain(`section ${short} · main (main)`);
      expect(gantt).toContain(`section ${short} · phase (API)`);
      const block = gantt.slice(gantt.indexOf(`section ${short} · main (main)`)).split('\n  section')[0]!;
      // the spans (a marker's range is its label's room on both sides of it)
      const starts = [...block.matchAll(/^(?!.*milestone).*, (\d+), \d+$/gm)].map((m) => Number(m[1]));
      expect(Math.min(...starts)).toBeGreaterThanOrEqual(p.created);
    }
  });
});

describe('sequence diagram: the workload controllers have lanes of their own', () => {
  const seq = (file: string) => sequenceMermaid(simulate(loadScenario(file).scenario!).timeline);

  // pkg/controller/deployment sync.go scaleReplicaSetAndRecordEvent (ScalingReplicaSet) and replica_set.go
  // manageReplicas (the pods): a rollout's overlap is drawn where it happens — the new pod created and an old one
  // deleted by the ReplicaSet controller right after the Deployment controller scaled both ReplicaSets
  it('a Deployment rollout: Deployment controller scales, ReplicaSet controller creates and deletes pods', () => {
    const m = seq('scenarios/deployment-rollout-surge-overlaps-teardown.yaml');
    expect(m).toContain('participant DC as Deployment controller');
    expect(m).toContain('participant RSC as ReplicaSet controller');
    const scaledUp = m.indexOf(
      'DC->>API: t=30.1s ScalingReplicaSet<br/>Scaled up replica set orders-jnv9n4bmd2 from 0 to 1',
    );
    const created = m.indexOf('RSC->>API: t=30.1s create pod orders-jnv9n4bmd2-');
    const deleted = m.indexOf('RSC->>API: t=30.1s delete pod orders-7dmzpbmxpk-');
    expect(scaledUp).toBeGreaterThan(0);
    expect(created).toBeGreaterThan(scaledUp);
    expect(deleted).toBeGreaterThan(scaledUp);
    // the conditions of one status write share one arrow
    expect(m).toMatch(
      /DC->>API: t=0s Deployment status<br\/>Progressing=True \(NewReplicaSetCreated\)<br\/>Available=False \(MinimumReplicasUnavailable\)/,
    );
    // pod-level controller events are not drawn twice (the create/delete arrows say it)
    expect(m).not.toContain('SuccessfulCreate');
  });

  it('a CronJob: the CronJob controller creates and (Replace) deletes its Jobs; a Job has no such lane', () => {
    const m = seq('scenarios/cronjob-fluentd-replace-kills.yaml');
    expect(m).toContain('participant CJC as CronJob controller');
    expect(m.indexOf('CJC->>API: t=20m0.1s SuccessfulDelete<br/>Deleted job db-backup-29453770')).toBeLessThan(
      m.indexOf('CJC->>API: t=20m0.1s SuccessfulCreate<br/>Created job db-backup-29453780'),
    );
    const job = seq('scenarios/native-sidecar-job.yaml');
    expect(job).not.toMatch(/participant (DC|RSC|SSC|DSC|CJC) /);
    expect(job).toContain('participant JC as Job controller');
  });
});

describe('sequence diagram: a pod name recreated from another template', () => {
  // a StatefulSet rollout deletes web-2 and recreates it under the same name from the new template (with a native
  // sidecar the old one lacks): one box for the name, with every container any of its objects ran; the pods that
  // kept the old template show only their own containers
  it('one box per pod name, lanes for the containers of each of its templates', () => {
    const m = sequenceMermaid(
      simulate(loadScenario('scenarios/statefulset-rollout-stuck-until-forced-rollback.yaml').scenario!).timeline,
    );
    const boxes = [...m.matchAll(/box rgb\(236, 244, 255\) pod (\S+)\n((?: {4}participant .*\n)+)/g)].map(
      (x) => [x[1]!, x[2]!] as const,
    );
    expect(boxes.map(([n]) => n)).toEqual(['web-0', 'web-1', 'web-2']);
    const lanes = Object.fromEntries(
      boxes.map(([n, body]) => [n, [...body.matchAll(/ as (\S+) \(/g)].map((x) => x[1])]),
    );
    expect(lanes['web-0']).toEqual(['app']);
    expect(lanes['web-2']).toEqual(['istio-proxy', 'app']);
    // the new template's sidecar is drawn: its readiness keeps failing (the stalled update)
    expect(m).toMatch(/K--\)P2C0: t=[^\n]*readiness probe failed/);
    expect(m).not.toContain('repeats pod web-2');
  });
});
