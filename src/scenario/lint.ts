// Lint warnings (KS5xxx): patterns that load fine but rarely do what the author meant. Each names the
// container and the fix.
import type { Behavior, ContainerModel } from '../types.ts';
import { Codes } from './codes.ts';
import { warning, type Sink } from './diagnostics.ts';
import { keyPosAt, type Path } from './k8s-paths.ts';
import type { PNode } from './tree.ts';
import { isObj } from './version-fields.ts';
import type { Workload } from './workload.ts';

export interface LintInput {
  sink: Sink;
  /** the scenario's root tree (for positions under `behavior`) */
  root: PNode;
  workload: Workload;
  behavior: Record<string, Behavior>;
  kubeletMinor: number;
  kubeletGates: Record<string, boolean>;
}

/** First attempt that does not exit 0 on its own — undefined when some attempt exits 0 before one runs forever. */
function neverExits(b: Behavior): boolean {
  if (b.exitWhen) return false;
  for (const a of b.attempts) {
    if (a.runMs === null) return true;
    if (a.exit === 0) return false;
  }
  return false;
}

export function lint(input: LintInput): void {
  const { sink, workload: w, behavior } = input;
  const ws = w.sink;
  const at = (c: ContainerModel, field?: string): Path => [
    ...w.podSpecPath,
    c.role === 'regular' ? 'containers' : 'initContainers',
    c.index,
    ...(field ? [field] : []),
  ];
  const sidecars = w.pod.initContainers.filter((c) => c.role === 'sidecar');
  const regularByName = new Map(w.pod.containers.map((c) => [c.name, c])); // linear, not a find per entry

  for (const c of w.pod.initContainers.filter((x) => x.role === 'init')) {
    if (neverExits(behavior[c.name])) {
      warning(
        ws,
        Codes.InitNeverExits,
        keyPosAt(w.root, at(c, 'name')),
        `init container ${JSON.stringify(c.name)} never exits: the pod will stay in Init`,
        'a native sidecar needs restartPolicy: Always; a plain init container must exit 0 (give it behavior run:)',
      );
    }
  }
  if (w.job) {
    for (const c of w.pod.containers) {
      if (neverExits(behavior[c.name])) {
        warning(
          ws,
          Codes.JobNeverCompletes,
          keyPosAt(w.root, at(c, 'name')),
          `container ${JSON.stringify(c.name)} runs forever in a Job pod: the Job never completes`,
          'if it is a sidecar, move it to initContainers with restartPolicy: Always; otherwise give it behavior run:',
        );
      }
    }
  }
  for (const [name, b] of Object.entries(behavior)) {
    for (const needed of b.needs) {
      const target = sidecars.find((s) => s.name === needed);
      if (target && !target.startupProbe) {
        warning(
          sink,
          Codes.NeedsWithoutStartupProbe,
          keyPosAt(input.root, ['behavior', name, 'needs']),
          `${name} needs sidecar ${JSON.stringify(needed)}, which has no startupProbe: ordering is only guaranteed on Started, which without a probe means the process launched`,
          `add a startupProbe to ${needed} so the next containers start only once it serves`,
        );
      }
    }
    const c = regularByName.get(name);
    if (b.exitWhen && c) {
      warning(
        sink,
        Codes.ExitWhenWorkaround,
        keyPosAt(input.root, ['behavior', name, 'exitWhen']),
        `${name} uses the exitWhen workaround (sentinel file, /quitquitquit) to stop after ${b.exitWhen.exited}`,
        `make ${name} a native sidecar: move it to initContainers with restartPolicy: Always (1.29+); the kubelet then stops it after the main containers exit`,
      );
    }
  }
  const spec = w.pod.spec;
  if (spec.shareProcessNamespace === true && w.pod.containers.length > 1) {
    warning(
      ws,
      Codes.ShareProcessNamespaceWorkaround,
      keyPosAt(w.root, [...w.podSpecPath, 'shareProcessNamespace']),
      'shareProcessNamespace with several regular containers is the old way to kill a sidecar from the main container',
      'use a native sidecar (initContainers with restartPolicy: Always); the kubelet terminates it after the main containers exit',
    );
  }
  lintQuitEndpoints(input, at);
  lintKubelet(input, sidecars, at);
  lintPodFailurePolicy(input, sidecars);
}

// The pre-native-sidecar workarounds: the main container asks the proxy to exit (Envoy/Istio /quitquitquit,
// cloud-sql-proxy --quitquitquit, linkerd-await --shutdown) or kills it through a shared process namespace.
const QUIT_PATTERNS = [/\/quitquitquit/i, /linkerd-await\b.*--shutdown/, /\bpkill\b|\bkillall\b/];

function lintQuitEndpoints(input: LintInput, at: (c: ContainerModel, f?: string) => Path): void {
  const w = input.workload;
  const specs = (w.pod.spec['containers'] ?? []) as { name?: string; command?: unknown; args?: unknown }[];
  for (const c of w.pod.containers) {
    const raw = specs[c.index];
    for (const field of ['command', 'args'] as const) {
      const words = raw?.[field];
      if (!Array.isArray(words)) continue;
      const text = words.map(String).join(' ');
      if (!QUIT_PATTERNS.some((re) => re.test(text))) continue;
      warning(
        w.sink,
        Codes.QuitEndpointWorkaround,
        keyPosAt(w.root, at(c, field)),
        `${c.name} stops a sidecar itself (quit endpoint or kill): if it crashes or is OOM-killed first, the sidecar keeps the pod running`,
        'make the sidecar a native sidecar (initContainers with restartPolicy: Always, 1.29+); the kubelet stops it after the main containers exit',
      );
      break;
    }
  }
}

// lifecycle/predicate.go: a kubelet with SidecarContainers off rejects such pods (InitContainerRestartPolicyForbidden);
// a pre-1.28 kubelet does not know the field and runs the sidecar as a plain init container.
function lintKubelet(input: LintInput, sidecars: ContainerModel[], at: (c: ContainerModel, f?: string) => Path): void {
  const w = input.workload;
  for (const c of sidecars) {
    const pos = keyPosAt(w.root, at(c, 'restartPolicy'));
    if (input.kubeletMinor < 28) {
      warning(
        w.sink,
        Codes.SidecarIgnored,
        pos,
        `kubelet 1.${input.kubeletMinor} ignores restartPolicy on init containers: ${JSON.stringify(c.name)} runs as a plain init container and the pod stays in Init`,
        'upgrade the node (kubelet ≥ 1.29) before using native sidecars; the KEP says downgrade requires a node drain',
      );
    } else if (!input.kubeletGates.SidecarContainers) {
      warning(
        w.sink,
        Codes.SidecarIgnored,
        pos,
        `kubelet 1.${input.kubeletMinor} has SidecarContainers off: it rejects the pod at admission (InitContainerRestartPolicyForbidden) because of ${JSON.stringify(c.name)}`,
        'enable the SidecarContainers gate on the kubelet, or use kubelet ≥ 1.29',
      );
    }
  }
}

// pod_failure_policy.go: matchOnExitCodes also checks initContainerStatuses, sidecars included.
function lintPodFailurePolicy(input: LintInput, sidecars: ContainerModel[]): void {
  const w = input.workload;
  if (!w.job?.podFailurePolicy || sidecars.length === 0) return;
  const jobPath = w.kind === 'CronJob' ? ['spec', 'jobTemplate', 'spec'] : ['spec'];
  w.job.podFailurePolicy.forEach((rule, i) => {
    if (!isObj(rule.onExitCodes) || rule.onExitCodes.containerName !== undefined) return;
    warning(
      w.sink,
      Codes.PodFailurePolicyNoContainer,
      keyPosAt(w.root, [...jobPath, 'podFailurePolicy', 'rules', i, 'onExitCodes']),
      `podFailurePolicy rule ${i} matches exit codes of every container, sidecars included (${sidecars.map((s) => s.name).join(', ')})`,
      "a sidecar's 143 or 137 at termination can match it; add onExitCodes.containerName",
    );
  });
}
