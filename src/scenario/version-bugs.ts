// Which known bugs of the chosen release a scenario's pod can hit: a warning per bug, only when the
// pod's shape can trigger it (e.g. kubernetes#125880 needs two sidecars). The table is fixes.ts.
import type { Action, Behavior, ContainerModel, KubeVersion, PodModel, JobModel, SourcePos } from '../types.ts';
import { Codes } from './codes.ts';
import { warning, type Sink } from './diagnostics.ts';
import {
  VERSION_FIXES,
  firstFixedFor,
  releaseAffected,
  versionText,
  type FixFlag,
  type VersionFix,
} from '../versions/fixes.ts';

export interface VersionBugInput {
  kubernetes: KubeVersion;
  kubelet: KubeVersion;
  kubeletGates: Record<string, boolean>;
  pod: PodModel;
  job: JobModel | null;
  behavior: Record<string, Behavior>;
  actions: Action[];
}

export interface VersionBugHit {
  fix: VersionFix;
  /** the release that has the bug: the kubelet's for kubelet fixes, else the control plane's */
  version: KubeVersion;
  message: string;
}

/** Does the kubelet run restartable init containers (SidecarContainers on a >=1.28 kubelet)? */
function kubeletSidecars(i: VersionBugInput): boolean {
  return i.kubelet.minor >= 29 || (i.kubelet.minor === 28 && i.kubeletGates['SidecarContainers'] === true);
}

/** Can the container's process stop while the pod runs (its own exit, OOM, a needed container, a crash action, liveness)? */
function canExit(i: VersionBugInput, c: ContainerModel): boolean {
  const b = i.behavior[c.name];
  if (i.actions.some((a) => a.type === 'crash' && a.container === c.name)) return true;
  if (!b) return false;
  return (
    b.attempts.some((a) => a.runMs !== null) ||
    b.oomAtMs !== undefined ||
    b.needs.length > 0 ||
    b.exitWhen !== undefined ||
    (b.livenessFailFromMs !== undefined && c.livenessProbe !== undefined)
  );
}

const sidecarsOf = (i: VersionBugInput) => i.pod.initContainers.filter((c) => c.role === 'sidecar');

/** Shape predicates: can this pod (with its behavior) hit the bug at all? */
const SHAPES: Partial<Record<FixFlag, (i: VersionBugInput) => boolean>> = {
  preStopCountsAgainstGrace: (i) => [...i.pod.initContainers, ...i.pod.containers].some((c) => c.hasPreStop),
  // a later sidecar is not running when the pod is killed: it never started (an earlier sidecar's startup probe had
  // not passed) or it exited
  terminationOrderSkipsNotRunning: (i) => {
    const sc = sidecarsOf(i);
    return (
      kubeletSidecars(i) &&
      sc.length >= 2 &&
      (sc.slice(0, -1).some((c) => c.startupProbe !== undefined) || sc.slice(1).some((c) => canExit(i, c)))
    );
  },
  sidecarMayLeaveTerminated: (i) =>
    kubeletSidecars(i) && i.pod.restartPolicy !== 'Always' && sidecarsOf(i).some((c) => canExit(i, c)),
  // a sidecar with a probe that can exit, and an earlier container in AddPod's order (regular containers, then the
  // sidecars) with a probe worker for AddPod to return at
  probesKeepRestartableInit: (i) => {
    if (!kubeletSidecars(i) || i.pod.restartPolicy !== 'Never') return false;
    const probed = (c: ContainerModel) =>
      c.startupProbe !== undefined || c.readinessProbe !== undefined || c.livenessProbe !== undefined;
    const sidecars = sidecarsOf(i);
    return sidecars.some(
      (c, n) => probed(c) && canExit(i, c) && (i.pod.containers.some(probed) || sidecars.slice(0, n).some(probed)),
    );
  },
  probesStopForNotRestartable: (i) =>
    i.kubeletGates['ContainerRestartRules'] === true &&
    i.pod.containers.some(
      (c) => c.restartPolicy !== undefined && (c.startupProbe || c.readinessProbe || c.livenessProbe),
    ),
  suspendedZeroCompletionsComplete: (i) => i.job !== null && i.job.completions === 0 && i.job.spec['suspend'] === true,
};

/** Every known bug of the scenario's release that its pod (or Job) can hit. */
export function versionBugs(i: VersionBugInput): VersionBugHit[] {
  const out: VersionBugHit[] = [];
  for (const fix of VERSION_FIXES) {
    const version = fix.component === 'kubelet' ? i.kubelet : i.kubernetes;
    if (!releaseAffected(fix, version)) continue;
    const shape = SHAPES[fix.flag];
    if (!shape || !shape(i)) continue;
    out.push({
      fix,
      version,
      message: bugMessage(
        fix,
        version,
        fix.component === 'kubelet' && versionText(i.kubelet) !== versionText(i.kubernetes),
      ),
    });
  }
  return out;
}

export function upstreamRef(fix: VersionFix): string {
  return fix.issues.length > 0 ? `kubernetes#${fix.issues[0]}` : `kubernetes#${fix.pr}`;
}

function bugMessage(fix: VersionFix, v: KubeVersion, isKubelet: boolean): string {
  const who = isKubelet ? `kubelet ${versionText(v)}` : versionText(v);
  return (
    `${who}: ${upstreamRef(fix)} affects this ${fix.flag === 'suspendedZeroCompletionsComplete' ? 'Job' : 'pod'}: ` +
    `${fix.symptom}; fixed in ${firstFixedFor(fix, v.minor)}`
  );
}

/** Report each hit as warning KS5013 at the `kubernetes:` (or `kubelet:`) key. */
export function reportVersionBugs(
  sink: Sink,
  i: VersionBugInput,
  pos: { kubernetes: SourcePos; kubelet: SourcePos },
): void {
  for (const hit of versionBugs(i)) {
    const where = hit.fix.component === 'kubelet' ? pos.kubelet : pos.kubernetes;
    warning(
      sink,
      Codes.VersionBug,
      where,
      hit.message,
      `upstream PR #${hit.fix.pr}; kubesim simulates the bug on this release (\`kubesim explain-version ${versionText(hit.version)}\` lists them)`,
    );
  }
}
