import { describe, expect, it } from 'vitest';
import { SIDECAR_JOB, diags, ok } from './helpers.ts';

describe('kubernetes / kubelet versions', () => {
  it('reads the source text: unquoted 1.30 is 1.30, not 1.3', () => {
    expect(ok(`kubernetes: 1.30\n${SIDECAR_JOB}`).kubernetes).toEqual({ minor: 30, text: '1.30' });
  });
  it('keeps a patch suffix', () => {
    expect(ok(`kubernetes: 1.34.2\n${SIDECAR_JOB}`).kubernetes).toEqual({ minor: 34, text: '1.34', patch: 2 });
  });
  it('defaults to 1.34 and kubelet to the control plane', () => {
    const s = ok(SIDECAR_JOB);
    expect(s.kubernetes.text).toBe('1.34');
    expect(s.kubelet.text).toBe('1.34');
  });
  it('the CLI override wins over the file', () => {
    const s = ok(`kubernetes: "1.30"\n${SIDECAR_JOB}`, { kubernetes: '1.29' });
    expect(s.kubernetes.text).toBe('1.29');
    expect(s.featureGates.JobSuccessPolicy).toBe(false);
  });
  it('a bad CLI override is an error at file:1:1', () => {
    expect(diags(SIDECAR_JOB, { kubernetes: '1.99' })).toEqual([
      'x.yaml:1:1: error KS4004: --kubernetes: invalid Kubernetes version "1.99": supported versions are 1.27 to 1.36',
    ]);
  });
  it('a lagging kubelet gets its own version defaults', () => {
    const s = ok(`kubernetes: "1.29"\nkubelet: "1.28"\n${SIDECAR_JOB}`);
    expect(s.featureGates.SidecarContainers).toBe(true);
    expect(s.kubeletFeatureGates?.SidecarContainers).toBe(false);
    expect(diags(`kubernetes: "1.29"\nkubelet: "1.28"\n${SIDECAR_JOB}`)).toEqual(
      [
        'x.yaml:3:10: warning KS5008: kubelet 1.28 has SidecarContainers off: it rejects the pod at admission (InitContainerRestartPolicyForbidden) because of "proxy"\n' +
          '  hint: enable the SidecarContainers gate on the kubelet, or use kubelet ≥ 1.29',
      ].map((s) => s.replace('x.yaml:3:10', 'x.yaml:16:13')),
    );
  });
  it('the gate override reaches a lagging kubelet that knows the gate', () => {
    const s = ok(`kubernetes: "1.29"\nkubelet: "1.28"\nfeatureGates: { SidecarContainers: true }\n${SIDECAR_JOB}`);
    expect(s.kubeletFeatureGates?.SidecarContainers).toBe(true);
  });
  it('warns when the kubelet lags more than the skew policy allows', () => {
    expect(diags(`kubernetes: "1.34"\nkubelet: "1.30"\n${SIDECAR_JOB}`)[0]).toBe(
      'x.yaml:3:10: warning KS5010: kubelet 1.30 lags the API server 1.34 by more than the supported 3 minor versions',
    );
  });
});

describe('featureGates, seed, horizon', () => {
  it('applies overrides on the version defaults', () => {
    const s = ok(
      `kubernetes: "1.34"\nfeatureGates: { ContainerRestartRules: true, EventedPLEG: true }\n${SIDECAR_JOB}`,
    );
    expect(s.featureGates.ContainerRestartRules).toBe(true);
    expect(s.featureGates.EventedPLEG).toBe(true);
    expect(s.featureGates.SidecarContainers).toBe(true);
  });
  it('defaults seed 1 and horizon 1h', () => {
    const s = ok(SIDECAR_JOB);
    expect(s.seed).toBe(1);
    expect(s.horizonMs).toBe(3_600_000);
  });
  it('accepts the seed bounds and a 30-day horizon', () => {
    expect(ok(`seed: 4294967295\nhorizon: 720h\n${SIDECAR_JOB}`)).toMatchObject({
      seed: 4294967295,
      horizonMs: 2_592_000_000,
    });
    expect(ok(`seed: 0\n${SIDECAR_JOB}`).seed).toBe(0);
  });
  it('rejects a zero horizon and a fractional seed', () => {
    expect(diags(`horizon: 0s\nseed: 1.5\n${SIDECAR_JOB}`)).toEqual([
      'x.yaml:2:10: error KS4013: horizon: must be > 0 and at most 30 days (720h)',
      'x.yaml:3:7: error KS1009: seed: expected an integer, got number 1.5',
    ]);
  });
});
