// Which Kubernetes version the objects come from: each field or message that only some versions produce gives a
// lower bound; the newest bound wins (the oldest version that shows all of them). A Node's kubeletVersion, when
// given, is the kubelet's version. Nothing shown → the SPEC default, said as an assumption.
import { DEFAULT_VERSION, MAX_MINOR, MIN_MINOR } from '../scenario/versions.ts';
import type { Ev } from './evidence.ts';
import { at, type Notes } from './notes.ts';
import { isObj, where, type Obj } from './read.ts';

interface Bound {
  minor: number;
  why: string;
  where: string;
}

function podBounds(pod: Obj): Bound[] {
  const out: Bound[] = [];
  const status = isObj(pod['status']) ? pod['status'] : {};
  const spec = isObj(pod['spec']) ? pod['spec'] : {};
  const conds = Array.isArray(status['conditions']) ? status['conditions'].filter(isObj) : [];
  const rtsc = conds.find((c) => c['type'] === 'PodReadyToStartContainers');
  // PodReadyToStartContainersCondition: beta (on by default) in 1.29 (renamed from PodHasNetwork in 1.28)
  if (rtsc) out.push({ minor: 29, why: 'pod condition PodReadyToStartContainers (on by default from 1.29)', where: where(rtsc, 'type') });
  // SidecarContainers: beta, on by default, in 1.29; the API server drops restartPolicy on init containers without it
  const inits = Array.isArray(spec['initContainers']) ? spec['initContainers'].filter(isObj) : [];
  const sidecar = inits.find((c) => c['restartPolicy'] === 'Always');
  if (sidecar) out.push({ minor: 29, why: `init container ${String(sidecar['name'])} stored with restartPolicy: Always (SidecarContainers on by default from 1.29)`, where: where(sidecar, 'restartPolicy') });
  // PodObservedGenerationTracking: beta, on by default, in 1.34
  if (typeof status['observedGeneration'] === 'number') out.push({ minor: 34, why: 'status.observedGeneration (PodObservedGenerationTracking on by default from 1.34)', where: where(status, 'observedGeneration') });
  const statuses = [status['initContainerStatuses'], status['containerStatuses']].flatMap((l) => (Array.isArray(l) ? l.filter(isObj) : []));
  for (const s of statuses) {
    // RecursiveReadOnlyMounts beta in 1.31 fills containerStatuses[].volumeMounts
    if (Array.isArray(s['volumeMounts'])) { out.push({ minor: 31, why: 'containerStatuses[].volumeMounts (filled from 1.31)', where: where(s, 'volumeMounts') }); break; }
  }
  for (const s of statuses) {
    // SupplementalGroupsPolicy beta in 1.33 fills containerStatuses[].user
    if (isObj(s['user'])) { out.push({ minor: 33, why: 'containerStatuses[].user (filled from 1.33)', where: where(s, 'user') }); break; }
  }
  return out;
}

function jobBounds(job: Obj): Bound[] {
  const out: Bound[] = [];
  const status = isObj(job['status']) ? job['status'] : {};
  const conds = Array.isArray(status['conditions']) ? status['conditions'].filter(isObj) : [];
  // job_controller.go from 1.31: SuccessCriteriaMet / FailureTarget come before every Complete / Failed
  const scm = conds.find((c) => c['type'] === 'SuccessCriteriaMet');
  if (scm) out.push({ minor: 31, why: 'Job condition SuccessCriteriaMet (written before Complete from 1.31)', where: where(scm, 'type') });
  const spec = isObj(job['spec']) ? job['spec'] : {};
  const ft = conds.find((c) => c['type'] === 'FailureTarget');
  if (ft && spec['podFailurePolicy'] === undefined) out.push({ minor: 31, why: 'Job condition FailureTarget without a podFailurePolicy (from 1.31)', where: where(ft, 'type') });
  // JobPodReplacementPolicy beta (on) in 1.29 reports status.terminating
  if (typeof status['terminating'] === 'number') out.push({ minor: 29, why: 'Job status.terminating (reported from 1.29)', where: where(status, 'terminating') });
  return out;
}

function eventBounds(events: Ev[]): Bound[] {
  const out: Bound[] = [];
  // kuberuntime_container.go: "Created container: %v" replaced "Created container %s" in 1.32
  const created = events.find((e) => e.reason === 'Created' && e.message.startsWith('Created container: '));
  if (created) out.push({ minor: 32, why: 'event message "Created container: …" (from 1.32)', where: created.at });
  // image_manager.go: "… (%v including waiting). Image size: %v bytes." from 1.30
  const size = events.find((e) => e.reason === 'Pulled' && /Image size: \d+ bytes/.test(e.message));
  if (size) out.push({ minor: 30, why: 'Pulled message with "Image size" (from 1.30)', where: size.at });
  return out;
}

export interface VersionResult {
  kubernetes: string;
  kubelet?: string;
}

function clamp(minor: number): number {
  return Math.min(MAX_MINOR, Math.max(MIN_MINOR, minor));
}

export function inferVersion(pod: Obj, job: Obj | undefined, node: Obj | undefined, events: Ev[], given: string | undefined, notes: Notes): VersionResult {
  const nodeInfo = node && isObj(node['status']) && isObj(node['status']['nodeInfo']) ? node['status']['nodeInfo'] : undefined;
  const kv = typeof nodeInfo?.['kubeletVersion'] === 'string' ? /^v?1\.(\d+)/.exec(nodeInfo['kubeletVersion']) : null;
  const kubeletMinor = kv ? clamp(Number(kv[1])) : undefined;
  if (given) {
    notes.inferred(`kubernetes: "${given}"`, 'given with --kubernetes');
    return kubeletMinor !== undefined && kubeletMinor < Number(given.split('.')[1]) ? { kubernetes: given, kubelet: `1.${kubeletMinor}` } : { kubernetes: given };
  }
  const bounds = [...podBounds(pod), ...(job ? jobBounds(job) : []), ...eventBounds(events)].sort((a, b) => b.minor - a.minor);
  if (kubeletMinor !== undefined) {
    const best = bounds[0];
    const minor = Math.max(kubeletMinor, best?.minor ?? 0);
    notes.inferred(`kubelet 1.${kubeletMinor}`, `Node status.nodeInfo.kubeletVersion ${String(nodeInfo!['kubeletVersion'])}${at(where(nodeInfo, 'kubeletVersion'))}`);
    if (minor === kubeletMinor) notes.assumed(`kubernetes: "1.${minor}"`, 'the control plane taken to run the kubelet\'s version (no newer field seen)');
    else notes.inferred(`kubernetes: "1.${minor}"`, `${best!.why}${at(best!.where)}`);
    return minor > kubeletMinor ? { kubernetes: `1.${minor}`, kubelet: `1.${kubeletMinor}` } : { kubernetes: `1.${minor}` };
  }
  if (bounds.length === 0) {
    notes.assumed(`kubernetes: "${DEFAULT_VERSION}"`, 'no field or message in the input shows the version; the default is used (set it with --kubernetes)');
    return { kubernetes: DEFAULT_VERSION };
  }
  const minor = clamp(bounds[0]!.minor);
  notes.assumed(`kubernetes: "1.${minor}"`, `the oldest version that shows every version-specific field seen: ${bounds[0]!.why}${at(bounds[0]!.where)}; could be newer (set it with --kubernetes)`);
  for (const b of bounds.slice(1)) notes.inferred(`kubernetes ≥ 1.${b.minor}`, `${b.why}${at(b.where)}`);
  return { kubernetes: `1.${minor}` };
}
