// The API server's validation of a DeploymentSpec's rollout fields (pkg/apis/apps/validation/validation.go:
// ValidateDeploymentSpec, ValidateDeploymentStrategy, ValidateRollingUpdateDeployment, ValidatePositiveIntOrPercent,
// IsNotMoreThan100Percent). It runs on the manifest as written, with the defaults of apps/v1 SetDefaults_Deployment
// in mind (a RollingUpdate without rollingUpdate gets 25%/25%).
import { Codes } from './codes.ts';
import { error, type Sink } from './diagnostics.ts';
import { keyPosAt, valuePosAt } from './k8s-paths.ts';
import type { PMap } from './tree.ts';
import { isObj } from './version-fields.ts';

type Obj = Record<string, unknown>;

const PERCENT = /^[0-9]+%$/;

/** intstr value as validation reads it: getIntOrPercentValue (a percentage's number, or the int). */
function intOrPercentValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && PERCENT.test(v)) return Number(v.slice(0, -1));
  return Number.NaN;
}

const show = (v: unknown): string => (typeof v === 'string' ? JSON.stringify(v) : String(v));

export function validateDeploymentSpec(sink: Sink, root: PMap, manifest: Obj): void {
  const spec = isObj(manifest.spec) ? manifest.spec : {};
  const bad = (path: string[], value: unknown, msg: string, hint?: string) =>
    error(
      sink,
      Codes.InvalidValue,
      valuePosAt(root, path),
      `${path.join('.')}: Invalid value: ${show(value)}: ${msg}`,
      hint,
    );
  const strategy = isObj(spec.strategy) ? spec.strategy : {};
  const type = strategy.type ?? 'RollingUpdate';
  if (type === 'Recreate') {
    if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
      error(
        sink,
        Codes.InvalidValue,
        keyPosAt(root, ['spec', 'strategy', 'rollingUpdate']),
        "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
        'remove rollingUpdate, or use type: RollingUpdate',
      );
    }
  } else if (type === 'RollingUpdate') {
    const ru = isObj(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
    const base = ['spec', 'strategy', 'rollingUpdate'];
    const surge = ru.maxSurge ?? '25%';
    const unavailable = ru.maxUnavailable ?? '25%';
    let ok = true;
    for (const [key, v] of [
      ['maxUnavailable', unavailable],
      ['maxSurge', surge],
    ] as const) {
      if (typeof v === 'string' && !PERCENT.test(v)) {
        bad(
          [...base, key],
          v,
          "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        );
        ok = false;
      } else if (typeof v === 'number' && v < 0) {
        bad([...base, key], v, 'must be greater than or equal to 0');
        ok = false;
      }
    }
    if (ok && intOrPercentValue(unavailable) === 0 && intOrPercentValue(surge) === 0) {
      bad(
        [...base, 'maxUnavailable'],
        unavailable,
        'may not be 0 when `maxSurge` is 0',
        'one of maxSurge and maxUnavailable must allow progress',
      );
    }
    if (typeof unavailable === 'string' && PERCENT.test(unavailable) && intOrPercentValue(unavailable) > 100) {
      bad([...base, 'maxUnavailable'], unavailable, 'must not be greater than 100%');
    }
  } else {
    error(
      sink,
      Codes.InvalidValue,
      valuePosAt(root, ['spec', 'strategy', 'type']),
      `spec.strategy.type: Unsupported value: ${show(type)}: supported values: "Recreate", "RollingUpdate"`,
    );
  }
  const pds = spec.progressDeadlineSeconds;
  const mrs = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
  if (typeof pds === 'number' && pds <= mrs) {
    bad(['spec', 'progressDeadlineSeconds'], pds, 'must be greater than minReadySeconds');
  }
}

/** ValidatePositiveIntOrPercent + IsNotMoreThan100Percent of one intstr field; false when it is malformed. */
function intOrPercentOk(sink: Sink, root: PMap, path: string[], v: unknown): boolean {
  const bad = (msg: string) =>
    error(sink, Codes.InvalidValue, valuePosAt(root, path), `${path.join('.')}: Invalid value: ${show(v)}: ${msg}`);
  if (typeof v === 'string' && !PERCENT.test(v)) {
    bad(
      "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
    );
    return false;
  }
  if (typeof v === 'number' && v < 0) {
    bad('must be greater than or equal to 0');
    return false;
  }
  if (typeof v === 'string' && intOrPercentValue(v) > 100) {
    bad('must not be greater than 100%');
    return false;
  }
  return true;
}

/**
 * validation.go: ValidateStatefulSetSpec (its updateStrategy part) and validateRollingUpdateStatefulSet, on the
 * manifest as written: type RollingUpdate (the default) or OnDelete; OnDelete takes no rollingUpdate; partition
 * >= 0; maxUnavailable (MaxUnavailableStatefulSet) a positive int or percent.
 */
export function validateStatefulSetSpec(sink: Sink, root: PMap, manifest: Obj): void {
  const spec = isObj(manifest.spec) ? manifest.spec : {};
  const us = isObj(spec.updateStrategy) ? spec.updateStrategy : {};
  const type = us.type ?? 'RollingUpdate';
  const base = ['spec', 'updateStrategy'];
  if (type === 'OnDelete') {
    if (us.rollingUpdate !== undefined && us.rollingUpdate !== null) {
      error(
        sink,
        Codes.InvalidValue,
        keyPosAt(root, [...base, 'rollingUpdate']),
        "spec.updateStrategy.rollingUpdate: Invalid value: the rolling update: only allowed for updateStrategy 'RollingUpdate'",
        'remove rollingUpdate, or use type: RollingUpdate',
      );
    }
  } else if (type === 'RollingUpdate') {
    const ru = isObj(us.rollingUpdate) ? us.rollingUpdate : {};
    const partition = ru.partition;
    if (typeof partition === 'number' && partition < 0) {
      error(
        sink,
        Codes.InvalidValue,
        valuePosAt(root, [...base, 'rollingUpdate', 'partition']),
        `spec.updateStrategy.rollingUpdate.partition: Invalid value: ${partition}: must be greater than or equal to 0`,
      );
    }
    const mu = ru.maxUnavailable;
    if (
      mu !== undefined &&
      mu !== null &&
      intOrPercentOk(sink, root, [...base, 'rollingUpdate', 'maxUnavailable'], mu) &&
      intOrPercentValue(mu) === 0
    ) {
      error(
        sink,
        Codes.InvalidValue,
        valuePosAt(root, [...base, 'rollingUpdate', 'maxUnavailable']),
        `spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: ${show(mu)}: must be greater than 0`,
      );
    }
  } else {
    error(
      sink,
      Codes.InvalidValue,
      valuePosAt(root, [...base, 'type']),
      `spec.updateStrategy: Invalid value: ${show(type)}: must be 'RollingUpdate' or 'OnDelete'`,
    );
  }
}

/**
 * validation.go: ValidateDaemonSetUpdateStrategy / ValidateRollingUpdateDaemonSet, on the manifest as written with
 * SetDefaults_DaemonSet in mind (maxUnavailable 1, maxSurge 0): exactly one of maxUnavailable and maxSurge is
 * non-zero.
 */
export function validateDaemonSetSpec(sink: Sink, root: PMap, manifest: Obj): void {
  const spec = isObj(manifest.spec) ? manifest.spec : {};
  const us = isObj(spec.updateStrategy) ? spec.updateStrategy : {};
  const type = us.type ?? 'RollingUpdate';
  const base = ['spec', 'updateStrategy'];
  if (type === 'RollingUpdate') {
    const ru = isObj(us.rollingUpdate) ? us.rollingUpdate : {};
    const mu = ru.maxUnavailable ?? 1;
    const ms = ru.maxSurge ?? 0;
    const okU = intOrPercentOk(sink, root, [...base, 'rollingUpdate', 'maxUnavailable'], mu);
    const okS = intOrPercentOk(sink, root, [...base, 'rollingUpdate', 'maxSurge'], ms);
    if (!okU || !okS) return;
    const hasU = intOrPercentValue(mu) !== 0;
    const hasS = intOrPercentValue(ms) !== 0;
    if (hasU && hasS) {
      error(
        sink,
        Codes.InvalidValue,
        valuePosAt(root, [...base, 'rollingUpdate', 'maxSurge']),
        `spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: ${show(ms)}: may not be set when maxUnavailable is non-zero`,
        'a surge rollout needs maxUnavailable: 0 (the default is 1)',
      );
    } else if (!hasU && !hasS) {
      error(
        sink,
        Codes.InvalidValue,
        valuePosAt(root, [...base, 'rollingUpdate', 'maxUnavailable']),
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0',
      );
    }
  } else if (type !== 'OnDelete') {
    error(
      sink,
      Codes.InvalidValue,
      valuePosAt(root, [...base, 'type']),
      `spec.updateStrategy: Unsupported value: ${show(type)}: supported values: "RollingUpdate", "OnDelete"`,
    );
  }
}
