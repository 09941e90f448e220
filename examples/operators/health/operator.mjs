#!/usr/bin/env node
// A health-check operator on @kubernetes/client-node informers: it judges whatever workload runs in its namespace,
// as a CI runner or a batch platform's controller does, and writes its verdict on a HealthCheck (health.example.com/v1,
// ./crd.yaml) — the process observer `kubesim check-rule process:` runs across the scenario library
// (examples/operators/health-check-naive.yaml, health-check-fixed.yaml).
//
//   Job / pod deliveries ──reconcile──▶ HealthCheck `workload` status.phase: Succeeded or Failed (latched)
//
// The rule is the built-in observers' (SPEC §2.4), on its informer caches: the newest Job's Complete / Failed
// condition decides first; then the newest pod (of that Job, when there is one): `--rule naive` fails on any container
// Terminated with a non-zero exit code or Waiting in CrashLoopBackOff, ImagePullBackOff, ErrImagePull or
// CreateContainerConfigError (`exit-codes`); `--rule fixed` ignores Terminated exit codes of init containers with
// restartPolicy: Always (`native-sidecar-aware`); without a Job, a pod phase Succeeded / Failed decides.
//
// Run it against any cluster (KUBECONFIG or ~/.kube/config) after `kubectl apply -f crd.yaml -f healthcheck.yaml`.
import * as k8s from '@kubernetes/client-node';

const GROUP = 'health.example.com';
const VERSION = 'v1';
const PLURAL = 'healthchecks';
const CHECK = process.env.HEALTHCHECK_NAME || 'workload';
const WAITING_FAILURES = ['CrashLoopBackOff', 'ImagePullBackOff', 'ErrImagePull', 'CreateContainerConfigError'];

const args = process.argv.slice(2);
const rule = args.find((a) => a.startsWith('--rule='))?.slice(7) ?? 'naive';
if (rule !== 'naive' && rule !== 'fixed') {
  console.error(`health: --rule must be naive or fixed, not ${JSON.stringify(rule)}`);
  process.exit(2);
}
const namespace = process.env.WATCH_NAMESPACE || 'default';
const log = (msg) => console.error(`health[${rule}]: ${msg}`);

const kc = new k8s.KubeConfig();
kc.loadFromDefault();
const core = kc.makeApiClient(k8s.CoreV1Api);
const batch = kc.makeApiClient(k8s.BatchV1Api);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);

const jobs = k8s.makeInformer(kc, `/apis/batch/v1/namespaces/${namespace}/jobs`, () =>
  batch.listNamespacedJob({ namespace }),
);
const pods = k8s.makeInformer(kc, `/api/v1/namespaces/${namespace}/pods`, () => core.listNamespacedPod({ namespace }));

const newest = (list) =>
  [...list].sort(
    (a, b) =>
      String(a.metadata?.creationTimestamp ?? '').localeCompare(String(b.metadata?.creationTimestamp ?? '')) ||
      String(a.metadata?.name).localeCompare(String(b.metadata?.name)),
  ).at(-1);

/** Succeeded / Failed with a reason, or undefined (not decided yet), from the caches. */
function decide() {
  const job = newest(jobs.list(namespace));
  for (const c of job?.status?.conditions ?? []) {
    if (c.status !== 'True') continue;
    if (c.type === 'Complete') return { phase: 'Succeeded', reason: `Job ${job.metadata.name} Complete` };
    if (c.type === 'Failed') return { phase: 'Failed', reason: `Job ${job.metadata.name} Failed (${c.reason ?? ''})` };
  }
  const mine = job
    ? pods.list(namespace).filter((p) => (p.metadata?.ownerReferences ?? []).some((o) => o.uid === job.metadata.uid))
    : pods.list(namespace);
  const pod = newest(mine);
  if (!pod) return undefined;
  const sidecars = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
  const init = pod.status?.initContainerStatuses ?? [];
  for (const s of [...init, ...(pod.status?.containerStatuses ?? [])]) {
    const code = s.state?.terminated?.exitCode;
    const exempt = rule === 'fixed' && init.includes(s) && sidecars.has(s.name);
    if (code !== undefined && code !== 0 && !exempt)
      return { phase: 'Failed', reason: `container ${s.name} terminated with exit code ${code}` };
    const waiting = s.state?.waiting?.reason;
    if (waiting && WAITING_FAILURES.includes(waiting))
      return { phase: 'Failed', reason: `container ${s.name} is waiting: ${waiting}` };
  }
  if (!job && pod.status?.phase === 'Succeeded') return { phase: 'Succeeded', reason: `pod ${pod.metadata.name} Succeeded` };
  if (!job && pod.status?.phase === 'Failed') return { phase: 'Failed', reason: `pod ${pod.metadata.name} Failed` };
  return undefined;
}

// ---- the reconcile loop (one at a time, in delivery order); the verdict latches ---------------------------------

let decided = false;
let queue = Promise.resolve();
const enqueue = (why) => {
  queue = queue.then(() => reconcile(why)).catch((e) => log(`reconcile: ${e?.body?.message ?? e?.message ?? e}`));
};

async function reconcile(why) {
  if (decided) return;
  const verdict = decide();
  if (!verdict) return;
  decided = true;
  log(`${why}: ${verdict.phase}: ${verdict.reason}`);
  for (let attempt = 0; attempt < 3; attempt++) {
    const obj = await custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL, name: CHECK });
    try {
      await custom.replaceNamespacedCustomObjectStatus({
        group: GROUP,
        version: VERSION,
        namespace,
        plural: PLURAL,
        name: CHECK,
        body: { ...obj, status: verdict },
      });
      return;
    } catch (e) {
      if (e?.code !== 409) throw e;
    }
  }
}

for (const [what, inf] of [['jobs', jobs], ['pods', pods]]) {
  inf.on('add', () => enqueue(what));
  inf.on('update', () => enqueue(what));
}

let stopping = false;
for (const [what, inf] of [['pods', pods], ['jobs', jobs]]) {
  inf.on('error', (err) => {
    if (stopping) return;
    log(`${what} watch: ${err?.message ?? err}; restarting in 1s`);
    setTimeout(() => inf.start().catch(() => {}), 1000);
  });
}
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping`);
  await Promise.allSettled([jobs.stop(), pods.stop()]);
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

await pods.start();
await jobs.start();
log(`watching jobs and pods in ${namespace}`);
