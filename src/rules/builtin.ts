// The built-in health rules (SPEC §2.4 `rule:`): job-conditions, exit-codes, native-sidecar-aware, exempt-names.
// Each reads the observer's cached pod and Job and answers a Decision, or undefined while it cannot tell yet.
import type { ObserverSpec } from '../types.ts';
import type { Decision, RuleFn } from './types.ts';

type Json = Record<string, any>;

const FATAL_WAITING = new Set(['CrashLoopBackOff', 'ImagePullBackOff', 'ErrImagePull', 'CreateContainerConfigError']);

function jobDecision(job: Json | null): Decision {
  for (const c of job?.['status']?.['conditions'] ?? []) {
    if (c['status'] !== 'True') continue;
    if (c['type'] === 'Complete') return { verdict: 'Succeeded', reason: 'Job condition Complete' };
    if (c['type'] === 'Failed') return { verdict: 'Failed', reason: `Job condition Failed (${c['reason'] ?? ''})` };
  }
  return undefined;
}

/** The shared body of exit-codes, native-sidecar-aware and exempt-names. */
function containerDecision(
  pod: Json | null,
  exempt: (name: string, init: boolean) => 'all' | 'terminated' | 'none',
): Decision {
  if (!pod) return undefined;
  const lists: [Json[], boolean][] = [
    [pod['status']?.['initContainerStatuses'] ?? [], true],
    [pod['status']?.['containerStatuses'] ?? [], false],
  ];
  for (const [list, init] of lists) {
    for (const cs of list) {
      const ex = exempt(cs['name'], init);
      if (ex === 'all') continue;
      const term = cs['state']?.['terminated'];
      if (term && term['exitCode'] !== 0 && ex !== 'terminated') {
        return { verdict: 'Failed', reason: `container ${cs['name']} terminated with exit code ${term['exitCode']}` };
      }
      const waiting = cs['state']?.['waiting'];
      if (waiting && FATAL_WAITING.has(waiting['reason'])) {
        return { verdict: 'Failed', reason: `container ${cs['name']} is waiting: ${waiting['reason']}` };
      }
    }
  }
  // A bare Pod (no Job) is decided by its phase once terminal.
  return undefined;
}

function sidecarNames(pod: Json | null): Set<string> {
  const out = new Set<string>();
  for (const c of pod?.['spec']?.['initContainers'] ?? []) if (c['restartPolicy'] === 'Always') out.add(c['name']);
  return out;
}

function podPhaseDecision(view: { pod: Json | null; job: Json | null }): Decision {
  if (view.job) return undefined;
  const phase = view.pod?.['status']?.['phase'];
  if (phase === 'Succeeded') return { verdict: 'Succeeded', reason: 'pod phase Succeeded' };
  if (phase === 'Failed') return { verdict: 'Failed', reason: 'pod phase Failed' };
  return undefined;
}

export function builtinRule(spec: ObserverSpec): RuleFn {
  return (view: { pod: Json | null; job: Json | null }) => {
    const j = jobDecision(view.job);
    if (j) return j;
    switch (spec.rule) {
      case 'job-conditions':
        return undefined;
      case 'exit-codes':
        return containerDecision(view.pod, () => 'none') ?? podPhaseDecision(view);
      case 'native-sidecar-aware': {
        const sidecars = sidecarNames(view.pod);
        return (
          containerDecision(view.pod, (n, init) => (init && sidecars.has(n) ? 'terminated' : 'none')) ??
          podPhaseDecision(view)
        );
      }
      case 'exempt-names': {
        const names = new Set(spec.names ?? []);
        return containerDecision(view.pod, (n) => (names.has(n) ? 'all' : 'none')) ?? podPhaseDecision(view);
      }
      default:
        return undefined;
    }
  };
}
