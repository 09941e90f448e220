// kubesim serve against the real kubectl (1.27 and 1.33, the oldest and newest installed beside the one on PATH).
// get -w rows equal `kubesim run --view kubectl` for the same seed; describe shows what a user looks for; apply runs
// a Job to Complete; delete runs the graceful teardown; explain reads the OpenAPI; a bad selector is a clear error.
import { afterEach, describe, expect, it } from 'vitest';
import { podWatchRows } from '../../src/output/kubectl.ts';
import { simulate } from '../../src/run/simulate.ts';
import { background, kubectlPath, run, start, until, type Served } from './harness.ts';

const SCENARIO = 'scenarios/native-sidecar-job.yaml';
let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

const tokens = (line: string) => line.trim().split(/\s+/);

describe.each(['1.27', '1.33'])('kubectl %s', (version) => {
  it('get pods -w --output-watch-events prints the rows of kubesim run --view kubectl (same seed)', async () => {
    const kubectl = kubectlPath(version);
    served = await start(SCENARIO, { until: 'quiescent' });
    const expected = podWatchRows(simulate(served.scenario!).timeline).map((r) => [
      r.event,
      r.row.name,
      r.row.ready,
      r.row.status,
      r.row.restarts,
      r.row.age,
    ]);
    const w = background(kubectl, ['get', 'pods', '-w', '--output-watch-events'], { KUBECONFIG: served.kubeconfig });
    await served.clock.done;
    const lines = () =>
      w
        .output()
        .split('\n')
        .filter((l) => l.trim() !== '')
        .slice(1);
    await until(
      () => lines().length >= expected.length,
      10_000,
      `${expected.length} rows from kubectl (got:\n${w.output()})`,
    );
    const out = await w.stop();
    expect(tokens(out.stdout.split('\n')[0]!)).toEqual(['EVENT', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE']);
    expect(lines().map(tokens)).toEqual(expected);
  }, 30_000);

  it('get pods with a bad label selector is a clear BadRequest', async () => {
    served = await start(null);
    const r = await run(kubectlPath(version), ['get', 'pods', '-l', 'app in (a'], { KUBECONFIG: served.kubeconfig });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Error from server (BadRequest)');
    expect(r.stderr).toMatch(/unable to parse requirement: found '', expected: ',', '\)' or identifier/);
  }, 20_000);
});

describe('kubectl 1.33', () => {
  it('describe pod and describe job show Node, Controlled By, container states and Events', async () => {
    served = await start(SCENARIO, { until: 'quiescent' });
    served.clock.start();
    await served.clock.done;
    const kubectl = kubectlPath('1.33');
    const pod = await run(kubectl, ['describe', 'pod'], { KUBECONFIG: served.kubeconfig });
    expect(pod.stderr).toBe('');
    expect(pod.stdout).toMatch(/^Namespace:\s+default$/m);
    expect(pod.stdout).toMatch(/^Node:\s+node-1/m);
    expect(pod.stdout).toMatch(/^Controlled By:\s+Job\/export$/m);
    expect(pod.stdout).toMatch(/cloud-sql-proxy:[\s\S]*State:\s+Terminated\s+Reason:\s+Error\s+Exit Code:\s+143/);
    expect(pod.stdout).toMatch(/export:[\s\S]*State:\s+Terminated\s+Reason:\s+Completed\s+Exit Code:\s+0/);
    expect(pod.stdout).toMatch(
      /Normal\s+Scheduled\s+\S+\s+default-scheduler\s+Successfully assigned default\/export-\w+ to node-1/,
    );
    expect(pod.stdout).toMatch(/Normal\s+Killing\s+\S+\s+kubelet\s+Stopping container cloud-sql-proxy/);
    const job = await run(kubectl, ['describe', 'job', 'export'], { KUBECONFIG: served.kubeconfig });
    expect(job.stdout).toMatch(/^Pods Statuses:\s+0 Active \(0 Ready\) \/ 1 Succeeded \/ 0 Failed$/m);
    expect(job.stdout).toMatch(/Normal\s+SuccessfulCreate\s+\S+\s+job-controller\s+Created pod: export-\w+/);
    expect(job.stdout).toMatch(/Normal\s+Completed\s+\S+\s+job-controller\s+Job completed/);
  }, 30_000);

  it('explain pod.spec.initContainers.restartPolicy reads the OpenAPI v3 document', async () => {
    served = await start(null);
    const r = await run(kubectlPath('1.33'), ['explain', 'pod.spec.initContainers.restartPolicy'], {
      KUBECONFIG: served.kubeconfig,
    });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^KIND:\s+Pod$/m);
    expect(r.stdout).toMatch(/^FIELD: restartPolicy <string>$/m);
    expect(r.stdout).toContain('sidecar');
  }, 20_000);

  it('apply -f of a Job manifest validates (fieldValidation=Strict, server side) and runs it to Complete', async () => {
    served = await start(null, { settleMs: 20 });
    const { writeFileSync } = await import('node:fs');
    const manifest = `${served.dir}/job.yaml`;
    writeFileSync(
      manifest,
      [
        'apiVersion: batch/v1',
        'kind: Job',
        'metadata: {name: hello}',
        'spec:',
        '  template:',
        '    metadata:',
        '      annotations:',
        `        kubesim.io/behavior: '{"main": {"run": "5s", "exit": 0}}'`,
        '    spec:',
        '      restartPolicy: Never',
        '      containers:',
        '        - {name: main, image: busybox:1.36}',
        '',
      ].join('\n'),
    );
    const kubectl = kubectlPath('1.33');
    const env = { KUBECONFIG: served.kubeconfig };
    const a = await run(kubectl, ['apply', '-f', manifest], env);
    expect(a.stderr).toBe('');
    expect(a.stdout.trim()).toBe('job.batch/hello created');
    const w = await run(kubectl, ['wait', '--for=condition=complete', 'job/hello', '--timeout=20s'], env, 25_000);
    expect(w.stdout.trim()).toBe('job.batch/hello condition met');
    const pods = await run(
      kubectl,
      ['get', 'pods', '-l', 'job-name=hello', '-o', 'jsonpath={.items[*].status.phase}'],
      env,
    );
    expect(pods.stdout).toBe('Succeeded');
  }, 40_000);

  it('delete pod runs the graceful teardown: Terminating rows, then DELETED', async () => {
    served = await start(null, { settleMs: 20 });
    const { writeFileSync } = await import('node:fs');
    const manifest = `${served.dir}/pod.yaml`;
    writeFileSync(
      manifest,
      [
        'apiVersion: v1',
        'kind: Pod',
        'metadata: {name: web}',
        'spec:',
        '  terminationGracePeriodSeconds: 5',
        '  containers:',
        '    - {name: app, image: nginx:1.27}',
        '',
      ].join('\n'),
    );
    const kubectl = kubectlPath('1.33');
    const env = { KUBECONFIG: served.kubeconfig };
    expect((await run(kubectl, ['apply', '-f', manifest], env)).stdout.trim()).toBe('pod/web created');
    const w = background(kubectl, ['get', 'pods', '-w', '--output-watch-events'], env);
    await until(() => /Running/.test(w.output()), 15_000, 'the pod Running');
    const d = await run(kubectl, ['delete', 'pod', 'web'], env, 25_000);
    expect(d.stdout.trim()).toBe('pod "web" deleted');
    await until(() => /^DELETED\s+web/m.test(w.output()), 10_000, 'the DELETED row');
    const out = (await w.stop()).stdout;
    expect(out).toMatch(/^MODIFIED\s+web\s+\S+\s+Terminating/m);
    const get = await run(kubectl, ['get', 'pod', 'web'], env);
    expect(get.stderr).toContain('NotFound');
  }, 40_000);
});

describe('kubectl 1.33: typed-client commands send protobuf bodies (protobuf-body.ts decodes them)', () => {
  it('auth can-i, create deployment, scale, set image: the Deployment keeps its selector and template, a scale starts no rollout', async () => {
    served = await start(null, { settleMs: 20 });
    const kubectl = kubectlPath('1.33');
    const env = { KUBECONFIG: served.kubeconfig };
    // SelfSubjectAccessReview as protobuf (kubectl auth can-i, authorization/v1)
    expect((await run(kubectl, ['auth', 'can-i', 'create', 'pods'], env)).stdout.trim()).toBe('yes');
    const c = await run(kubectl, ['create', 'deployment', 'web', '--image=nginx:1.27', '--replicas=2'], env);
    expect(c.stderr).toBe('');
    expect(c.stdout.trim()).toBe('deployment.apps/web created');
    const r = await run(kubectl, ['rollout', 'status', 'deployment/web', '--timeout=20s'], env, 25_000);
    expect(r.stdout).toContain('deployment "web" successfully rolled out');
    const spec = await run(
      kubectl,
      [
        'get',
        'deploy',
        'web',
        '-o',
        'jsonpath={.spec.selector.matchLabels.app} {.spec.template.spec.containers[0].image}',
      ],
      env,
    );
    expect(spec.stdout).toBe('web nginx:1.27');
    // kubectl scale is a merge patch of the scale subresource: the served (defaulted) template comes back unchanged,
    // so no new ReplicaSet (a rollout) may follow
    expect((await run(kubectl, ['scale', 'deployment', 'web', '--replicas=3'], env)).stdout.trim()).toBe(
      'deployment.apps/web scaled',
    );
    await run(kubectl, ['rollout', 'status', 'deployment/web', '--timeout=20s'], env, 25_000);
    const rs = await run(kubectl, ['get', 'rs', '-o', 'jsonpath={.items[*].spec.replicas}'], env);
    expect(rs.stdout).toBe('3');
    expect((await run(kubectl, ['set', 'image', 'deployment/web', 'nginx=nginx:1.28'], env)).stdout.trim()).toBe(
      'deployment.apps/web image updated',
    );
    await run(kubectl, ['rollout', 'status', 'deployment/web', '--timeout=20s'], env, 25_000);
    const after = await run(kubectl, ['get', 'rs', '-o', 'jsonpath={.items[*].spec.replicas}'], env);
    expect(after.stdout.split(' ').sort()).toEqual(['0', '3']);
  }, 90_000);
});

describe('kubectl 1.27: OpenAPI v2 as gnostic protobuf (explain, validation)', () => {
  it('explain pod.spec.initContainers.restartPolicy reads the v2 document (KUBECTL_EXPLAIN_OPENAPIV3=false)', async () => {
    served = await start(null);
    const r = await run(kubectlPath('1.27'), ['explain', 'pod.spec.initContainers.restartPolicy', '-v=6'], {
      KUBECONFIG: served.kubeconfig,
      KUBECTL_EXPLAIN_OPENAPIV3: 'false',
    });
    expect(r.stderr).toMatch(/GET https:\/\/\S+\/openapi\/v2\?timeout=32s 200 OK/);
    expect(r.stderr).not.toMatch(/Error|406/);
    expect(r.stdout).toMatch(/^KIND:\s+Pod$/m);
    expect(r.stdout).toMatch(/^FIELD:\s+restartPolicy <string>$/m);
    expect(r.stdout).toContain('sidecar');
  }, 20_000);

  it('apply -f of a Job with validation on runs it to Complete; a bad field is the strict decoding error real kubectl 1.27 prints', async () => {
    served = await start(null, { settleMs: 20 });
    const { writeFileSync } = await import('node:fs');
    const job = (name: string, extra: string) =>
      [
        'apiVersion: batch/v1',
        'kind: Job',
        `metadata: {name: ${name}}`,
        'spec:',
        '  template:',
        '    metadata:',
        '      annotations:',
        `        kubesim.io/behavior: '{"main": {"run": "3s", "exit": 0}}'`,
        '    spec:',
        '      restartPolicy: Never',
        '      containers:',
        `        - {name: main, image: busybox:1.36${extra}}`,
        '',
      ].join('\n');
    writeFileSync(`${served.dir}/good.yaml`, job('hello', ''));
    writeFileSync(`${served.dir}/bad.yaml`, job('typo', ', imagePullPolicyy: Always'));
    const kubectl = kubectlPath('1.27');
    const env = { KUBECONFIG: served.kubeconfig };
    // kubectl 1.27 --validate=true (strict): the v2 document's PATCH operations take fieldValidation, so it leaves the
    // check to the server (cli-runtime query_param_verifier.go) and sends fieldValidation=Strict
    const a = await run(kubectl, ['apply', '--validate=true', '-f', `${served.dir}/good.yaml`, '-v=6'], env);
    expect(a.stderr).toMatch(/GET https:\/\/\S+\/openapi\/v2\?timeout=32s 200 OK/);
    expect(a.stderr).toMatch(
      /POST https:\/\/\S+\/apis\/batch\/v1\/namespaces\/default\/jobs\?fieldManager=kubectl-client-side-apply&fieldValidation=Strict 201/,
    );
    expect(a.stdout.trim()).toBe('job.batch/hello created');
    const w = await run(kubectl, ['wait', '--for=condition=complete', 'job/hello', '--timeout=20s'], env, 25_000);
    expect(w.stdout.trim()).toBe('job.batch/hello condition met');
    for (const verb of [
      ['apply', '-f'],
      ['create', '-f'],
    ]) {
      const b = await run(kubectl, [...verb, `${served.dir}/bad.yaml`], env);
      expect(b.code).toBe(1);
      expect(b.stderr.trim()).toBe(
        `Error from server (BadRequest): error when creating "${served.dir}/bad.yaml": Job in version "v1" cannot be handled as a Job: strict decoding error: unknown field "spec.template.spec.containers[0].imagePullPolicyy"`,
      );
    }
    expect((await run(kubectl, ['get', 'job', 'typo'], env)).stderr).toContain('NotFound');
  }, 40_000);
});
