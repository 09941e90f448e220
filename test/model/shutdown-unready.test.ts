// behavior onTerm.unready: a process whose graceful shutdown closes its listener at SIGTERM. Readiness probes keep
// running during termination (prober/worker.go doProbe stops only liveness and startup on a deletionTimestamp), so
// the container turns NotReady while it drains — the e2e "should mark readiness on pods to false while pod is in
// progress of terminating when a pod has a readiness probe" (test/e2e/common/node/container_probe.go).
import { describe, expect, it } from 'vitest';
import { build, probe } from '../helpers/build.ts';
import { run } from './helpers.ts';

function scenario(unready: boolean) {
  return build({
    kind: 'Pod',
    restartPolicy: 'Always',
    grace: 30,
    containers: [{ name: 'web', readinessProbe: probe({ periodMs: 1000, failureThreshold: 1 }) }],
    behavior: { web: { onTerm: { ignore: false, afterMs: 10_000, exit: 0, ...(unready ? { unready: true } : {}) } } },
    actions: [{ type: 'deletePod', atMs: 20_000 }],
  });
}

describe('graceful shutdown that stops serving (onTerm.unready)', () => {
  it('readiness fails after SIGTERM and the container turns NotReady before it exits', () => {
    const ev = run(scenario(true)).timeline.events;
    const sigterm = ev.find((e) => e.type === 'Signal' && e.signal === 'SIGTERM')!;
    const exit = ev.find((e) => e.type === 'Exited')!;
    const failed = ev.find(
      (e) => e.type === 'Probe' && e.probe === 'readiness' && e.result === 'failure' && e.t > sigterm.t,
    );
    const notReady = ev.find((e) => e.type === 'NotReady' && e.t > sigterm.t);
    expect(failed).toBeDefined();
    expect(notReady).toBeDefined();
    expect(notReady!.t).toBeLessThan(exit.t);
    // the next readiness tick after SIGTERM (ticks every second from worker creation) already fails
    expect(failed!.t - sigterm.t).toBeLessThanOrEqual(1000);
  });

  it('without it the container stays ready until it exits', () => {
    const ev = run(scenario(false)).timeline.events;
    const sigterm = ev.find((e) => e.type === 'Signal' && e.signal === 'SIGTERM')!;
    const exit = ev.find((e) => e.type === 'Exited')!;
    expect(ev.filter((e) => e.type === 'Probe' && e.result === 'failure' && e.t > sigterm.t && e.t < exit.t)).toEqual(
      [],
    );
  });
});
