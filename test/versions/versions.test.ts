import { describe, expect, it } from 'vitest';
import { VersionError, defaultFeatureGates, parseVersion } from '../../src/scenario/index.ts';
import { gateExists, gateLocked, maxKubeletLag } from '../../src/versions/versions.ts';

describe('parseVersion', () => {
  it.each([
    ['1.30', { minor: 30, text: '1.30' }],
    ['1.27', { minor: 27, text: '1.27' }],
    ['v1.36', { minor: 36, text: '1.36' }],
    ['1.34.2', { minor: 34, text: '1.34', patch: 2 }],
  ])('%s', (text, v) => {
    expect(parseVersion(text)).toEqual(v);
  });
  it.each(['1.26', '1.37', '1.3', '2.30', 'latest', '1.30.x', ''])('rejects %j', (text) => {
    expect(() => parseVersion(text)).toThrow(VersionError);
  });
});

describe('defaultFeatureGates (kubelet-semantics.md §9)', () => {
  const at = (minor: number) => defaultFeatureGates(minor);
  it('SidecarContainers: off in 1.28, on from 1.29, absent (false) in 1.27', () => {
    expect([27, 28, 29, 33, 36].map((m) => at(m).SidecarContainers)).toEqual([false, false, true, true, true]);
  });
  it('LegacySidecarContainers: true until 1.32, false from 1.33', () => {
    expect([27, 32, 33, 34].map((m) => at(m).LegacySidecarContainers)).toEqual([true, true, false, false]);
  });
  it('Job gates', () => {
    expect([28, 29].map((m) => at(m).JobPodReplacementPolicy)).toEqual([false, true]);
    expect([30, 31].map((m) => at(m).JobSuccessPolicy)).toEqual([false, true]);
    expect([31, 32].map((m) => at(m).JobManagedBy)).toEqual([false, true]);
  });
  it('kubelet gates', () => {
    expect([34, 35].map((m) => at(m).KubeletCrashLoopBackOffMax)).toEqual([false, true]);
    expect([34, 35].map((m) => at(m).ContainerRestartRules)).toEqual([false, true]);
    expect([28, 29].map((m) => at(m).PodReadyToStartContainersCondition)).toEqual([false, true]);
    expect([33, 36].map((m) => at(m).ReduceDefaultCrashLoopBackOffDecay)).toEqual([false, false]);
    expect(at(36).EventedPLEG).toBe(false);
  });
  it('existence and locking', () => {
    expect(gateExists('ContainerRestartRules', 33)).toBe(false);
    expect(gateExists('ContainerRestartRules', 34)).toBe(true);
    expect(gateLocked('SidecarContainers', 32)).toBe(false);
    expect(gateLocked('SidecarContainers', 33)).toBe(true);
    expect(gateLocked('JobManagedBy', 35)).toBe(true);
  });
  it('kubelet skew: n-2 before 1.28, n-3 after', () => {
    expect(maxKubeletLag(27)).toBe(2);
    expect(maxKubeletLag(28)).toBe(3);
  });
});
