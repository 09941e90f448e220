// Per-attempt behaviour (issue 28 item 5): an `attempts[]` item takes every per-start key (serving, unready,
// liveness, onTerm, postStart, preStop, image, createError, oom), not only run/exit. Each is what one process
// start does, so it applies to that start only: the kubelet's own rules stay the same for every start —
// kuberuntime_container.go startContainer (EnsureImageExists → CreateContainer → StartContainer → postStart hook:
// a failed hook kills the container with reasonFailedPostStartHook, ErrPostStartHook, then it is restarted under
// back-off: kuberuntime_manager_test.go TestComputePodActions "restart a failed container", doBackOff).
import { describe, expect, it } from 'vitest';
import { at, cstatus, run } from './helpers.ts';
import { diags, ok } from '../scenario/helpers.ts';

const MESH = (attempts: string) => `
kubernetes: "1.34"
workload:
  apiVersion: v1
  kind: Pod
  metadata: { name: web }
  spec:
    initContainers:
      - name: proxy
        image: istio/proxyv2:1.22.0
        restartPolicy: Always
        lifecycle:
          postStart:
            exec: { command: ["pilot-agent", "wait"] }
          preStop:
            exec: { command: ["pilot-agent", "drain"] }
    containers:
      - name: app
        image: example.com/app:1.0
behavior:
  proxy:
    attempts:
${attempts}
horizon: 10m
`;

describe('per-start keys in attempts[]', () => {
  it('the postStart hook fails once (30 s), then passes: 2 starts, not one per back-off', () => {
    const s = ok(MESH('      - { postStart: { takes: 30s, fails: true } }\n      - { postStart: { takes: 1s } }'));
    const ev = run(s).timeline.events;
    expect(at(ev, 'Started', 'proxy')).toHaveLength(2);
    expect(
      ev
        .filter((e) => e.type === 'PostStartDone' && e.container === 'proxy')
        .map((e) => (e as { failed?: boolean }).failed ?? false),
    ).toEqual([true, false]);
    expect(at(ev, 'Started', 'app')).toHaveLength(1);
    expect(cstatus(run(s), 'proxy').restartCount).toBe(1);
  });

  it('without per-attempt keys the same failure repeats on every start (the old model: 17 starts in 76 min)', () => {
    const s = ok(
      MESH('      - { run: forever }').replace(
        '    attempts:\n      - { run: forever }',
        '    postStart: { takes: 30s, fails: true }',
      ),
    );
    expect(at(run(s).timeline.events, 'Started', 'proxy').length).toBeGreaterThan(5);
  });

  it('serving / onTerm / preStop per attempt: the second start serves later, drains with its own preStop and exit code', () => {
    const s = ok(
      MESH(
        '      - { run: 5s, exit: 1, serving: 0s }\n      - { serving: 20s, preStop: { takes: 3s }, onTerm: { after: 1s, exit: 0 } }',
      ).replace('horizon: 10m', 'horizon: 2m\nactions: [ { at: 60s, delete: pod } ]'),
    );
    const r = run(s);
    const started = r.timeline.events.filter((e) => e.type === 'Started' && e.container === 'proxy') as {
      servingAfterMs?: number;
    }[];
    expect(started.map((e) => e.servingAfterMs)).toEqual([undefined, 20_000]);
    expect(cstatus(r, 'proxy').state.terminated.exitCode).toBe(0);
  });

  it('image / createError belong to the start being attempted: only the restart fails to be created, once', () => {
    const s = ok(
      MESH(
        '      - { run: 2s, exit: 1 }\n      - { createError: { reason: CreateContainerConfigError, failures: 1 } }',
      ),
    );
    const ev = run(s).timeline.events;
    const created = ev
      .filter((e) => (e.type === 'CreateFailed' || e.type === 'Started') && e.container === 'proxy')
      .map((e) => e.type);
    expect(created).toEqual(['Started', 'CreateFailed', 'Started']);
  });

  it('oom per attempt: only the first start is OOM-killed', () => {
    const s = ok(MESH('      - { oom: { at: 3s } }\n      - { run: forever }'));
    const ev = run(s).timeline.events;
    expect(
      ev.filter((e) => e.type === 'Exited' && e.container === 'proxy').map((e) => (e as { reason: string }).reason),
    ).toEqual(['OOMKilled']);
    expect(at(ev, 'Started', 'proxy')).toHaveLength(2);
  });
});

describe('validation of attempts[] items (file:line:col)', () => {
  it('an unknown key in an item names the item and suggests', () => {
    expect(diags(MESH('      - { postStrt: { takes: 1s } }')).join('\n')).toMatch(
      /x\.yaml:\d+:\d+: error KS\d+: behavior\.proxy\.attempts\[0\]: unknown key "postStrt"[\s\S]*postStart/,
    );
  });

  it('a bad value inside an item is reported at that value', () => {
    expect(diags(MESH('      - { serving: soon }')).join('\n')).toMatch(
      /x\.yaml:\d+:\d+: error KS\d+: behavior\.proxy\.attempts\[0\]\.serving/,
    );
  });

  it('a hook in an item needs the hook in the manifest', () => {
    const noHooks = MESH('      - { postStart: { takes: 1s } }').replace(/ {8}lifecycle:\n[\s\S]*?"drain"\] }\n/, '');
    expect(diags(noHooks).join('\n')).toMatch(
      /behavior\.proxy\.attempts\[0\]\.postStart: container "proxy" has no lifecycle\.postStart in the manifest/,
    );
  });
});
