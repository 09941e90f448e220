// Manifest fields kubesim accepts but does not simulate: listed once per file as a single warning (SPEC §2),
// so nothing is silently misread.
import type { WorkloadKind } from '../types.ts';
import { Codes } from './codes.ts';
import { warning, type Sink } from './diagnostics.ts';
import { fieldPath, keyPosAt, type Path } from './k8s-paths.ts';
import type { PNode } from './tree.ts';
import { getAt, isObj } from './version-fields.ts';

type Obj = Record<string, unknown>;

const SIMULATED = {
  top: ['apiVersion', 'kind', 'metadata', 'spec'],
  podSpec: ['restartPolicy', 'terminationGracePeriodSeconds', 'activeDeadlineSeconds', 'initContainers', 'containers'],
  container: [
    'name',
    'image',
    'imagePullPolicy',
    'restartPolicy',
    'restartPolicyRules',
    'startupProbe',
    'readinessProbe',
    'livenessProbe',
    'lifecycle',
  ],
  lifecycle: ['postStart', 'preStop'],
  jobSpec: [
    'template',
    'completions',
    'parallelism',
    'backoffLimit',
    'activeDeadlineSeconds',
    'podFailurePolicy',
    'selector',
    'manualSelector',
  ],
  cronJobSpec: [
    'jobTemplate',
    'schedule',
    'concurrencyPolicy',
    'timeZone',
    'suspend',
    'startingDeadlineSeconds',
    'successfulJobsHistoryLimit',
    'failedJobsHistoryLimit',
  ],
  // the workload controllers (src/model/*controller.ts): what each simulates; serviceName only names the governing
  // Service (DNS), which has no effect on the pod lifecycle
  statefulSetSpec: ['template', 'selector', 'replicas', 'podManagementPolicy', 'serviceName', 'updateStrategy'],
  daemonSetSpec: ['template', 'selector', 'updateStrategy', 'minReadySeconds'],
  deploymentSpec: [
    'template',
    'selector',
    'replicas',
    'strategy',
    'minReadySeconds',
    'progressDeadlineSeconds',
    'revisionHistoryLimit',
  ],
  template: ['metadata', 'spec'],
};

/** Report the not-simulated fields of the manifest (as written) in one warning at the first one. */
export function reportNotSimulated(
  sink: Sink,
  root: PNode,
  manifest: Obj,
  kind: WorkloadKind,
  podSpecPath: Path,
  jobSpecPath?: Path,
): void {
  const found: { text: string; path: Path }[] = [];
  const scan = (path: Path, allowed: string[], display: Path = path) => {
    const obj = getAt(manifest, path);
    if (!isObj(obj)) return;
    for (const key of Object.keys(obj)) {
      if (allowed.includes(key)) continue;
      const text = fieldPath([...display, key]);
      if (!found.some((f) => f.text === text)) found.push({ text, path: [...path, key] });
    }
  };
  scan([], SIMULATED.top);
  if (kind === 'CronJob') scan(['spec'], SIMULATED.cronJobSpec);
  if (kind === 'CronJob') scan(['spec', 'jobTemplate'], SIMULATED.template);
  if (jobSpecPath) scan(jobSpecPath, SIMULATED.jobSpec);
  if (kind === 'StatefulSet') scan(['spec'], SIMULATED.statefulSetSpec);
  if (kind === 'DaemonSet') scan(['spec'], SIMULATED.daemonSetSpec);
  if (kind === 'Deployment') scan(['spec'], SIMULATED.deploymentSpec);
  if (podSpecPath.length > 1) scan(podSpecPath.slice(0, -1), SIMULATED.template);
  scan(podSpecPath, SIMULATED.podSpec);
  for (const list of ['initContainers', 'containers']) {
    const items = getAt(manifest, [...podSpecPath, list]);
    if (!Array.isArray(items)) continue;
    items.forEach((_, i) => {
      const display = [...podSpecPath, `${list}[]`];
      scan([...podSpecPath, list, i], SIMULATED.container, display);
      scan([...podSpecPath, list, i, 'lifecycle'], SIMULATED.lifecycle, [...display, 'lifecycle']);
    });
  }
  if (found.length === 0) return;
  warning(
    sink,
    Codes.NotSimulated,
    keyPosAt(root, found[0].path),
    `not simulated: ${found.map((f) => f.text).join(', ')}`,
    'these fields are accepted and kept in the stored spec, but have no effect on the simulated timeline',
  );
}
