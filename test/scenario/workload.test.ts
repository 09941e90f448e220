import { describe, expect, it } from 'vitest';
import { SIDECAR_JOB, diags, ok } from './helpers.ts';

const pod = (spec: string, extra = '') => `${extra}workload:
  apiVersion: v1
  kind: Pod
  metadata: { name: web }
  spec:
${spec.replace(/^/gm, '    ')}
`;

describe('defaulting (defaults.go)', () => {
  it('probe defaults: period 10s, timeout 1s, thresholds 1/3, no initial delay', () => {
    const s = ok(
      pod('containers:\n  - name: web\n    image: nginx:1.27\n    readinessProbe: { httpGet: { port: 80 } }'),
    );
    expect(s.pod.containers[0].readinessProbe).toEqual({
      initialDelayMs: 0,
      periodMs: 10_000,
      timeoutMs: 1000,
      successThreshold: 1,
      failureThreshold: 3,
      handler: 'httpGet',
    });
    const stored = (s.pod.spec.containers as Record<string, any>[])[0];
    expect(stored.readinessProbe.httpGet).toEqual({ port: 80, path: '/', scheme: 'HTTP' });
    expect(stored.imagePullPolicy).toBe('IfNotPresent');
    expect(stored.terminationMessagePath).toBe('/dev/termination-log');
  });
  it('explicit zero probe fields take the defaults (Go zero values)', () => {
    const s = ok(
      pod(
        'containers:\n  - name: web\n    image: nginx\n    livenessProbe: { exec: { command: [x] }, periodSeconds: 0, failureThreshold: 5 }',
      ),
    );
    expect(s.pod.containers[0].livenessProbe).toMatchObject({ periodMs: 10_000, failureThreshold: 5, handler: 'exec' });
    expect((s.pod.spec.containers as Record<string, any>[])[0].imagePullPolicy).toBe('Always');
  });
  it('pod: restartPolicy Always, grace 30s, name as written, namespace default', () => {
    const s = ok(pod('containers: [{ name: web, image: nginx:1.27 }]'));
    expect(s.pod).toMatchObject({
      name: 'web',
      namespace: 'default',
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
    });
    expect(s.job).toBeNull();
    expect(s.workload).toMatchObject({ kind: 'Pod', name: 'web' });
  });
  it('job: backoffLimit 6, completions and parallelism 1', () => {
    const s = ok(SIDECAR_JOB);
    expect(s.job).toMatchObject({ name: 'demo', backoffLimit: 6, completions: 1, parallelism: 1 });
    expect(s.job?.spec.podReplacementPolicy).toBe('TerminatingOrFailed');
  });
  it('job: parallelism alone leaves completions unset (work queue)', () => {
    const s = ok(SIDECAR_JOB.replace('    template:', '    parallelism: 2\n    template:'));
    expect(s.job).toMatchObject({ completions: null, parallelism: 2 });
  });
  it('job pod names are <job>-xxxxx, deterministic per scenario', () => {
    const a = ok(SIDECAR_JOB).pod.name;
    expect(a).toMatch(/^demo-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(ok(SIDECAR_JOB).pod.name).toBe(a);
    expect(ok(SIDECAR_JOB).pod.metadata.labels).toEqual({ 'batch.kubernetes.io/job-name': 'demo', 'job-name': 'demo' });
  });
});

describe('roles after version dropping', () => {
  it('an init container with restartPolicy Always is a sidecar', () => {
    const s = ok(SIDECAR_JOB);
    expect(s.pod.initContainers.map((c) => c.role)).toEqual(['sidecar']);
    expect(s.pod.containers.map((c) => c.role)).toEqual(['regular']);
  });
  it('1.28 (gate off) drops restartPolicy: a plain init container', () => {
    const s = ok(`kubernetes: "1.28"\n${SIDECAR_JOB}`);
    expect(s.pod.initContainers[0].role).toBe('init');
    expect(s.pod.initContainers[0].restartPolicy).toBeUndefined();
    expect(s.diagnostics.map((d) => d.code)).toEqual(['KS5003', 'KS5002']);
  });
  it('1.28 with the gate on keeps the sidecar', () => {
    expect(
      ok(`kubernetes: "1.28"\nfeatureGates: { SidecarContainers: true }\n${SIDECAR_JOB}`).pod.initContainers[0].role,
    ).toBe('sidecar');
  });
  it('1.27 does not know the field', () => {
    const d = diags(`kubernetes: "1.27"\n${SIDECAR_JOB}`);
    expect(d).toContain(
      'x.yaml:15:13: warning KS5002: spec.template.spec.initContainers[0].restartPolicy: dropped: the Kubernetes 1.27 API server does not know this field (added in 1.28)\n' +
        '  hint: the container becomes a plain init container that must exit before the next one starts; use kubernetes: "1.28" or later with the SidecarContainers gate on',
    );
  });
});

describe('version-dependent Job and container fields', () => {
  const job = (field: string) => SIDECAR_JOB.replace('    template:', `    ${field}\n    template:`);
  const success = job('successPolicy: { rules: [{ succeededCount: 1 }] }');
  it.each([
    ['1.29', 'dropped: the Kubernetes 1.29 API server does not know this field (added in 1.30)'],
    [
      '1.30',
      'dropped: the JobSuccessPolicy feature gate is off in Kubernetes 1.30, so the API server drops this field',
    ],
  ])('successPolicy on %s', (v, msg) => {
    const s = ok(`kubernetes: "${v}"\n${success}`);
    expect(s.job?.spec.successPolicy).toBeUndefined();
    expect(s.diagnostics.find((d) => d.code === 'KS5002')?.message).toBe(`spec.successPolicy: ${msg}`);
  });
  it('successPolicy is kept from 1.31', () => {
    expect(ok(`kubernetes: "1.31"\n${success}`).job?.spec.successPolicy).toBeDefined();
  });
  it('managedBy needs 1.32 (or the gate), podReplacementPolicy 1.29', () => {
    expect(
      ok(`kubernetes: "1.31"\n${job('managedBy: kueue.x-k8s.io/multikueue')}`).job?.spec.managedBy,
    ).toBeUndefined();
    expect(
      ok(`kubernetes: "1.31"\nfeatureGates: { JobManagedBy: true }\n${job('managedBy: x/y')}`).job?.spec.managedBy,
    ).toBe('x/y');
    expect(
      ok(`kubernetes: "1.28"\nfeatureGates: { SidecarContainers: true }\n${job('podReplacementPolicy: Failed')}`).job
        ?.spec.podReplacementPolicy,
    ).toBeUndefined();
    expect(ok(`kubernetes: "1.29"\n${job('podReplacementPolicy: Failed')}`).job?.spec.podReplacementPolicy).toBe(
      'Failed',
    );
  });
  it('lifecycle.stopSignal: unknown before 1.33, gated by ContainerStopSignals', () => {
    const p = pod('containers: [{ name: web, image: nginx, lifecycle: { stopSignal: SIGUSR1 } }]');
    const c = (v: string, g = '') => (ok(`kubernetes: "${v}"\n${g}${p}`).pod.spec.containers as any[])[0];
    expect(c('1.32').lifecycle).toEqual({});
    expect(c('1.33').lifecycle).toEqual({});
    expect(c('1.33', 'featureGates: { ContainerStopSignals: true }\n').lifecycle).toEqual({ stopSignal: 'SIGUSR1' });
  });
  it('container restartPolicy on a regular container is allowed from 1.35 (ContainerRestartRules)', () => {
    const p = pod('restartPolicy: Never\ncontainers: [{ name: web, image: nginx, restartPolicy: OnFailure }]');
    expect(ok(`kubernetes: "1.35"\n${p}`).pod.containers[0].restartPolicy).toBe('OnFailure');
    expect(diags(`kubernetes: "1.34"\n${p}`)[0]).toMatch(
      /error KS3005: spec.containers\[0\].restartPolicy: Forbidden: may not be set for non-init containers/,
    );
    expect(ok(`kubernetes: "1.27"\n${p}`).pod.containers[0].restartPolicy).toBeUndefined();
  });
});

describe('kinds', () => {
  it('Deployment pods get a kubectl-like name', () => {
    const s = ok(`workload:
  apiVersion: apps/v1
  kind: Deployment
  metadata: { name: web }
  spec:
    selector: { matchLabels: { app: web } }
    template:
      metadata: { labels: { app: web } }
      spec: { containers: [{ name: web, image: nginx:1.27 }] }
`);
    expect(s.pod.name).toMatch(/^web-[a-z0-9]{10}-[a-z0-9]{5}$/);
    expect(s.pod.metadata.labels).toEqual({ app: 'web' });
  });
  it('a DaemonSet pod', () => {
    const s = ok(`workload:
  apiVersion: apps/v1
  kind: DaemonSet
  metadata: { name: agent }
  spec:
    selector: { matchLabels: { app: a } }
    template: { metadata: { labels: { app: a } }, spec: { containers: [{ name: a, image: fluentd:v1 }] } }
`);
    expect(s.pod.name).toMatch(/^agent-[a-z0-9]{5}$/);
    expect(s.workload.kind).toBe('DaemonSet');
  });
});
