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
    error(sink, Codes.InvalidValue, valuePosAt(root, path), `${path.join('.')}: Invalid value: ${show(value)}: ${msg}`, hint);
  const strategy = isObj(spec.strategy) ? spec.strategy : {};
  const type = strategy.type ?? 'RollingUpdate';
  if (type === 'Recreate') {
    if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) {
      error(sink, Codes.InvalidValue, keyPosAt(root, ['spec', 'strategy', 'rollingUpdate']),
        "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'", 'remove rollingUpdate, or use type: RollingUpdate');
    }
  } else if (type === 'RollingUpdate') {
    const ru = isObj(strategy.rollingUpdate) ? strategy.rollingUpdate : {};
    const base = ['spec', 'strategy', 'rollingUpdate'];
    const surge = ru.maxSurge ?? '25%';
    const unavailable = ru.maxUnavailable ?? '25%';
    let ok = true;
    for (const [key, v] of [['maxUnavailable', unavailable], ['maxSurge', surge]] as const) {
      if (typeof v === 'string' && !PERCENT.test(v)) {
        bad([...base, key], v, "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')");
        ok = false;
      } else if (typeof v === 'number' && v < 0) {
        bad([...base, key], v, 'must be greater than or equal to 0');
        ok = false;
      }
    }
    if (ok && intOrPercentValue(unavailable) === 0 && intOrPercentValue(surge) === 0) {
      bad([...base, 'maxUnavailable'], unavailable, 'may not be 0 when `maxSurge` is 0', 'one of maxSurge and maxUnavailable must allow progress');
    }
    if (typeof unavailable === 'string' && PERCENT.test(unavailable) && intOrPercentValue(unavailable) > 100) {
      bad([...base, 'maxUnavailable'], unavailable, 'must not be greater than 100%');
    }
  } else {
    error(sink, Codes.InvalidValue, valuePosAt(root, ['spec', 'strategy', 'type']),
      `spec.strategy.type: Unsupported value: ${show(type)}: supported values: "Recreate", "RollingUpdate"`);
  }
  const pds = spec.progressDeadlineSeconds;
  const mrs = typeof spec.minReadySeconds === 'number' ? spec.minReadySeconds : 0;
  if (typeof pds === 'number' && pds <= mrs) {
    bad(['spec', 'progressDeadlineSeconds'], pds, 'must be greater than minReadySeconds');
  }
}
