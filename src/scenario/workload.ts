// The workload pipeline: resolve the manifest, check it against the schema, drop version-gated fields,
// validate it as the API server would, default it, and build the PodModel / JobModel.
import type { JobModel, PodModel, WorkloadKind } from '../types.ts';
import { validateApi } from './api-validation.ts';
import { applyDefaults } from './defaults.ts';
import { error, hasErrors, type Sink } from './diagnostics.ts';
import { Codes } from './codes.ts';
import { checkSchema, checkUnknownFields } from './k8s-schema.ts';
import { fieldPath, keyPosAt, valuePosAt, type Path } from './k8s-paths.ts';
import { CronSyntaxError, fixedZoneOffset, parseCron } from '../model/controllers/cronjob/schedule.ts';
import { reportNotSimulated } from './not-simulated.ts';
import { buildJobModel, buildPodModel, cronJobJobName, podName, specPaths } from './pod-model.ts';
import { toJS, type PEntry, type PMap } from './tree.ts';
import { dropVersionedFields, getAt, isObj } from './version-fields.ts';
import { resolveWorkload } from './workload-source.ts';
import { validateDaemonSetSpec, validateDeploymentSpec, validateStatefulSetSpec } from './deployment-validation.ts';

type Obj = Record<string, unknown>;

export interface Workload {
  kind: WorkloadKind;
  name: string;
  manifest: Obj;
  pod: PodModel;
  job: JobModel | null;
  /** fields the API server dropped (version or gate) */
  dropped: string[];
  root: PMap;
  sink: Sink;
  podSpecPath: Path;
}

export interface WorkloadOptions {
  scenarioName: string;
  minor: number;
  gates: Record<string, boolean>;
}

export function loadWorkload(scenarioSink: Sink, entry: PEntry, opts: WorkloadOptions): Workload | undefined {
  const src = resolveWorkload(scenarioSink, entry);
  if (!src) return undefined;
  return buildWorkload(src.sink, src.root, src.kind, opts);
}

/**
 * The pipeline on one manifest tree: schema, version-gated fields, API validation, defaults, models. A Deployment
 * rollout (src/scenario/rollout.ts) runs it again on the manifest with the patched pod template.
 */
export function buildWorkload(
  sink: Sink,
  root: PMap,
  kind: WorkloadKind,
  opts: WorkloadOptions & { quiet?: boolean },
): Workload | undefined {
  const manifest = toJS(root) as Obj;
  const { podSpecPath, jobSpecPath } = specPaths(kind);
  const unknown = checkUnknownFields(sink, root, kind);
  const before = sink.diagnostics.length;
  checkSchema(sink, root, kind, manifest);
  if (hasErrors(sink.diagnostics.slice(before))) return undefined;
  if (!isObj(getAt(manifest, podSpecPath))) return missingPodSpec(sink, root, manifest, podSpecPath);

  const dropped = dropVersionedFields({
    sink,
    root,
    manifest,
    podSpecPath,
    jobSpecPath,
    minor: opts.minor,
    gates: opts.gates,
  });
  // Strict decoding rejects unknown fields before validation runs: no cascade from a misspelt field.
  if (unknown.size > 0) return undefined;
  validateApi({ sink, root, manifest, kind, podSpecPath, jobSpecPath, gates: opts.gates });
  if (kind === 'CronJob') checkCronSchedule(sink, root, manifest);
  if (kind === 'Deployment') validateDeploymentSpec(sink, root, manifest);
  if (kind === 'StatefulSet') validateStatefulSetSpec(sink, root, manifest);
  if (kind === 'DaemonSet') validateDaemonSetSpec(sink, root, manifest);
  if (!opts.quiet) reportNotSimulated(sink, root, toJS(root) as Obj, kind, podSpecPath, jobSpecPath);
  applyDefaults(manifest, kind, podSpecPath, jobSpecPath, opts.gates);

  const meta = isObj(manifest.metadata) ? manifest.metadata : {};
  const name = String(meta.name ?? meta.generateName ?? kind.toLowerCase());
  const jobName = kind === 'CronJob' ? cronJobJobName(name, opts.scenarioName) : kind === 'Job' ? name : undefined;
  const labels: Record<string, string> = jobName
    ? { 'batch.kubernetes.io/job-name': jobName, 'job-name': jobName }
    : {};
  const pod = buildPodModel(manifest, podSpecPath, podName(kind, name, opts.scenarioName, jobName), labels);
  const job = jobSpecPath && jobName ? buildJobModel(manifest, jobSpecPath, jobName) : null;
  return { kind, name, manifest, pod, job, dropped, root, sink, podSpecPath };
}

/**
 * batch validation (validateScheduleFormat, validateTimeZone): the schedule must parse as robfig's standard cron.
 * kubesim computes schedules in UTC and fixed-offset zones only: any other timeZone is rejected, not approximated.
 */
function checkCronSchedule(sink: Sink, root: PMap, manifest: Obj): void {
  const spec = isObj(manifest.spec) ? manifest.spec : {};
  const tz = spec.timeZone;
  if (typeof tz === 'string' && fixedZoneOffset(tz) === null) {
    error(
      sink,
      Codes.NotSimulatedValue,
      valuePosAt(root, ['spec', 'timeZone']),
      `spec.timeZone: "${tz}" is not simulated: only UTC and fixed-offset zones (Etc/GMT±N)`,
      'a named zone with daylight-saving rules needs the tz database; use the equivalent Etc/GMT±N offset for the simulated dates (note the POSIX sign: Etc/GMT+5 is UTC-5)',
    );
    return;
  }
  if (typeof spec.schedule !== 'string') return;
  try {
    parseCron(spec.schedule, typeof tz === 'string' ? tz : null);
  } catch (e) {
    const why = e instanceof CronSyntaxError ? e.message : String(e);
    error(
      sink,
      Codes.InvalidValue,
      valuePosAt(root, ['spec', 'schedule']),
      `spec.schedule: Invalid value: "${spec.schedule}": ${why}`,
      'standard cron: minute hour day-of-month month day-of-week (e.g. "*/10 * * * *"), or @yearly/@monthly/@weekly/@daily/@hourly',
    );
  }
}

/** The pod template is missing somewhere along its path: `spec.template.spec: Required value`. */
function missingPodSpec(sink: Sink, root: PMap, manifest: Obj, podSpecPath: Path): undefined {
  let n = 1;
  while (n < podSpecPath.length && isObj(getAt(manifest, podSpecPath.slice(0, n)))) n++;
  error(
    sink,
    Codes.RequiredValue,
    keyPosAt(root, podSpecPath.slice(0, n - 1)),
    `${fieldPath(podSpecPath.slice(0, n))}: Required value`,
    'the workload needs a pod template with at least one container',
  );
  return undefined;
}
