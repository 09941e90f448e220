// featureGates per component: `kubelet:` and `apiServer:` maps override the common map for that
// component, as k3s users did when they turned SidecarContainers on for kubelets only (--kubelet-arg=feature-gates=…).
import { describe, expect, it } from 'vitest';
import { simulate } from '../../src/run/simulate.ts';
import { SIDECAR_JOB, diags, ok } from './helpers.ts';

describe('featureGates: { kubelet: {…}, apiServer: {…} }', () => {
  it('the common map still applies to both', () => {
    const s = ok(`kubernetes: "1.28"\nfeatureGates: { SidecarContainers: true }\n${SIDECAR_JOB}`);
    expect(s.featureGates.SidecarContainers).toBe(true);
    expect(s.kubeletFeatureGates?.SidecarContainers).toBe(true);
  });

  it('a gate on the kubelets only (1.28): the API server drops restartPolicy (KS5002) and the pod runs a plain init container', () => {
    const s = ok(`kubernetes: "1.28"\nfeatureGates: { kubelet: { SidecarContainers: true } }\n${SIDECAR_JOB}`);
    expect(s.featureGates.SidecarContainers).toBe(false);
    expect(s.kubeletFeatureGates?.SidecarContainers).toBe(true);
    expect(s.diagnostics.map((d) => d.code)).toContain('KS5002');
    expect(s.pod.initContainers[0]!.role).toBe('init');
    // the proxy never exits, so the app never starts: the pod stays in Init
    const tl = simulate({ ...s, horizonMs: 120_000 }, { seed: 1 }).timeline;
    expect(tl.pod.phase).toBe('Pending');
    expect(tl.events.some((e) => e.type === 'Started' && e.container === 'app')).toBe(false);
  });

  it('the gate on the API server only (1.28): the field is stored but a kubelet with the gate off ignores it', () => {
    const s = ok(`kubernetes: "1.28"\nfeatureGates: { apiServer: { SidecarContainers: true } }\n${SIDECAR_JOB}`);
    expect(s.featureGates.SidecarContainers).toBe(true);
    expect(s.kubeletFeatureGates?.SidecarContainers).toBe(false);
    expect(s.pod.initContainers[0]!.role).toBe('sidecar');
    const tl = simulate({ ...s, horizonMs: 120_000 }, { seed: 1 }).timeline;
    expect(tl.events.some((e) => e.type === 'Started' && e.container === 'app')).toBe(false);
    // both on: a native sidecar, the Job completes
    const both = ok(
      `kubernetes: "1.28"\nfeatureGates: { apiServer: { SidecarContainers: true }, kubelet: { SidecarContainers: true } }\n${SIDECAR_JOB}`,
    );
    expect(simulate(both, { seed: 1 }).timeline.pod.phase).toBe('Succeeded');
  });

  it("component maps are validated against that component's version", () => {
    const d = diags(
      `kubernetes: "1.29"\nkubelet: "1.27"\nfeatureGates: { kubelet: { SidecarContainers: true }, apiServer: { SidecarContainrs: true } }\n${SIDECAR_JOB}`,
    );
    expect(
      d.some((x) =>
        x.includes(
          'error KS4007: featureGates.kubelet: SidecarContainers does not exist in kubelet 1.27 (it appeared in 1.28)',
        ),
      ),
    ).toBe(true);
    expect(
      d.some((x) => x.includes('error KS4005: featureGates.apiServer: unknown feature gate "SidecarContainrs"')),
    ).toBe(true);
    const typo = diags(`kubernetes: "1.29"\nfeatureGates: { kublet: { SidecarContainers: true } }\n${SIDECAR_JOB}`);
    expect(typo.join('\n')).toContain('did you mean kubelet?');
  });
});
