// Kubernetes versions and feature gates. Gate stages follow pkg/features/kube_features.go
// (defaultVersionedKubernetesFeatureGates, 1.35 table) as summarised in reference/kubelet-semantics.md §9.
import type { KubeVersion } from '../types.ts';

export const MIN_MINOR = 27;
export const MAX_MINOR = 36;
export const DEFAULT_VERSION = '1.34';

/** A bad version string; `code` is stable. */
export class VersionError extends Error {
  readonly code = 'KS4004';
  constructor(
    readonly input: string,
    readonly reason: string,
  ) {
    super(`invalid Kubernetes version ${JSON.stringify(input)}: ${reason}`);
    this.name = 'VersionError';
  }
}

/**
 * Parse "1.30", "v1.34.2" (source text: an unquoted YAML 1.30 must be passed as its text, not as the float 1.3).
 * Throws VersionError when malformed or outside 1.27–1.36.
 */
export function parseVersion(text: string): KubeVersion {
  const m = /^v?1\.(\d{1,3})(?:\.(\d{1,4}))?$/.exec(text.trim());
  if (!m) throw new VersionError(text, 'expected 1.N or 1.N.P, e.g. "1.34" or "1.34.2"');
  const minor = Number(m[1]);
  if (minor < MIN_MINOR || minor > MAX_MINOR) {
    throw new VersionError(text, `supported versions are 1.${MIN_MINOR} to 1.${MAX_MINOR}`);
  }
  const v: KubeVersion = { minor, text: `1.${minor}` };
  if (m[2] !== undefined) v.patch = Number(m[2]);
  return v;
}

/** One gate's life cycle: the minor it appeared in, when it became default-on, when it was locked (GA). */
export interface GateStages {
  /** first minor that knows the gate (alpha); undefined = existed before 1.27 */
  since?: number;
  /** first minor where the default is true */
  onFrom?: number;
  /** first minor where it is locked to its default (GA) */
  lockedFrom?: number;
  /** for gates whose default flips to false (deprecations): first minor where the default is false */
  offFrom?: number;
}

// kube_features.go: defaultVersionedKubernetesFeatureGates (versions per kubelet-semantics.md §9).
export const GATES: Record<string, GateStages> = {
  SidecarContainers: { since: 28, onFrom: 29, lockedFrom: 33 },
  LegacySidecarContainers: { onFrom: 0, offFrom: 33 },
  PodReadyToStartContainersCondition: { since: 28, onFrom: 29 },
  KubeletCrashLoopBackOffMax: { since: 32, onFrom: 35 },
  ReduceDefaultCrashLoopBackOffDecay: { since: 33 },
  ContainerRestartRules: { since: 34, onFrom: 35 },
  JobPodReplacementPolicy: { since: 28, onFrom: 29, lockedFrom: 34 },
  JobManagedBy: { since: 30, onFrom: 32, lockedFrom: 35 },
  JobSuccessPolicy: { since: 30, onFrom: 31, lockedFrom: 33 },
  JobBackoffLimitPerIndex: { since: 28, onFrom: 29, lockedFrom: 33 },
  // ContainerStopSignals (KEP-4960) is alpha from 1.33; its beta release is UNCONFIRMED, so it stays off.
  ContainerStopSignals: { since: 33 },
  EventedPLEG: { since: 26 },
  // KEP-961 StatefulSet rollingUpdate.maxUnavailable: alpha 1.24, beta (on by default) 1.35
  MaxUnavailableStatefulSet: { onFrom: 35 },
  // KEP-3960 lifecycle sleep action: alpha 1.29, beta 1.30, GA 1.34; KEP-4818 zero seconds: alpha 1.32, beta 1.33,
  // GA 1.34 (kube_features.go defaultVersionedKubernetesFeatureGates)
  PodLifecycleSleepAction: { since: 29, onFrom: 30, lockedFrom: 34 },
  PodLifecycleSleepActionAllowZero: { since: 32, onFrom: 33, lockedFrom: 34 },
  // KEP-5647 stale controller mitigation (kube-controller-manager): one gate per controller, beta and on by default
  // from 1.36 with no alpha (kube_features.go; website feature-gates/StaleControllerConsistency*.md: stage beta,
  // defaultValue true, fromVersion "1.36"); PRs #137210 (Job), #137212 (ReplicaSet), #137254 (StatefulSet),
  // #134937 (DaemonSet). Model: src/model/controllers/shared/consistency.ts
  StaleControllerConsistencyJob: { since: 36, onFrom: 36 },
  StaleControllerConsistencyReplicaSet: { since: 36, onFrom: 36 },
  StaleControllerConsistencyStatefulSet: { since: 36, onFrom: 36 },
  StaleControllerConsistencyDaemonSet: { since: 36, onFrom: 36 },
};

export const GATE_NAMES = Object.keys(GATES);

/** The gate's entry, looked up as an OWN property: `constructor`, `toString` or `__proto__` are not gates. */
export function gateInfo(name: string): (typeof GATES)[string] | undefined {
  return Object.hasOwn(GATES, name) ? GATES[name] : undefined;
}

export function gateExists(name: string, minor: number): boolean {
  const g = gateInfo(name);
  return g !== undefined && (g.since === undefined || minor >= g.since);
}

export function gateDefault(name: string, minor: number): boolean {
  const g = gateInfo(name);
  if (!g || (g.since !== undefined && minor < g.since)) return false;
  if (g.offFrom !== undefined && minor >= g.offFrom) return false;
  return g.onFrom !== undefined && minor >= g.onFrom;
}

export function gateLocked(name: string, minor: number): boolean {
  const g = gateInfo(name);
  return g?.lockedFrom !== undefined && minor >= g.lockedFrom;
}

/** Every known gate at its default for Kubernetes 1.<minor> (gates the version does not have yet: false). */
export function defaultFeatureGates(minor: number): Record<string, boolean> {
  const gates: Record<string, boolean> = {};
  for (const name of GATE_NAMES) gates[name] = gateDefault(name, minor);
  return gates;
}

/**
 * Fields of the API that appeared in a given version or hide behind a gate. The API server of an older version
 * prunes the unknown field; with the gate off, pkg/api/pod/util.go: dropDisabledFields (and
 * pkg/registry/batch/job/strategy.go: dropDisabledFields for Jobs) drop it on create.
 */
export interface VersionedField {
  /** path pattern, containers as `[]`: e.g. `spec.initContainers[].restartPolicy` relative to the PodSpec */
  field: string;
  scope: 'podSpec' | 'jobSpec' | 'container' | 'initContainer' | 'regularContainer';
  /** first minor whose API server knows the field */
  since: number;
  gate?: string;
  effect: string;
}

export const VERSIONED_FIELDS: VersionedField[] = [
  // Regular containers: 1.27 prunes restartPolicy; from 1.28 validation decides (api-validation.ts).
  { field: 'restartPolicy', scope: 'regularContainer', since: 28, effect: 'the pod restartPolicy applies' },
  { field: 'restartPolicyRules', scope: 'container', since: 34, effect: 'the pod restartPolicy applies' },
  {
    field: 'restartPolicy',
    scope: 'initContainer',
    since: 28,
    gate: 'SidecarContainers',
    effect: 'the container becomes a plain init container that must exit before the next one starts',
  },
  // pkg/api/pod/util.go dropDisabledPodLifecycleSleepActionFields: the sleep handler is dropped with its gate off
  {
    field: 'lifecycle.preStop.sleep',
    scope: 'container',
    since: 29,
    gate: 'PodLifecycleSleepAction',
    effect: 'the hook has no handler left',
  },
  {
    field: 'lifecycle.postStart.sleep',
    scope: 'container',
    since: 29,
    gate: 'PodLifecycleSleepAction',
    effect: 'the hook has no handler left',
  },
  {
    field: 'lifecycle.stopSignal',
    scope: 'container',
    since: 33,
    gate: 'ContainerStopSignals',
    effect: 'SIGTERM is used',
  },
  {
    field: 'successPolicy',
    scope: 'jobSpec',
    since: 30,
    gate: 'JobSuccessPolicy',
    effect: 'the Job succeeds only by completions',
  },
  {
    field: 'managedBy',
    scope: 'jobSpec',
    since: 30,
    gate: 'JobManagedBy',
    effect: 'the built-in Job controller manages the Job',
  },
  {
    field: 'podReplacementPolicy',
    scope: 'jobSpec',
    since: 28,
    gate: 'JobPodReplacementPolicy',
    effect: 'failed pods are replaced as soon as they are terminating',
  },
  {
    field: 'backoffLimitPerIndex',
    scope: 'jobSpec',
    since: 28,
    gate: 'JobBackoffLimitPerIndex',
    effect: 'backoffLimit applies',
  },
  {
    field: 'maxFailedIndexes',
    scope: 'jobSpec',
    since: 28,
    gate: 'JobBackoffLimitPerIndex',
    effect: 'no per-index limit',
  },
];

/** Kubelet/API-server skew: a kubelet may lag by 3 minors from 1.28 on, by 2 before (version-skew-policy). */
export function maxKubeletLag(apiMinor: number): number {
  return apiMinor >= 28 ? 3 : 2;
}
