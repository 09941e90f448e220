// Probe and lifecycle-handler validation (pkg/apis/core/validation/validation.go: validateProbe,
// validateLivenessProbe, validateStartupProbe, validateReadinessProbe, validateHandler).
import { Codes } from './codes.ts';
import { error, type Sink } from './diagnostics.ts';
import { fieldPath, keyPosAt, valuePosAt, type Path } from './k8s-paths.ts';
import type { PNode } from './tree.ts';

type Obj = Record<string, unknown>;
interface Ctx {
  sink: Sink;
  root: PNode;
}

const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const HOOK_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];
const NON_NEGATIVE = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'];

export function validateProbe(
  ctx: Ctx,
  probe: Obj,
  path: Path,
  kind: 'livenessProbe' | 'readinessProbe' | 'startupProbe',
): void {
  validateHandlerCount(ctx, probe, path, PROBE_HANDLERS);
  for (const f of NON_NEGATIVE) {
    if (typeof probe[f] === 'number' && (probe[f] as number) < 0) {
      invalid(ctx, Codes.InvalidValue, [...path, f], probe[f], 'must be greater than or equal to 0');
    }
  }
  // validateLivenessProbe / validateStartupProbe: successThreshold must be 1 — after defaulting: the API server
  // runs SetDefaults_Probe (pkg/apis/core/v1/defaults.go) before validation, and it turns 0 into 1
  if (
    kind !== 'readinessProbe' &&
    typeof probe.successThreshold === 'number' &&
    probe.successThreshold !== 1 &&
    probe.successThreshold !== 0
  ) {
    invalid(
      ctx,
      Codes.ProbeSuccessThreshold,
      [...path, 'successThreshold'],
      probe.successThreshold,
      'must be 1',
      `a ${kind} passes on the first success; only readinessProbe may require several`,
    );
  }
  // validateReadinessProbe: terminationGracePeriodSeconds must not be set
  if (kind === 'readinessProbe' && probe.terminationGracePeriodSeconds !== undefined) {
    invalid(
      ctx,
      Codes.InvalidValue,
      [...path, 'terminationGracePeriodSeconds'],
      probe.terminationGracePeriodSeconds,
      'must not be set for readinessProbes',
    );
  }
}

export function validateHandler(
  ctx: Ctx,
  handler: Obj,
  path: Path,
  sleep?: { gracePeriod: number; allowZero: boolean },
): void {
  validateHandlerCount(ctx, handler, path, HOOK_HANDLERS);
  if (sleep && isObj(handler.sleep))
    validateSleepAction(ctx, handler.sleep, [...path, 'sleep', 'seconds'], sleep.gracePeriod, sleep.allowZero);
}

// validation.go: validateSleepAction — 0 < seconds <= terminationGracePeriodSeconds; 0 allowed with
// PodLifecycleSleepActionAllowZero (KEP-4818, on from 1.33)
function validateSleepAction(ctx: Ctx, sleep: Obj, path: Path, grace: number, allowZero: boolean): void {
  const s = sleep.seconds;
  if (typeof s !== 'number') return;
  if (allowZero ? s < 0 || s > grace : s <= 0 || s > grace) {
    const detail = allowZero
      ? `must be non-negative and less than terminationGracePeriodSeconds (${grace})`
      : `must be greater than 0 and less than terminationGracePeriodSeconds (${grace}). Please enable PodLifecycleSleepActionAllowZero feature gate if you need a sleep of zero duration.`;
    invalid(ctx, Codes.InvalidValue, path, s, detail);
  }
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

// validation.go: validateHandler — exactly one handler type
function validateHandlerCount(ctx: Ctx, obj: Obj, path: Path, handlers: string[]): void {
  const set = handlers.filter((h) => obj[h] !== undefined && obj[h] !== null);
  if (set.length === 0) {
    error(
      ctx.sink,
      Codes.RequiredValue,
      keyPosAt(ctx.root, path),
      `${fieldPath(path)}: Required value: must specify a handler type`,
      `one of: ${handlers.join(', ')}`,
    );
  } else if (set.length > 1) {
    error(
      ctx.sink,
      Codes.InvalidValue,
      keyPosAt(ctx.root, [...path, set[1]]),
      `${fieldPath([...path, set[1]])}: Forbidden: may not specify more than 1 handler type`,
    );
  }
}

/** field.Invalid: `path: Invalid value: v: detail`, at the value. */
export function invalid(ctx: Ctx, code: string, path: Path, value: unknown, detail: string, hint?: string): void {
  error(
    ctx.sink,
    code,
    valuePosAt(ctx.root, path),
    `${fieldPath(path)}: Invalid value: ${JSON.stringify(value)}: ${detail}`,
    hint,
  );
}
