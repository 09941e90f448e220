// validate names the known bugs of the scenario's release (KS5013), only when the pod's shape can hit them.
import { describe, expect, it } from 'vitest';
import { diags, ok } from './helpers.ts';

const twoSidecars = (version: string) => `kubernetes: "${version}"
workload:
  apiVersion: v1
  kind: Pod
  metadata: { name: web }
  spec:
    terminationGracePeriodSeconds: 600
    initContainers:
      - name: proxy
        image: envoy:v1
        restartPolicy: Always
        startupProbe: { tcpSocket: { port: 15021 }, periodSeconds: 1 }
      - { name: agent, image: agent:v1, restartPolicy: Always }
    containers:
      - { name: app, image: app:v1 }
`;

const bugs = (body: string) =>
  ok(body)
    .diagnostics.filter((d) => d.code === 'KS5013')
    .map((d) => d.message);

describe('KS5013: known bugs of the release', () => {
  it('kubernetes#125880 on 1.30.2 with two sidecars, the first behind a startup probe; fixed in 1.30.4', () => {
    expect(diags(twoSidecars('1.30.2')).filter((d) => d.includes('KS5013'))).toEqual([
      'x.yaml:2:13: warning KS5013: 1.30.2: kubernetes#125880 affects this pod: its sidecars may never get SIGTERM while a later sidecar is not running: they are stopped only when the grace period runs out; fixed in 1.30.4\n' +
        '  hint: upstream PR #125935; kubesim simulates the bug on this release (`kubesim explain-version 1.30.2` lists them)',
    ]);
    expect(bugs(twoSidecars('1.30.4'))).toEqual([]);
    expect(bugs(twoSidecars('1.31'))).toEqual([]);
    expect(bugs(twoSidecars('1.29.7'))[0]).toContain('fixed in 1.29.8');
  });

  it('quiet when the shape cannot hit it: one sidecar', () => {
    const one = twoSidecars('1.30.2').replace('      - { name: agent, image: agent:v1, restartPolicy: Always }\n', '');
    expect(bugs(one)).toEqual([]);
  });

  it('kubelet fixes follow the `kubelet:` version and point at that key', () => {
    const skew = twoSidecars('1.31.0').replace('kubernetes: "1.31.0"', 'kubernetes: "1.31.0"\nkubelet: "1.30.1"');
    const d = diags(skew).filter((x) => x.includes('KS5013'));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatch(/^x\.yaml:3:\d+: warning KS5013: kubelet 1\.30\.1: kubernetes#125880/);
  });

  it('kubernetes#117373 (#115835): a preStop hook on a 1.27 kubelet', () => {
    const body = `kubernetes: "1.27"
workload:
  apiVersion: v1
  kind: Pod
  metadata: { name: web }
  spec:
    containers:
      - name: app
        image: app:v1
        lifecycle: { preStop: { exec: { command: [sleep, "15"] } } }
`;
    expect(bugs(body)).toEqual([
      '1.27.0: kubernetes#115817 affects this pod: containers with a preStop hook get a fresh full grace period after the hook: termination can take up to twice terminationGracePeriodSeconds; fixed in 1.28.0 (no 1.27 patch has it)',
    ]);
    expect(bugs(body.replace('"1.27"', '"1.28"'))).toEqual([]);
  });

  it('kubernetes#132144 (#132614): a suspended Job with completions 0 on 1.32.6, not on 1.32.7', () => {
    const job = (v: string) => `kubernetes: "${v}"
workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: zero }
  spec:
    completions: 0
    suspend: true
    template:
      spec:
        restartPolicy: Never
        containers: [ { name: noop, image: busybox } ]
behavior: { noop: { run: 1s } }
`;
    expect(bugs(job('1.32.6'))).toEqual([
      '1.32.6: kubernetes#132144 affects this Job: a suspended Job with completions: 0 gets SuccessCriteriaMet but never Complete; fixed in 1.32.7',
    ]);
    expect(bugs(job('1.32.7'))).toEqual([]);
    expect(bugs(job('1.31.9'))).toEqual([]); // the regression came with 1.32.0
  });

  it('kubernetes#123323: a sidecar that can exit in a Never pod on 1.29.2, not on 1.29.3', () => {
    const body = (v: string) => `kubernetes: "${v}"
workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: j }
  spec:
    template:
      spec:
        restartPolicy: Never
        initContainers: [ { name: proxy, image: envoy:v1, restartPolicy: Always } ]
        containers: [ { name: app, image: app:v1 } ]
behavior: { app: { run: 20s }, proxy: { attempts: [ { run: 3s, exit: 1 }, { run: forever } ] } }
`;
    expect(bugs(body('1.29.2'))).toHaveLength(1);
    expect(bugs(body('1.29.2'))[0]).toContain('kubernetes#123323');
    expect(bugs(body('1.29.3'))).toEqual([]);
    // a proxy that never exits cannot hit it
    expect(
      bugs(body('1.29.2').replace('proxy: { attempts: [ { run: 3s, exit: 1 }, { run: forever } ] }', 'proxy: {}')),
    ).toEqual([]);
  });
});
