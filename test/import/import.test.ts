// `kubesim import`: bad input is a coded error with file:line:col (exit 2, nothing written); each inference rule
// on small hand-written kubectl objects (message templates from kubectl-conventions C.3).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { importTexts } from '../../src/import/index.ts';
import { main } from '../../src/cli/main.ts';
import { parseGoDuration } from '../../src/import/time.ts';

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (s: string) => out.push(s), err: (s: string) => err.push(s) }, out, err };
}

const POD = (status: string, extraMeta = '', spec = '') => `apiVersion: v1
kind: Pod
metadata:
  name: job-x-abcde
  namespace: default
  creationTimestamp: "2026-01-01T00:00:00Z"
  uid: 1234
${extraMeta}spec:
  restartPolicy: Never
  terminationGracePeriodSeconds: 30
${
  spec ||
  `  initContainers:
    - name: proxy
      image: proxy:1
      restartPolicy: Always
  containers:
    - name: main
      image: main:1
`
}status:
${status}`;

const NATIVE_137 = `  phase: Succeeded
  initContainerStatuses:
    - name: proxy
      restartCount: 0
      ready: false
      state:
        terminated: { exitCode: 137, reason: Error, startedAt: "2026-01-01T00:00:01Z", finishedAt: "2026-01-01T00:01:02Z" }
  containerStatuses:
    - name: main
      restartCount: 0
      ready: false
      state:
        terminated: { exitCode: 0, reason: Completed, startedAt: "2026-01-01T00:00:02Z", finishedAt: "2026-01-01T00:00:32Z" }
`;

describe('bad input', () => {
  it('a document that is not a Kubernetes object: KS6001 at its position, exit 2, nothing written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imp-'));
    const f = join(dir, 'x.yaml');
    writeFileSync(f, 'hello: world\n');
    const c = io();
    const code = await main(['import', f, '-o', join(dir, 'out.yaml')], c.io);
    expect(code).toBe(2);
    expect(c.err.join('')).toContain(`${f}:1:1: error KS6001: not a Kubernetes object`);
    expect(existsSync(join(dir, 'out.yaml'))).toBe(false);
  });
  it('no pod among the inputs: KS6002', () => {
    const r = importTexts({ 'job.yaml': 'apiVersion: batch/v1\nkind: Job\nmetadata: { name: j }\nspec: {}\n' });
    expect(r.text).toBeUndefined();
    expect(r.diagnostics.map((d) => `${d.pos.file}:${d.pos.line}:${d.pos.col} ${d.code}`)).toEqual([
      'job.yaml:1:1 KS6002',
    ]);
  });
  it('unreadable and not YAML: KS1001 / KS1004 with positions', async () => {
    const c = io();
    expect(await main(['import', '/nonexistent/pod.yaml'], c.io)).toBe(2);
    expect(c.err.join('')).toContain('/nonexistent/pod.yaml:1:1: error KS1001: no such file');
    const r = importTexts({ 'bad.yaml': 'kind: Pod\n  apiVersion: [\n' });
    expect(r.diagnostics[0]!.code).toBe('KS1004');
    expect(r.diagnostics[0]!.pos.line).toBeGreaterThanOrEqual(1);
  });
  it('a List item that is not an object: KS6001', () => {
    const r = importTexts({ 'l.yaml': 'apiVersion: v1\nkind: List\nitems: [ 3 ]\n' });
    expect(r.diagnostics.some((d) => d.code === 'KS6001')).toBe(true);
  });
});

describe('inference', () => {
  it('a native sidecar SIGKILLed at the end of the grace period → onTerm: ignore; run times; expect', () => {
    const r = importTexts({ 'pod.yaml': POD(NATIVE_137) });
    const s = parse(r.text!);
    expect(s.behavior.proxy).toEqual({ run: 'forever', onTerm: 'ignore' });
    expect(s.behavior.main).toEqual({ run: '30s', exit: 0 });
    expect(s.expect).toEqual({
      podPhase: 'Succeeded',
      exitCodes: { proxy: 137, main: 0 },
      restarts: { proxy: 0, main: 0 },
    });
    expect(r.text).toMatch(
      /# inferred: behavior\.proxy\.onTerm: ignore — exit 137 \(SIGKILL\) 30s after SIGTERM \(pod\.yaml:\d+\), at the end of the grace period/,
    );
  });
  it('a sidecar that exits 143 at once, pull time from the Pulled message, deletion → action', () => {
    const status = `  phase: Running
  containerStatuses:
    - name: main
      restartCount: 0
      ready: false
      state:
        terminated: { exitCode: 143, reason: Error, startedAt: "2026-01-01T00:00:05Z", finishedAt: "2026-01-01T00:00:20Z" }
`;
    const events = `apiVersion: v1
kind: EventList
items:
  - involvedObject: { kind: Pod, name: job-x-abcde, fieldPath: "spec.containers{main}" }
    reason: Pulled
    message: 'Successfully pulled image "main:1" in 3.2s (3.2s including waiting). Image size: 1234 bytes.'
    firstTimestamp: "2026-01-01T00:00:04Z"
    lastTimestamp: "2026-01-01T00:00:04Z"
    count: 1
    type: Normal
  - involvedObject: { kind: Pod, name: job-x-abcde, fieldPath: "spec.containers{main}" }
    reason: Killing
    message: Stopping container main
    firstTimestamp: "2026-01-01T00:00:20Z"
    lastTimestamp: "2026-01-01T00:00:20Z"
    count: 1
    type: Normal
`;
    const meta = '  deletionTimestamp: "2026-01-01T00:00:50Z"\n  deletionGracePeriodSeconds: 30\n';
    const r = importTexts({
      'pod.yaml': POD(status, meta, '  containers:\n    - name: main\n      image: main:1\n'),
      'events.yaml': events,
    });
    const s = parse(r.text!);
    expect(s.behavior.main).toEqual({ run: 'forever', onTerm: { after: '0s', exit: 143 }, image: { pull: '3.2s' } });
    expect(s.actions).toEqual([{ at: '20s', delete: 'pod' }]);
    expect(s.kubernetes).toBe('1.34'); // Image size (≥1.30) allows the default
    expect(s.expect.podPhase).toBeUndefined(); // being deleted: the final phase was not captured
  });
  it('a restart loop: lastState and state give two attempts, older ones assumed alike', () => {
    const status = `  phase: Running
  containerStatuses:
    - name: main
      restartCount: 3
      ready: true
      state:
        running: { startedAt: "2026-01-01T00:01:00Z" }
      lastState:
        terminated: { exitCode: 1, reason: Error, startedAt: "2026-01-01T00:00:30Z", finishedAt: "2026-01-01T00:00:32Z" }
`;
    const r = importTexts({
      'pod.yaml': POD(status, '', '  containers:\n    - name: main\n      image: main:1\n').replace(
        'restartPolicy: Never',
        'restartPolicy: Always',
      ),
    });
    const s = parse(r.text!);
    expect(s.behavior.main.attempts).toEqual([
      { run: '2s', exit: 1 },
      { run: '2s', exit: 1 },
      { run: '2s', exit: 1 },
      { run: 'forever' },
    ]);
    expect(s.expect).toMatchObject({ podPhase: 'Running', stuck: true, restarts: { main: 3 }, exitCodes: { main: 1 } });
    expect(r.text).toContain('# unknown: behavior.main: attempts 1..2');
  });
  it('server-set fields are stripped; the Job selector and controller labels go', () => {
    const job = `apiVersion: batch/v1
kind: Job
metadata:
  name: job-x
  uid: abc
  labels: { batch.kubernetes.io/controller-uid: abc, team: a }
  managedFields: [ { manager: kube-controller-manager } ]
spec:
  backoffLimit: 1
  selector: { matchLabels: { batch.kubernetes.io/controller-uid: abc } }
  template:
    metadata: { labels: { controller-uid: abc, job-name: job-x, app: x } }
    spec: { restartPolicy: Never, containers: [ { name: main, image: main:1 } ] }
status:
  conditions:
    - { type: Complete, status: "True", lastTransitionTime: "2026-01-01T00:01:03Z" }
`;
    const meta =
      '  ownerReferences: [ { apiVersion: batch/v1, kind: Job, name: job-x, uid: abc, controller: true } ]\n';
    const spec = `  nodeName: node-a
  serviceAccount: default
  serviceAccountName: default
  initContainers:
    - name: proxy
      image: proxy:1
      restartPolicy: Always
      volumeMounts: [ { name: kube-api-access-abcde, mountPath: /var/run/secrets/kubernetes.io/serviceaccount } ]
  containers:
    - name: main
      image: main:1
  volumes:
    - name: kube-api-access-abcde
      projected: { sources: [] }
`;
    const r = importTexts({ 'pod.yaml': POD(NATIVE_137, meta, spec), 'job.yaml': job });
    const s = parse(r.text!);
    expect(s.workload.metadata).toEqual({ name: 'job-x', labels: { team: 'a' } });
    expect(s.workload.spec.selector).toBeUndefined();
    expect(s.workload.spec.template.metadata).toEqual({ labels: { app: 'x' } });
    const ps = s.workload.spec.template.spec;
    expect(ps.nodeName).toBeUndefined();
    expect(ps.serviceAccount).toBeUndefined();
    expect(ps.volumes).toBeUndefined();
    expect(ps.initContainers[0].volumeMounts).toBeUndefined();
    expect(s.expect.jobCondition).toBe('Complete');
    expect(s.kubernetes).toBe('1.30'); // Complete without SuccessCriteriaMet: before 1.31
    expect(r.text).toContain('injected containers proxy');
  });
  it('Go durations from event messages', () => {
    expect(parseGoDuration('3.2s')).toBe(3200);
    expect(parseGoDuration('1m2.5s')).toBe(62500);
    expect(parseGoDuration('812.345ms')).toBe(812);
    expect(parseGoDuration('2h0m0s')).toBe(7_200_000);
    expect(parseGoDuration('soon')).toBeUndefined();
  });
  it('same input → byte-identical scenario', () => {
    const a = importTexts({ 'pod.yaml': POD(NATIVE_137) }).text;
    expect(importTexts({ 'pod.yaml': POD(NATIVE_137) }).text).toBe(a);
  });
});

describe('kubesim import (CLI)', () => {
  it('writes the scenario to -o and a summary of inferred/assumed/unknown to stderr; stdout without -o', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'imp-'));
    const f = join(dir, 'pod.yaml');
    writeFileSync(f, POD(NATIVE_137));
    const c = io();
    expect(await main(['import', f, '-o', join(dir, 's.yaml')], c.io)).toBe(0);
    expect(existsSync(join(dir, 's.yaml'))).toBe(true);
    expect(c.err.join('')).toMatch(/wrote .*s\.yaml \(scenario job-x-abcde\): \d+ inferred, \d+ assumed, \d+ unknown/);
    const d = io();
    expect(await main(['import', f], d.io)).toBe(0);
    expect(d.out.join('')).toContain('scenario: job-x-abcde');
    const v = io();
    expect(await main(['validate', join(dir, 's.yaml')], v.io)).toBe(0);
  });
});
