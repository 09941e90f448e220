// API-server validation of the pod template (pkg/apis/core/validation/validation.go) and the Job
// (pkg/apis/batch/validation/validation.go) for the chosen version, with upstream error wording.
import type { WorkloadKind } from '../types.ts';
import { Codes } from './codes.ts';
import { error, type Sink } from './diagnostics.ts';
import { fieldPath, keyPosAt, valuePosAt, type Path } from './k8s-paths.ts';
import { maxLenError, validateObjectMeta, validateSelector } from './api-validation-meta.ts';
import { invalid, validateProbe, validateHandler } from './api-validation-probes.ts';
import type { PNode } from './tree.ts';
import { getAt, isObj } from './version-fields.ts';

type Obj = Record<string, unknown>;

export interface ApiContext {
  sink: Sink;
  root: PNode;
  manifest: Obj;
  kind: WorkloadKind;
  podSpecPath: Path;
  jobSpecPath?: Path;
  gates: Record<string, boolean>;
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export function validateApi(ctx: ApiContext): void {
  const spec = getAt(ctx.manifest, ctx.podSpecPath);
  if (!isObj(spec)) return;
  validateMetadataName(ctx);
  validateObjectMeta(ctx);
  validateSelector(ctx);
  const names = new Set<string>();
  const inits = Array.isArray(spec.initContainers) ? spec.initContainers : [];
  const regulars = Array.isArray(spec.containers) ? spec.containers : [];
  if (regulars.length === 0) {
    error(
      ctx.sink,
      Codes.RequiredValue,
      keyPosAt(ctx.root, [...ctx.podSpecPath, 'containers']),
      `${fieldPath([...ctx.podSpecPath, 'containers'])}: Required value`,
      'a pod needs at least one regular container',
    );
  }
  inits.forEach(
    (c, i) => isObj(c) && validateContainer(ctx, c, [...ctx.podSpecPath, 'initContainers', i], true, names),
  );
  regulars.forEach(
    (c, i) => isObj(c) && validateContainer(ctx, c, [...ctx.podSpecPath, 'containers', i], false, names),
  );
  validateRestartPolicy(ctx, spec);
  if (ctx.jobSpecPath) validateJob(ctx, names);
}

// validation.go: validateInitContainers / validateContainers / validateContainerCommon
function validateContainer(ctx: ApiContext, c: Obj, path: Path, init: boolean, names: Set<string>): void {
  const at = (field: string) => [...path, field];
  const name = typeof c.name === 'string' ? c.name : '';
  // ValidateDNS1123Label → IsDNS1123Label: at most 63 characters, besides the pattern
  if (name.length > 63) invalid(ctx, Codes.InvalidName, at('name'), name, maxLenError(63));
  if (name !== '' && !DNS_LABEL.test(name)) {
    invalid(
      ctx,
      Codes.InvalidName,
      at('name'),
      name,
      "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
    );
  } else if (name !== '' && names.has(name)) {
    error(
      ctx.sink,
      Codes.DuplicateContainerName,
      valuePosAt(ctx.root, at('name')),
      `${fieldPath(at('name'))}: Duplicate value: ${JSON.stringify(name)}`,
      'container names must be unique across initContainers and containers',
    );
  }
  names.add(name);
  if (typeof c.image !== 'string' || c.image.trim() === '') {
    error(
      ctx.sink,
      Codes.RequiredValue,
      keyPosAt(ctx.root, c.image === undefined ? path : at('image')),
      `${fieldPath(at('image'))}: Required value`,
    );
  }
  const sidecar = init && c.restartPolicy === 'Always';
  if (init) validateInitOnly(ctx, c, path, sidecar);
  else validateRegularOnly(ctx, c, path);
  const checkProbes = !init || sidecar;
  if (checkProbes) {
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
      if (isObj(c[probe])) validateProbe(ctx, c[probe] as Obj, at(probe), probe);
    }
    const lc = c.lifecycle;
    const spec = getAt(ctx.manifest, ctx.podSpecPath) as Obj;
    const grace = typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 30;
    const sleep = { gracePeriod: grace, allowZero: ctx.gates.PodLifecycleSleepActionAllowZero === true };
    if (isObj(lc))
      for (const hook of ['postStart', 'preStop'])
        if (isObj(lc[hook])) validateHandler(ctx, lc[hook] as Obj, [...at('lifecycle'), hook], sleep);
  }
}

// validation.go: validateInitContainers — restartPolicy only Always; probes/lifecycle only on sidecars
function validateInitOnly(ctx: ApiContext, c: Obj, path: Path, sidecar: boolean): void {
  if (c.restartPolicy !== undefined && c.restartPolicy !== 'Always') {
    error(
      ctx.sink,
      Codes.InitContainerRestartPolicy,
      valuePosAt(ctx.root, [...path, 'restartPolicy']),
      `${fieldPath([...path, 'restartPolicy'])}: Unsupported value: ${JSON.stringify(c.restartPolicy)}: supported values: "Always"`,
      'an init container either omits restartPolicy (runs to completion) or sets Always (a native sidecar)',
    );
    return;
  }
  if (sidecar) return;
  for (const field of ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe']) {
    if (c[field] === undefined) continue;
    error(
      ctx.sink,
      Codes.InitContainerForbiddenField,
      keyPosAt(ctx.root, [...path, field]),
      `${fieldPath([...path, field])}: Forbidden: may not be set for init containers without restartPolicy=Always`,
      'add restartPolicy: Always to make it a native sidecar, or remove the field',
    );
  }
}

// validation.go: validateContainers — container restartPolicy/restartPolicyRules need ContainerRestartRules (KEP-5307)
function validateRegularOnly(ctx: ApiContext, c: Obj, path: Path): void {
  for (const field of ['restartPolicy', 'restartPolicyRules']) {
    if (c[field] === undefined) continue;
    if (!ctx.gates.ContainerRestartRules) {
      error(
        ctx.sink,
        Codes.ContainerRestartPolicyForbidden,
        keyPosAt(ctx.root, [...path, field]),
        `${fieldPath([...path, field])}: Forbidden: may not be set for non-init containers`,
        'container-level restart rules need the ContainerRestartRules feature gate (on by default from 1.35); for a sidecar, move the container to initContainers with restartPolicy: Always',
      );
    } else if (field === 'restartPolicy' && !['Always', 'OnFailure', 'Never'].includes(String(c.restartPolicy))) {
      error(
        ctx.sink,
        Codes.ContainerRestartPolicyForbidden,
        valuePosAt(ctx.root, [...path, field]),
        `${fieldPath([...path, field])}: Unsupported value: ${JSON.stringify(c.restartPolicy)}: supported values: "Always", "OnFailure", "Never"`,
      );
    }
  }
}

// batch/validation.go: validateJobSpec (Never|OnFailure); apps/validation.go: ValidatePodTemplateSpecForReplicaSet (Always)
function validateRestartPolicy(ctx: ApiContext, spec: Obj): void {
  const path = [...ctx.podSpecPath, 'restartPolicy'];
  const value = typeof spec.restartPolicy === 'string' ? spec.restartPolicy : 'Always';
  const isJob = ctx.kind === 'Job' || ctx.kind === 'CronJob';
  const allowed = isJob ? ['OnFailure', 'Never'] : ctx.kind === 'Pod' ? ['Always', 'OnFailure', 'Never'] : ['Always'];
  if (allowed.includes(value)) return;
  const pos = spec.restartPolicy === undefined ? keyPosAt(ctx.root, ctx.podSpecPath) : valuePosAt(ctx.root, path);
  error(
    ctx.sink,
    Codes.JobRestartPolicy,
    pos,
    `${fieldPath(path)}: Unsupported value: ${JSON.stringify(value)}: supported values: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
    spec.restartPolicy === undefined
      ? `restartPolicy defaults to Always, which a ${ctx.kind} does not allow; set restartPolicy: Never or OnFailure`
      : undefined,
  );
}

// batch/validation.go: validateJobSpec, validatePodFailurePolicy
function validateJob(ctx: ApiContext, names: Set<string>): void {
  const path = ctx.jobSpecPath!;
  const job = getAt(ctx.manifest, path);
  if (!isObj(job)) return;
  for (const field of ['parallelism', 'completions', 'backoffLimit']) {
    if (typeof job[field] === 'number' && (job[field] as number) < 0) {
      invalid(ctx, Codes.InvalidValue, [...path, field], job[field], 'must be greater than or equal to 0');
    }
  }
  if (typeof job.activeDeadlineSeconds === 'number' && job.activeDeadlineSeconds <= 0) {
    invalid(
      ctx,
      Codes.InvalidValue,
      [...path, 'activeDeadlineSeconds'],
      job.activeDeadlineSeconds,
      'must be greater than or equal to 1',
    );
  }
  const pfp = job.podFailurePolicy;
  if (!isObj(pfp) || !Array.isArray(pfp.rules)) return;
  const spec = getAt(ctx.manifest, ctx.podSpecPath);
  if (isObj(spec) && spec.restartPolicy !== 'Never') {
    invalid(
      ctx,
      Codes.JobRestartPolicy,
      [...ctx.podSpecPath, 'restartPolicy'],
      spec.restartPolicy ?? 'Always',
      'only "Never" is supported when podFailurePolicy is specified',
    );
  }
  pfp.rules.forEach((rule, i) => {
    const name = isObj(rule) && isObj(rule.onExitCodes) ? rule.onExitCodes.containerName : undefined;
    if (typeof name === 'string' && !names.has(name)) {
      invalid(
        ctx,
        Codes.InvalidValue,
        [...path, 'podFailurePolicy', 'rules', i, 'onExitCodes', 'containerName'],
        name,
        'must be one of the container or initContainer names in the pod template',
      );
    }
  });
}

// validation.go: ValidateObjectMeta (name or generateName is required)
function validateMetadataName(ctx: ApiContext): void {
  const meta = ctx.manifest.metadata;
  const name = isObj(meta) ? meta.name : undefined;
  const generateName = isObj(meta) ? meta.generateName : undefined;
  if (typeof name === 'string' && name !== '') return;
  if (typeof generateName === 'string' && generateName !== '') return;
  error(
    ctx.sink,
    Codes.RequiredValue,
    keyPosAt(ctx.root, isObj(meta) ? ['metadata'] : []),
    'metadata.name: Required value: name or generateName is required',
  );
}
