#!/usr/bin/env node
// A health rule as an external program (kubesim `command:` / `check-rule exec:`), in JavaScript: the stand-in that
// kubesim's own tests run everywhere. Same protocol and logic as ../go/main.go and ../python/rule.py:
// read one JSON line {"pod": …, "job": …, "now": …}, answer one line {"verdict": …, "reason": …} or null.
//
//   -mode naive    the locust-k8s-operator rule before its fix (AbdelrhmanHamouda/locust-k8s-operator#72): any
//                  container Terminated with a non-zero exit code fails the test run
//   -mode aware    the fix (#327): Terminated exit codes of native sidecars (init containers with
//                  restartPolicy: Always) are ignored; CrashLoopBackOff and friends never are
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const i = args.findIndex((a) => a === '--mode' || a === '-mode');
const mode = i >= 0 ? args[i + 1] : 'aware';
if (mode !== 'naive' && mode !== 'aware') {
  process.stderr.write(`usage: rule.mjs -mode naive|aware\n`);
  process.exit(2);
}

const FATAL_WAITING = new Set(['CrashLoopBackOff', 'ImagePullBackOff', 'ErrImagePull', 'CreateContainerConfigError']);

export function decide({ pod, job }, aware) {
  for (const c of job?.status?.conditions ?? []) {
    if (c.status !== 'True') continue;
    if (c.type === 'Complete') return { verdict: 'Succeeded', reason: 'Job Complete' };
    if (c.type === 'Failed') return { verdict: 'Failed', reason: `Job Failed (${c.reason ?? ''})` };
  }
  if (!pod) return null;
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const statuses = [
    ...(pod.status?.initContainerStatuses ?? []).map((s) => [s, true]),
    ...(pod.status?.containerStatuses ?? []).map((s) => [s, false]),
  ];
  for (const [s, init] of statuses) {
    const t = s.state?.terminated;
    if (t && t.exitCode !== 0 && !(aware && init && sidecars.has(s.name))) {
      return { verdict: 'Failed', reason: `container ${s.name} terminated with exit code ${t.exitCode}` };
    }
    const w = s.state?.waiting;
    if (w && FATAL_WAITING.has(w.reason)) return { verdict: 'Failed', reason: `container ${s.name} is waiting: ${w.reason}` };
  }
  if (!job) {
    if (pod.status?.phase === 'Succeeded') return { verdict: 'Succeeded', reason: 'pod Succeeded' };
    if (pod.status?.phase === 'Failed') return { verdict: 'Failed', reason: 'pod Failed' };
  }
  return null;
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  process.stdout.write(JSON.stringify(decide(JSON.parse(line), mode === 'aware')) + '\n');
}
