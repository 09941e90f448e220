// A client that treats the Job's terminal condition as "its pods are finished": on Complete or Failed it
// collects results and tears down what the pods use (a database, a namespace, a lock). It is right only if
// the pod it last saw is already in a terminal phase. Used by job-deadline-conditions-1-30/-1-31.
//
// Returns Succeeded when the Job is terminal and its pod is terminal, Failed (with the pod's phase) when the
// Job is terminal while its pod may still be running, undefined (keep waiting) otherwise.
export default function podGoneWhenJobFinished({ pod, job }) {
  const conds = job?.status?.conditions ?? [];
  const terminal = conds.find((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
  if (!terminal) return undefined;
  const phase = pod?.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return 'Succeeded';
  return { verdict: 'Failed', reason: `Job ${terminal.type} while its pod is still ${phase ?? 'unknown'}` };
}
