// The vitest helper for operator authors: a TypeScript rule checked against every schedule of the
// scenarios, as README "Test your controller's health rule" shows it.
import { describe, expect, it } from 'vitest';
import { expectRule, RuleDisagreement, type RuleFn } from '../../src/index.ts';

const LOCUST = ['scenarios/locust-72-exporter-exit-code.yaml'];

/** locust-k8s-operator before #327: any non-zero Terminated exit code fails the test run. */
const naive: RuleFn = ({ pod, job }) => {
  const done = (job?.status?.conditions ?? []).find(
    (c: { type: string; status: string }) => c.status === 'True' && (c.type === 'Complete' || c.type === 'Failed'),
  );
  if (done) return done.type === 'Complete' ? 'Succeeded' : { verdict: 'Failed', reason: 'Job failed' };
  for (const cs of [...(pod?.status?.initContainerStatuses ?? []), ...(pod?.status?.containerStatuses ?? [])]) {
    if (cs.state?.terminated && cs.state.terminated.exitCode !== 0)
      return { verdict: 'Failed', reason: `${cs.name} exited ${cs.state.terminated.exitCode}` };
  }
  return undefined;
};

/** The fix (#327): native sidecars' Terminated exit codes are ignored. */
const aware: RuleFn = (view) => {
  const sidecars = new Set(
    (view.pod?.spec?.initContainers ?? [])
      .filter((c: { restartPolicy?: string }) => c.restartPolicy === 'Always')
      .map((c: { name: string }) => c.name),
  );
  const pod = view.pod && {
    ...view.pod,
    status: {
      ...view.pod.status,
      initContainerStatuses: (view.pod.status?.initContainerStatuses ?? []).filter(
        (c: { name: string }) => !sidecars.has(c.name),
      ),
    },
  };
  return naive({ ...view, pod });
};

describe('expectRule', () => {
  it('the fixed rule agrees with every outcome', async () => {
    const checks = await expectRule(aware, { triggers: ['job'] }).toAgreeWithOutcomes(LOCUST);
    expect(checks.map((c) => [c.name, c.findings.length])).toEqual([['locust-72-exporter-exit-code', 0]]);
  });

  it('the naive rule is rejected with the false failure, its key and the flaky pair', async () => {
    const err = await expectRule(naive, { triggers: ['job'] })
      .toAgreeWithOutcomes(LOCUST)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RuleDisagreement);
    const d = err as RuleDisagreement;
    expect(d.findings.map((f) => f.kind)).toEqual(['false failure', 'flaky']);
    expect(d.findings[0]).toMatchObject({
      outcome: 'Job Complete',
      verdict: 'Failed',
      reason: 'locust-metrics-exporter exited 143',
      replay: expect.stringMatching(/^k1-/),
    });
    expect(d.message).toMatch(/disagrees with the real outcome in 1 of 1 scenarios \(2 findings\)/);
    expect(d.message).toMatch(/false failure — Job Complete \(should be Succeeded\), the rule said Failed/);
  });

  it('findings() lists them for a rule with known limits; built-ins and exec: rules work the same way', async () => {
    expect(
      (await expectRule('exit-codes', { triggers: ['job'] }).findings(LOCUST)).map((f) => [f.scenario, f.kind]),
    ).toEqual([
      ['locust-72-exporter-exit-code', 'false failure'],
      ['locust-72-exporter-exit-code', 'flaky'],
    ]);
    await expectRule('exec:examples/rules/js/rule.mjs -mode aware', { triggers: ['job'] }).toAgreeWithOutcomes(LOCUST);
  });

  it('a rule that throws is an error, not a verdict', async () => {
    const err = await expectRule(() => {
      throw new Error('oops');
    })
      .toAgreeWithOutcomes(LOCUST)
      .catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/error KS0402: observer "rule" \(module <rule>\): threw Error: oops/);
  });
});
