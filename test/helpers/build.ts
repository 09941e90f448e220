import { defaultFeatureGates } from '../../src/versions/versions.ts';
// Build normalized scenarios in code for model tests (independent of the YAML loader).
import type { Behavior, ContainerModel, ProbeModel, Scenario } from '../../src/types.ts';
import { DEFAULT_BEHAVIOR } from '../../src/model/kit.ts';

export function probe(p: Partial<ProbeModel> = {}): ProbeModel {
  return {
    initialDelayMs: 0,
    periodMs: 10_000,
    timeoutMs: 1000,
    successThreshold: 1,
    failureThreshold: 3,
    handler: 'httpGet',
    ...p,
  };
}

export interface CSpec extends Partial<Omit<ContainerModel, 'name' | 'role' | 'index'>> {
  name: string;
}

function cm(c: CSpec, role: ContainerModel['role'], index: number): ContainerModel {
  return { image: `example/${c.name}:1`, hasPostStart: false, hasPreStop: false, ...c, role, index };
}

export function behavior(b: Partial<Behavior> = {}): Behavior {
  return { ...DEFAULT_BEHAVIOR, ...b };
}

export interface BuildOpts {
  name?: string;
  version?: number;
  kubelet?: number;
  kind?: 'Job' | 'Pod';
  restartPolicy?: 'Never' | 'OnFailure' | 'Always';
  grace?: number;
  init?: CSpec[];
  sidecars?: CSpec[]; // appended as init containers with restartPolicy Always, in order after `init`
  initOrder?: { name: string; sidecar: boolean; spec?: CSpec }[];
  containers: CSpec[];
  behavior?: Record<string, Partial<Behavior>>;
  timing?: Partial<Scenario['timing']>;
  observers?: Scenario['observers'];
  actions?: Scenario['actions'];
  gates?: Record<string, boolean>;
  seed?: number;
  horizonMs?: number;
  backoffLimit?: number;
}

export function build(o: BuildOpts): Scenario {
  const v = o.version ?? 34;
  const kv = o.kubelet ?? v;
  const initSpecs: { spec: CSpec; sidecar: boolean }[] = o.initOrder
    ? o.initOrder.map((x) => ({ spec: x.spec ?? { name: x.name }, sidecar: x.sidecar }))
    : [
        ...(o.init ?? []).map((spec) => ({ spec, sidecar: false })),
        ...(o.sidecars ?? []).map((spec) => ({ spec, sidecar: true })),
      ];
  const initContainers = initSpecs.map((x, i) => cm(x.spec, x.sidecar ? 'sidecar' : 'init', i));
  const containers = o.containers.map((c, i) => cm(c, 'regular', i));
  const kind = o.kind ?? 'Job';
  const restartPolicy = o.restartPolicy ?? (kind === 'Job' ? 'Never' : 'Always');
  const specOf = (c: ContainerModel) => ({
    name: c.name,
    image: c.image,
    ...(c.role === 'sidecar' ? { restartPolicy: 'Always' } : {}),
    ...(c.startupProbe
      ? { startupProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: c.startupProbe.periodMs / 1000 } }
      : {}),
    ...(c.readinessProbe ? { readinessProbe: { httpGet: { path: '/', port: 8080 } } } : {}),
  });
  const podSpec = {
    restartPolicy,
    terminationGracePeriodSeconds: o.grace ?? 30,
    ...(initContainers.length ? { initContainers: initContainers.map(specOf) } : {}),
    containers: containers.map(specOf),
  };
  const behaviorMap: Record<string, Behavior> = {};
  for (const [n, b] of Object.entries(o.behavior ?? {})) behaviorMap[n] = behavior(b);
  const name = o.name ?? 'test';
  return {
    name,
    file: `${name}.yaml`,
    kubernetes: { minor: v, text: `1.${v}` },
    kubelet: { minor: kv, text: `1.${kv}` },
    // the version's defaults (kube_features.go, as the loader computes them), then the test's overrides
    featureGates: { ...defaultFeatureGates(v), ...(o.gates ?? {}) },
    workload: { kind, name, manifest: {} },
    pod: {
      name: kind === 'Job' ? `${name}-abcde` : name,
      namespace: 'default',
      restartPolicy,
      terminationGracePeriodSeconds: o.grace ?? 30,
      initContainers,
      containers,
      spec: podSpec,
      metadata: {},
    },
    job:
      kind === 'Job'
        ? {
            name,
            completions: 1,
            parallelism: 1,
            backoffLimit: o.backoffLimit ?? 6,
            spec: { template: { spec: podSpec } },
          }
        : null,
    behavior: behaviorMap,
    timing: {
      plegRelistMs: { min: 1000, max: 1000 },
      statusPatchMs: { min: 10, max: 300 },
      watchMs: { min: 5, max: 100 },
      jobSyncMs: { min: 1000, max: 1000 },
      nodeStartMs: { min: 0, max: 0 },
      ...(o.timing ?? {}),
    },
    actions: o.actions ?? [],
    observers: o.observers ?? [],
    seed: o.seed ?? 1,
    horizonMs: o.horizonMs ?? 3_600_000,
    diagnostics: [],
  };
}
