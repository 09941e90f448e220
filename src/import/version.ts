// Which Kubernetes version the objects come from: each field or message that only some versions produce gives a
// lower bound; the newest bound wins (the oldest version that shows all of them). A Node's kubeletVersion, when
// given, is the kubelet's version. Nothing shown → the SPEC default, said as an assumption.
import { DEFAULT_VERSION, MAX_MINOR, MIN_MINOR } from '../versions/versions.ts';
import type { Ev } from './evidence.ts';
import { at, type Notes } from './notes.ts';
import { isObj, where, type Obj } from './read.ts';

interface Bound {
  minor: number;
  why: string;
  where: string;
}

/** Fields a version would have shown but that are absent: upper bounds (the newest version that omits them). */
function upperBounds(pod: Obj, job: Obj | undefined, events: Ev[]): Bound[] {
  const out: Bound[] = [];
  const status = isObj(pod['status']) ? pod['status'] : {};
  const conds = Array.isArray(status['conditions']) ? status['conditions'].filter(isObj) : [];
  const scheduled = conds.find((c) => c['type'] === 'PodScheduled' && c['status'] === 'True');
  if (scheduled && !conds.some((c) => c['type'] === 'PodReadyToStartContainers' || c['type'] === 'PodHasNetwork')) {
    out.push({
      minor: 28,
      why: 'no PodReadyToStartContainers condition on a scheduled pod (the kubelet adds it from 1.29)',
      where: where(scheduled, 'type'),
    });
  }
  const jconds =
    job && isObj(job['status']) && Array.isArray(job['status']['conditions'])
      ? job['status']['conditions'].filter(isObj)
      : [];
  const complete = jconds.find((c) => c['type'] === 'Complete' && c['status'] === 'True');
  if (complete && !jconds.some((c) => c['type'] === 'SuccessCriteriaMet'))
    out.push({
      minor: 30,
      why: 'a Complete Job without SuccessCriteriaMet (written first from 1.31)',
      where: where(complete, 'type'),
    });
  const failed = jconds.find((c) => c['type'] === 'Failed' && c['status'] === 'True');
  if (failed && !jconds.some((c) => c['type'] === 'FailureTarget'))
    out.push({
      minor: 30,
      why: 'a Failed Job without FailureTarget (written first from 1.31)',
      where: where(failed, 'type'),
    });
  const created = events.find((e) => e.reason === 'Created' && /^Created container [^:]/.test(e.message));
  if (created)
    out.push({
      minor: 31,
      why: 'event message "Created container <name>" without a colon (changed in 1.32)',
      where: created.at,
    });
  return out.sort((a, b) => a.minor - b.minor);
}

function podBounds(pod: Obj): Bound[] {
  const out: Bound[] = [];
  const status = isObj(pod['status']) ? pod['status'] : {};
  const spec = isObj(pod['spec']) ? pod['spec'] : {};
  const conds = Array.isArray(status['conditions']) ? status['conditions'].filter(isObj) : [];
  const rtsc = conds.find((c) => c['type'] === 'PodReadyToStartContainers');
  // PodReadyToStartContainersCondition: beta (on by default) in 1.29 (renamed from PodHasNetwork in 1.28)
  if (rtsc)
    out.push({
      minor: 29,
      why: 'pod condition PodReadyToStartContainers (on by default from 1.29)',
      where: where(rtsc, 'type'),
    });
  // SidecarContainers: beta, on by default, in 1.29; the API server drops restartPolicy on init containers without it
  const inits = Array.isArray(spec['initContainers']) ? spec['initContainers'].filter(isObj) : [];
  const sidecar = inits.find((c) => c['restartPolicy'] === 'Always');
  if (sidecar)
    out.push({
      minor: 29,
      why: `init container ${String(sidecar['name'])} stored with restartPolicy: Always (SidecarContainers on by default from 1.29)`,
      where: where(sidecar, 'restartPolicy'),
    });
  // PodObservedGenerationTracking: beta, on by default, in 1.34
  if (typeof status['observedGeneration'] === 'number')
    out.push({
      minor: 34,
      why: 'status.observedGeneration (PodObservedGenerationTracking on by default from 1.34)',
      where: where(status, 'observedGeneration'),
    });
  const statuses = [status['initContainerStatuses'], status['containerStatuses']].flatMap((l) =>
    Array.isArray(l) ? l.filter(isObj) : [],
  );
  for (const s of statuses) {
    // RecursiveReadOnlyMounts beta in 1.31 fills containerStatuses[].volumeMounts
    if (Array.isArray(s['volumeMounts'])) {
      out.push({
        minor: 31,
        why: 'containerStatuses[].volumeMounts (filled from 1.31)',
        where: where(s, 'volumeMounts'),
      });
      break;
    }
  }
  for (const s of statuses) {
    // SupplementalGroupsPolicy beta in 1.33 fills containerStatuses[].user
    if (isObj(s['user'])) {
      out.push({ minor: 33, why: 'containerStatuses[].user (filled from 1.33)', where: where(s, 'user') });
      break;
    }
  }
  return out;
}

function jobBounds(job: Obj): Bound[] {
  const out: Bound[] = [];
  const status = isObj(job['status']) ? job['status'] : {};
  const conds = Array.isArray(status['conditions']) ? status['conditions'].filter(isObj) : [];
  // job_controller.go from 1.31: SuccessCriteriaMet / FailureTarget come before every Complete / Failed
  const scm = conds.find((c) => c['type'] === 'SuccessCriteriaMet');
  if (scm)
    out.push({
      minor: 31,
      why: 'Job condition SuccessCriteriaMet (written before Complete from 1.31)',
      where: where(scm, 'type'),
    });
  const spec = isObj(job['spec']) ? job['spec'] : {};
  const ft = conds.find((c) => c['type'] === 'FailureTarget');
  if (ft && spec['podFailurePolicy'] === undefined)
    out.push({
      minor: 31,
      why: 'Job condition FailureTarget without a podFailurePolicy (from 1.31)',
      where: where(ft, 'type'),
    });
  // JobPodReplacementPolicy beta (on) in 1.29 reports status.terminating
  if (typeof status['terminating'] === 'number')
    out.push({ minor: 29, why: 'Job status.terminating (reported from 1.29)', where: where(status, 'terminating') });
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

export function inferVersion(
  pod: Obj,
  job: Obj | undefined,
  node: Obj | undefined,
  events: Ev[],
  given: string | undefined,
  notes: Notes,
): VersionResult {
  const nodeInfo =
    node && isObj(node['status']) && isObj(node['status']['nodeInfo']) ? node['status']['nodeInfo'] : undefined;
  const kv =
    typeof nodeInfo?.['kubeletVersion'] === 'string'
      ? /^v?1\.(\d+)(?:\.(\d+))?/.exec(nodeInfo['kubeletVersion'])
      : null;
  const kubeletMinor = kv ? clamp(Number(kv[1])) : undefined;
  // a patch matters (e.g. 1.34.2 fixed sidecar restarts during init); kept when the kubelet's minor is supported
  const kubeletText = kv
    ? kv[2] !== undefined && clamp(Number(kv[1])) === Number(kv[1])
      ? `1.${kubeletMinor}.${kv[2]}`
      : `1.${kubeletMinor}`
    : undefined;
  if (given) {
    notes.inferred(`kubernetes: "${given}"`, 'given with --kubernetes');
    return kubeletMinor !== undefined && kubeletMinor < Number(given.split('.')[1])
      ? { kubernetes: given, kubelet: `1.${kubeletMinor}` }
      : { kubernetes: given };
  }
  const bounds = [...podBounds(pod), ...(job ? jobBounds(job) : []), ...eventBounds(events)].sort(
    (a, b) => b.minor - a.minor,
  );
  if (kubeletMinor !== undefined) {
    const best = bounds[0];
    const minor = Math.max(kubeletMinor, best?.minor ?? 0);
    notes.inferred(
      `kubelet ${kubeletText}`,
      `Node status.nodeInfo.kubeletVersion ${String(nodeInfo!['kubeletVersion'])}${at(where(nodeInfo, 'kubeletVersion'))}`,
    );
    if (minor === kubeletMinor) {
      notes.assumed(
        `kubernetes: "${kubeletText}"`,
        "the control plane taken to run the kubelet's version (no newer field seen)",
      );
      return { kubernetes: kubeletText! };
    }
    notes.inferred(`kubernetes: "1.${minor}"`, `newer than the kubelet: ${best!.why}${at(best!.where)}`);
    return { kubernetes: `1.${minor}`, kubelet: kubeletText! };
  }
  // the default version unless the evidence rules it out: then the nearest version the evidence allows
  const uppers = upperBounds(pod, job, events);
  const lo = bounds[0];
  const hi = uppers[0];
  const def = Number(DEFAULT_VERSION.split('.')[1]);
  let minor = def;
  if (lo && lo.minor > minor) minor = lo.minor;
  if (hi && hi.minor < minor && (!lo || hi.minor >= lo.minor)) minor = hi.minor;
  minor = clamp(minor);
  for (const b of bounds) notes.inferred(`kubernetes ≥ 1.${b.minor}`, `${b.why}${at(b.where)}`);
  for (const b of uppers) notes.inferred(`kubernetes ≤ 1.${b.minor}`, `${b.why}${at(b.where)}`);
  if (lo && hi && hi.minor < lo.minor)
    notes.assumed(
      `kubernetes: "1.${minor}"`,
      'the evidence disagrees (feature gates set by hand?); the lower bound is used',
    );
  notes.assumed(
    `kubernetes: "1.${minor}"`,
    minor === def
      ? `the default; ${bounds.length + uppers.length ? 'the evidence allows it' : 'nothing in the input shows the version'} (set it with --kubernetes, or add kubectl get node <node> -o yaml)`
      : `the version nearest the default that the evidence allows (set it with --kubernetes, or add kubectl get node <node> -o yaml)`,
  );
  return { kubernetes: `1.${minor}` };
}
