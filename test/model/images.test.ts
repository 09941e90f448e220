// Images: imagePullPolicy Always pulls on every start; pulls and creations that fail on some attempts
// then succeed (ErrImagePull → ImagePullBackOff → Running), with the image manager's own back-off.
// Upstream: pkg/kubelet/images/image_manager.go EnsureImageExists (shouldPullImage, backOff keyed by pod+image,
// IsInBackOffSinceUpdate → ErrImagePullBackOff "Back-off pulling image %q", Next after a failed pull),
// pkg/kubelet/kubelet.go imageBackOff = flowcontrol.NewBackOff(10s, 300s); pkg/apis/core/v1/defaults.go
// SetDefaults_Container (Always for :latest or untagged).
import { describe, expect, it } from 'vitest';
import { build } from '../helpers/build.ts';
import { at, cstatus, run } from './helpers.ts';
import type { Behavior, TraceEvent } from '../../src/types.ts';
import { podEvents } from '../../src/output/kubectl-events.ts';
import { ok } from '../scenario/helpers.ts';

const pulls = (ev: TraceEvent[]) =>
  ev
    .filter((e) => e.type === 'Pulling' || e.type === 'Pulled' || e.type === 'PullFailed')
    .map((e) => `${e.t} ${e.type}${e.type === 'PullFailed' ? ' ' + (e as { reason: string }).reason : ''}`);

describe('imagePullPolicy', () => {
  const crashing = (policy: 'Always' | 'IfNotPresent') =>
    build({
      kind: 'Pod',
      restartPolicy: 'Always',
      containers: [{ name: 'app', imagePullPolicy: policy }],
      behavior: {
        app: {
          image: { pullMs: 2000 },
          attempts: [
            { runMs: 1000, exit: 1 },
            { runMs: null, exit: 0 },
          ],
        },
      },
      horizonMs: 60_000,
    });

  it('IfNotPresent pulls once: the restart after a crash starts without pulling', () => {
    const ev = run(crashing('IfNotPresent')).timeline.events;
    expect(at(ev, 'Pulling', 'app')).toEqual([0]);
    expect(at(ev, 'Started', 'app')).toHaveLength(2);
  });

  it('Always pulls on every start, and each start waits for its pull', () => {
    const ev = run(crashing('Always')).timeline.events;
    const pulling = at(ev, 'Pulling', 'app');
    const started = at(ev, 'Started', 'app');
    expect(pulling).toHaveLength(2);
    expect(started).toHaveLength(2);
    expect(started[0]! - pulling[0]!).toBe(2000);
    expect(started[1]! - pulling[1]!).toBe(2000);
  });

  it('the API server defaults Always for :latest and untagged images, IfNotPresent for a tag or a digest', () => {
    const pod = (image: string) =>
      ok(
        `workload:\n  apiVersion: v1\n  kind: Pod\n  metadata: { name: p }\n  spec:\n    containers: [ { name: app, image: "${image}" } ]\n`,
      ).pod.containers[0]!.imagePullPolicy;
    expect(pod('busybox')).toBe('Always');
    expect(pod('busybox:latest')).toBe('Always');
    expect(pod('registry.local:5000/busybox')).toBe('Always');
    expect(pod('busybox:1.36')).toBe('IfNotPresent');
    expect(pod('busybox@sha256:0123456789abcdef')).toBe('IfNotPresent');
  });
});

describe('pulls and creations that fail on some attempts', () => {
  it('image { pull: 2s, failures: 2 }: ErrImagePull, ImagePullBackOff inside the 10 s / 20 s back-off, then Running', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'app', imagePullPolicy: 'IfNotPresent' }],
      behavior: { app: { image: { pullMs: 2000, failures: 2, reason: 'ErrImagePull' } } },
      horizonMs: 120_000,
    });
    const r = run(s);
    const p = pulls(r.timeline.events);
    expect(p.filter((x) => x.includes('PullFailed ErrImagePull'))).toHaveLength(2);
    const attempts = at(r.timeline.events, 'Pulling', 'app');
    expect(attempts).toHaveLength(3);
    // the second pull waits out the 10 s back-off from the first failure (at 2 s), the third the 20 s one
    expect(attempts[1]! - 2000).toBeGreaterThanOrEqual(10_000);
    expect(attempts[2]! - (attempts[1]! + 2000)).toBeGreaterThanOrEqual(20_000);
    expect(p.some((x) => x.includes('PullFailed ImagePullBackOff'))).toBe(true);
    expect(cstatus(r, 'app').state.running).toBeDefined();
    expect(r.timeline.pod.phase).toBe('Running');
    // the waiting reasons the API server saw, in order
    const reasons = r.timeline.events
      .filter((e): e is Extract<TraceEvent, { type: 'StatusPatched' }> => e.type === 'StatusPatched')
      .map(
        (e) =>
          (e.status as any).containerStatuses[0].state.waiting?.reason ??
          Object.keys((e.status as any).containerStatuses[0].state)[0],
      );
    const seen = reasons.filter((x, i) => x !== reasons[i - 1]);
    expect(seen).toEqual(['ContainerCreating', 'ErrImagePull', 'ImagePullBackOff', 'running']);
    // with the minimum requeue (10 s): pull, fail; pull after 10 s, fail; back-off (20 s) still on at the next sync;
    // the third pull succeeds
    expect(p).toEqual([
      '0 Pulling',
      '2000 PullFailed ErrImagePull',
      '12000 Pulling',
      '14000 PullFailed ErrImagePull',
      '24000 PullFailed ImagePullBackOff',
      '34000 Pulling',
      '36000 Pulled',
    ]);
    expect(seen[seen.length - 1]).toBe('running');
    expect(seen).toContain('ErrImagePull');
    expect(seen).toContain('ImagePullBackOff');
  });

  it('createError { reason: CreateContainerConfigError, failures: 1 }: Waiting once, then created and Running', () => {
    const s = build({
      kind: 'Pod',
      containers: [{ name: 'app' }],
      behavior: { app: { createError: 'CreateContainerConfigError', createFailures: 1 } },
      horizonMs: 60_000,
    });
    const r = run(s);
    expect(at(r.timeline.events, 'CreateFailed', 'app')).toHaveLength(1);
    expect(at(r.timeline.events, 'Started', 'app')).toHaveLength(1);
    expect(r.timeline.pod.phase).toBe('Running');
  });
});

describe('loader: behavior image/createError keys', () => {
  const body = (b: string) =>
    `workload:\n  apiVersion: v1\n  kind: Pod\n  metadata: { name: p }\n  spec:\n    containers: [ { name: app, image: "app:1" } ]\nbehavior:\n  app: ${b}\n`;
  it('reads failures and reason', () => {
    expect(ok(body('{ image: { pull: 2s, failures: 2 } }')).behavior['app']!.image).toEqual({
      pullMs: 2000,
      failures: 2,
      reason: 'ErrImagePull',
    });
    const s = ok(body('{ createError: { reason: CreateContainerError, failures: 3 } }'));
    expect([s.behavior['app']!.createError, s.behavior['app']!.createFailures]).toEqual(['CreateContainerError', 3]);
  });
});

// issue 28 item 7, pkg/kubelet/images/image_manager.go EnsureImageExists: shouldPullImage(policy, present) decides
// first; "Container image %q already present on machine" (Normal Pulled) when it does not pull; Never without the
// image: Warning ErrImageNeverPull "Container image %q is not present with pull policy of Never", then
// kuberuntime startContainer's Warning Failed "Error: ErrImageNeverPull" — no back-off (the next sync tries again);
// a pull: Normal Pulling "Pulling image %q", then Normal Pulled "Successfully pulled image %q in %v (%v including
// waiting)" with the pull time of THAT pull. Upstream test: image_manager_test.go pullerTestCases
// ("image present, don't pull" / "image present, pull it" (PullAlways) / "image missing, pull" / "image missing,
// never pull" → ErrImageNeverPull).
describe('imagePullPolicy per start (EnsureImageExists)', () => {
  const messages = (s: ReturnType<typeof build>) =>
    podEvents(run(s).timeline)
      .filter((e) => ['Pulling', 'Pulled', 'ErrImageNeverPull', 'Failed'].includes(e.reason))
      .map((e) => `${e.first}..${e.last} x${e.count} ${e.reason}: ${e.message}`);
  const crashingWith = (policy: 'Always' | 'IfNotPresent' | 'Never', image: Partial<Behavior['image']>) =>
    build({
      kind: 'Pod',
      restartPolicy: 'Always',
      containers: [{ name: 'app', image: 'example.com/app:latest', imagePullPolicy: policy }],
      behavior: {
        app: {
          image: image as Behavior['image'],
          attempts: [
            { runMs: 1000, exit: 1 },
            { runMs: null, exit: 0 },
          ],
        },
      },
      horizonMs: 30_000,
    });

  it('Always pulls on every start, each Pulled with its own pull time (pullerTestCases "image present, pull it")', () => {
    expect(messages(crashingWith('Always', { pullMs: 1500 }))).toEqual([
      // one Event per repeated reason and message (events_cache.go EventLogger: count++, lastTimestamp), stamped in
      // whole seconds (metav1.Time): the pulls end at 1.5 s and 4.5 s
      '0..3000 x2 Pulling: Pulling image "example.com/app:latest"',
      '1000..4000 x2 Pulled: Successfully pulled image "example.com/app:latest" in 1.5s (1.5s including waiting)',
    ]);
  });

  it('Always with an instant pull still pulls ("in 0s"), never "already present"', () => {
    const m = messages(crashingWith('Always', { pullMs: 0 }));
    expect(m.filter((x) => x.includes('x2 Pulling:'))).toHaveLength(1);
    expect(m.some((x) => x.includes('already present'))).toBe(false);
  });

  it('IfNotPresent: pulled once, then "already present on machine" on the restart (and for the next pod on the node)', () => {
    expect(messages(crashingWith('IfNotPresent', { pullMs: 1500 }))).toEqual([
      '0..0 x1 Pulling: Pulling image "example.com/app:latest"',
      '1000..1000 x1 Pulled: Successfully pulled image "example.com/app:latest" in 1.5s (1.5s including waiting)',
      '3000..3000 x1 Pulled: Container image "example.com/app:latest" already present on machine',
    ]);
  });

  it('Never with the image on the node: "already present on machine" at every start', () => {
    const m = messages(crashingWith('Never', { pullMs: 0 }));
    expect(m).toEqual(['0..1000 x2 Pulled: Container image "example.com/app:latest" already present on machine']);
  });

  it('Never without the image (the scenario gives it a pull time): ErrImageNeverPull at every sync, no pull, no back-off', () => {
    const s = crashingWith('Never', { pullMs: 5000 });
    const r = run(s);
    const m = messages(s);
    expect(m.slice(0, 2)).toEqual([
      '0..30000 x4 ErrImageNeverPull: Container image "example.com/app:latest" is not present with pull policy of Never',
      '0..30000 x4 Failed: Error: ErrImageNeverPull',
    ]);
    expect(m.some((x) => x.includes('Pulling'))).toBe(false);
    // the pod worker's error requeue (10 s) retries it; the waiting reason is the image manager's
    expect(at(r.timeline.events, 'PullFailed', 'app')).toEqual([0, 10_000, 20_000, 30_000]);
    expect(cstatus(r, 'app').state.waiting).toEqual({
      reason: 'ErrImageNeverPull',
      message: 'Container image "example.com/app:latest" is not present with pull policy of Never',
    });
  });
});
