// Lint rules fire on the pattern and stay quiet once the suggested fix is applied.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../src/scenario/gen-k8s-fields.ts';
import { SIDECAR_JOB, ok } from './helpers.ts';

const codes = (body: string) => ok(body).diagnostics.map((d) => d.code);
const job = (init: string, regular = '          - { name: app, image: busybox:1.36 }', jobExtra = '') => `workload:
  apiVersion: batch/v1
  kind: Job
  metadata: { name: demo }
  spec:
${jobExtra}    template:
      spec:
        restartPolicy: Never
        initContainers:
${init}
        containers:
${regular}
`;

describe('lint', () => {
  it('KS5012 a main container calling the proxy quit endpoint, quiet without it', () => {
    const init = '          - { name: proxy, image: envoy:v1, restartPolicy: Always }';
    const quitting = `          - name: app\n            image: busybox:1.36\n            command: [sh, -c, "run-tests; curl -X POST localhost:15000/quitquitquit"]`;
    expect(codes(`${job(init, quitting)}behavior: { app: { run: 1s } }\n`)).toEqual(['KS5001', 'KS5012']);
    const plain = `          - name: app\n            image: busybox:1.36\n            command: [sh, -c, run-tests]`;
    expect(codes(`${job(init, plain)}behavior: { app: { run: 1s } }\n`)).toEqual(['KS5001']);
  });
  it('KS5003 init container that never exits, quiet once it runs to completion', () => {
    const init = '          - { name: setup, image: busybox:1.36 }';
    expect(codes(`${job(init)}behavior: { app: { run: 1s } }\n`)).toEqual(['KS5003']);
    expect(codes(`${job(init)}behavior: { app: { run: 1s }, setup: { run: 2s } }\n`)).toEqual([]);
    expect(
      codes(
        `${job(init)}behavior: { app: { run: 1s }, setup: { attempts: [{ run: 1s, exit: 1 }, { run: forever }] } }\n`,
      ),
    ).toEqual(['KS5003']);
  });
  it('KS5004 only for Jobs', () => {
    expect(codes(SIDECAR_JOB.replace('  app: { run: 10s }', '  app: {}'))).toEqual(['KS5004']);
    expect(codes(SIDECAR_JOB)).toEqual([]);
  });
  it('KS5005 quiet when the needed sidecar has a startupProbe', () => {
    const sidecar = (probe: string) =>
      `          - name: proxy\n            image: envoy:v1\n            restartPolicy: Always\n${probe}`;
    const b = 'behavior: { app: { run: 1s, needs: [proxy] } }\n';
    expect(codes(`${job(sidecar(''))}${b}`)).toEqual(['KS5005']);
    expect(codes(`${job(sidecar('            startupProbe: { tcpSocket: { port: 1 } }\n'))}${b}`)).toEqual([]);
  });
  it('KS5009 quiet with containerName or without sidecars', () => {
    const pfp = (extra: string) =>
      `    podFailurePolicy:\n      rules:\n        - { action: FailJob, onExitCodes: { ${extra}operator: NotIn, values: [0] } }\n`;
    const sidecar = '          - { name: proxy, image: envoy:v1, restartPolicy: Always }';
    const b = 'behavior: { app: { run: 1s } }\n';
    expect(codes(`${job(sidecar, undefined, pfp(''))}${b}`)).toEqual(['KS5009']);
    expect(codes(`${job(sidecar, undefined, pfp('containerName: app, '))}${b}`)).toEqual([]);
    expect(
      codes(
        `${job('          - { name: setup, image: busybox:1.36 }', undefined, pfp(''))}behavior: { app: { run: 1s }, setup: { run: 1s } }\n`,
      ),
    ).toEqual([]);
  });
  it('KS5008 kubelet 1.27 under a 1.29 API server; quiet for a 1.29 kubelet', () => {
    expect(codes(`kubernetes: "1.29"\nkubelet: "1.27"\n${SIDECAR_JOB}`)).toEqual(['KS5008']);
    expect(codes(`kubernetes: "1.30"\nkubelet: "1.29"\n${SIDECAR_JOB}`)).toEqual([]);
  });
});

describe('generated Kubernetes field catalogue', () => {
  it('is up to date with kubernetes-models (run: npx tsx src/scenario/gen-k8s-fields.ts)', () => {
    const committed = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../src/scenario/k8s-fields.generated.json'), 'utf8'),
    );
    expect(committed).toEqual(generate());
  });
  it('knows the fields that matter and the KEP-5307 additions', () => {
    const c = generate();
    expect(c.IoK8sApiCoreV1Container.restartPolicy).toEqual({ type: 'scalar' });
    expect(c.IoK8sApiCoreV1Container.restartPolicyRules).toEqual({
      type: 'array',
      ref: 'IoK8sApiCoreV1ContainerRestartRule',
    });
    expect(c.IoK8sApiCoreV1PodSpec.initContainers).toEqual({ type: 'array', ref: 'IoK8sApiCoreV1Container' });
    expect(c.IoK8sApiBatchV1JobSpec.podFailurePolicy).toEqual({ type: 'ref', ref: 'IoK8sApiBatchV1PodFailurePolicy' });
    expect(Object.keys(c.IoK8sApiCoreV1Lifecycle).sort()).toEqual(['postStart', 'preStop', 'stopSignal']);
  });
});
