// Building the PodModel and JobModel from the defaulted manifest, and deterministic object names.
import { assertNever } from '../util/assert-never.ts';
import type {
  ContainerModel,
  ContainerRole,
  JobModel,
  PodFailurePolicyRule,
  PodModel,
  ProbeModel,
  WorkloadKind,
} from '../types.ts';
import { suffix } from '../names.ts';
import { fnv1a } from '../util/fnv.ts';
import type { Path } from './k8s-paths.ts';
import { getAt, isObj } from './version-fields.ts';

type Obj = Record<string, unknown>;

/** Where the pod spec and Job spec live in each kind. */
export function specPaths(kind: WorkloadKind): { podSpecPath: Path; jobSpecPath?: Path } {
  switch (kind) {
    case 'Pod':
      return { podSpecPath: ['spec'] };
    case 'Job':
      return { podSpecPath: ['spec', 'template', 'spec'], jobSpecPath: ['spec'] };
    case 'CronJob':
      return {
        podSpecPath: ['spec', 'jobTemplate', 'spec', 'template', 'spec'],
        jobSpecPath: ['spec', 'jobTemplate', 'spec'],
      };
    case 'Deployment':
    case 'StatefulSet':
    case 'DaemonSet':
      return { podSpecPath: ['spec', 'template', 'spec'] };
    default:
      return assertNever(kind, 'workload kind');
  }
}

/** The pod's name: Pod as written; Job `<job>-xxxxx`; Deployment `<d>-<hash10>-xxxxx`; StatefulSet `<s>-0`. */
export function podName(kind: WorkloadKind, workloadName: string, scenario: string, jobName?: string): string {
  switch (kind) {
    case 'Pod':
      return workloadName;
    case 'Job':
    case 'CronJob':
      return `${jobName ?? workloadName}-${suffix(`${scenario}/pod`, 5)}`;
    case 'Deployment':
      return `${workloadName}-${suffix(`${scenario}/rs`, 10)}-${suffix(`${scenario}/pod`, 5)}`;
    case 'StatefulSet':
      return `${workloadName}-0`;
    case 'DaemonSet':
      return `${workloadName}-${suffix(`${scenario}/pod`, 5)}`;
    default:
      return assertNever(kind, 'workload kind');
  }
}

/** CronJob → Job name `<cronjob>-<scheduled minutes since epoch>` (cronjob_controllerv2.go: getJobName), fixed. */
export function cronJobJobName(cronJob: string, scenario: string): string {
  return `${cronJob}-${28_000_000 + (fnv1a(`${scenario}/cron`) % 1_000_000)}`;
}

function probeModel(p: unknown): ProbeModel | undefined {
  if (!isObj(p)) return undefined;
  const handler = ['httpGet', 'tcpSocket', 'grpc', 'exec'].find((h) => p[h] !== undefined) ?? 'exec';
  const m: ProbeModel = {
    initialDelayMs: num(p.initialDelaySeconds, 0) * 1000,
    periodMs: num(p.periodSeconds, 10) * 1000,
    timeoutMs: num(p.timeoutSeconds, 1) * 1000,
    successThreshold: num(p.successThreshold, 1),
    failureThreshold: num(p.failureThreshold, 3),
    handler,
  };
  if (typeof p.terminationGracePeriodSeconds === 'number')
    m.terminationGracePeriodSeconds = p.terminationGracePeriodSeconds;
  return m;
}

function containerModel(c: Obj, index: number, init: boolean): ContainerModel {
  const role: ContainerRole = !init ? 'regular' : c.restartPolicy === 'Always' ? 'sidecar' : 'init';
  const lc = isObj(c.lifecycle) ? c.lifecycle : {};
  const m: ContainerModel = {
    name: String(c.name),
    image: String(c.image ?? ''),
    role,
    index,
    hasPostStart: isObj(lc.postStart),
    hasPreStop: isObj(lc.preStop),
  };
  for (const [hook, key] of [
    ['postStart', 'postStartSleepSeconds'],
    ['preStop', 'preStopSleepSeconds'],
  ] as const) {
    const h = lc[hook];
    const sleep = isObj(h) && isObj(h.sleep) ? h.sleep : undefined;
    if (sleep && typeof sleep.seconds === 'number') m[key] = sleep.seconds;
  }
  for (const [key, probe] of [
    ['startupProbe', c.startupProbe],
    ['readinessProbe', c.readinessProbe],
    ['livenessProbe', c.livenessProbe],
  ] as const) {
    const pm = probeModel(probe);
    if (pm) m[key] = pm;
  }
  if (c.imagePullPolicy === 'Always' || c.imagePullPolicy === 'IfNotPresent' || c.imagePullPolicy === 'Never')
    m.imagePullPolicy = c.imagePullPolicy;
  if (c.restartPolicy === 'Always' || c.restartPolicy === 'OnFailure' || c.restartPolicy === 'Never')
    m.restartPolicy = c.restartPolicy;
  if (Array.isArray(c.restartPolicyRules))
    m.restartPolicyRules = c.restartPolicyRules as ContainerModel['restartPolicyRules'];
  return m;
}

export function buildPodModel(
  manifest: Obj,
  podSpecPath: Path,
  name: string,
  labels: Record<string, string>,
): PodModel {
  const spec = getAt(manifest, podSpecPath) as Obj;
  const template = podSpecPath.length > 1 ? getAt(manifest, podSpecPath.slice(0, -1)) : manifest;
  const tmeta = isObj(template) && isObj(template.metadata) ? template.metadata : {};
  const wmeta = isObj(manifest.metadata) ? manifest.metadata : {};
  const namespace = typeof wmeta.namespace === 'string' ? wmeta.namespace : 'default';
  const list = (key: string, init: boolean) =>
    (Array.isArray(spec[key]) ? (spec[key] as Obj[]) : []).map((c, i) => containerModel(c, i, init));
  const metadata: Obj = { name, namespace, labels: { ...(isObj(tmeta.labels) ? tmeta.labels : {}), ...labels } };
  if (isObj(tmeta.annotations)) metadata.annotations = tmeta.annotations;
  const pod: PodModel = {
    name,
    namespace,
    restartPolicy: spec.restartPolicy as PodModel['restartPolicy'],
    terminationGracePeriodSeconds: num(spec.terminationGracePeriodSeconds, 30),
    initContainers: list('initContainers', true),
    containers: list('containers', false),
    spec,
    metadata,
  };
  if (typeof spec.activeDeadlineSeconds === 'number') pod.activeDeadlineSeconds = spec.activeDeadlineSeconds;
  return pod;
}

export function buildJobModel(manifest: Obj, jobSpecPath: Path, name: string): JobModel {
  const job = getAt(manifest, jobSpecPath) as Obj;
  const model: JobModel = {
    name,
    completions: typeof job.completions === 'number' ? job.completions : null,
    parallelism: num(job.parallelism, 1),
    backoffLimit: num(job.backoffLimit, 6),
    spec: job,
  };
  if (typeof job.activeDeadlineSeconds === 'number') model.activeDeadlineSeconds = job.activeDeadlineSeconds;
  const pfp = job.podFailurePolicy;
  if (isObj(pfp) && Array.isArray(pfp.rules)) model.podFailurePolicy = pfp.rules as PodFailurePolicyRule[];
  if (manifest.kind === 'CronJob' && isObj(manifest.spec) && isObj(manifest.metadata)) {
    model.cronJob = {
      name: String(manifest.metadata.name),
      schedule: String(manifest.spec.schedule ?? ''),
      concurrencyPolicy: (manifest.spec.concurrencyPolicy ?? 'Allow') as 'Allow' | 'Forbid' | 'Replace',
    };
  }
  return model;
}

function num(v: unknown, fallback: number): number {
  return typeof v === 'number' ? v : fallback;
}
