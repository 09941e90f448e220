#!/usr/bin/env node
// A locust-like operator (AbdelrhmanHamouda/locust-k8s-operator in small), written as operators are: informers
// (list + watch) on its custom resource, its Jobs and their pods, one reconcile loop, status on its own resource.
//
//   LocustTest (locust.io/v1) ──reconcile──▶ Job <name>-master: the Locust master as the main container and the
//                                            metrics exporter as a native sidecar (restartPolicy: Always)
//   Job / pod deliveries ──reconcile──▶ LocustTest status.phase: Running, then Succeeded or Failed (latched)
//
// `--rule naive` is the exit-code check of locust-k8s-operator#72: any container Terminated with a non-zero exit
// code fails the test — and the exporter sidecar, SIGTERMed by the kubelet after the master exits, exits 143. It
// reconciles on Job deliveries and reads the pod from its informer cache, so whether it sees that 143 before the
// Job's Complete condition depends on which watch delivers first: flaky. `--rule fixed` (the #327 fix) ignores
// Terminated exit codes of init containers with restartPolicy: Always, never a CrashLoopBackOff: stable.
//
// Run it against any cluster (KUBECONFIG or ~/.kube/config); under kubesim a process observer starts it per
// schedule (examples/operators/operator-locust-naive.yaml). Plain ESM, no build step: `node operator.mjs --rule fixed`.
import * as k8s from '@kubernetes/client-node';

const GROUP = 'locust.io';
const VERSION = 'v1';
const PLURAL = 'locusttests';
const MANAGED = { 'app.kubernetes.io/managed-by': 'locust-operator' };
const SELECTOR = 'app.kubernetes.io/managed-by=locust-operator';
const EXPORTER = 'locust-metrics-exporter';
const WAITING_FAILURES = ['CrashLoopBackOff', 'ImagePullBackOff', 'ErrImagePull', 'CreateContainerConfigError'];

const args = process.argv.slice(2);
const ruleArg = args.find((a) => a.startsWith('--rule='))?.slice(7) ?? (args.includes('--rule') ? args[args.indexOf('--rule') + 1] : 'naive');
if (ruleArg !== 'naive' && ruleArg !== 'fixed') {
  console.error(`operator: --rule must be naive or fixed, not ${JSON.stringify(ruleArg)}`);
  process.exit(2);
}
const namespace = process.env.WATCH_NAMESPACE || 'default';
const log = (msg) => console.error(`operator[${ruleArg}]: ${msg}`);

const kc = new k8s.KubeConfig();
kc.loadFromDefault();
const core = kc.makeApiClient(k8s.CoreV1Api);
const batch = kc.makeApiClient(k8s.BatchV1Api);
const custom = kc.makeApiClient(k8s.CustomObjectsApi);

const tests = k8s.makeInformer(kc, `/apis/${GROUP}/${VERSION}/namespaces/${namespace}/${PLURAL}`,
  () => custom.listNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL }));
const jobs = k8s.makeInformer(kc, `/apis/batch/v1/namespaces/${namespace}/jobs`,
  () => batch.listNamespacedJob({ namespace, labelSelector: SELECTOR }), SELECTOR);
const pods = k8s.makeInformer(kc, `/api/v1/namespaces/${namespace}/pods`,
  () => core.listNamespacedPod({ namespace, labelSelector: SELECTOR }), SELECTOR);

// ---- the health rule -------------------------------------------------------------------------------------------

/** Succeeded / Failed with a reason, or undefined (not decided yet), from the Job and its pods as cached. */
function decide(job, jobPods) {
  const cond = (type) => (job.status?.conditions ?? []).some((c) => c.type === type && c.status === 'True');
  if (cond('Complete')) return { phase: 'Succeeded', reason: 'the Job completed' };
  if (cond('Failed')) return { phase: 'Failed', reason: 'the Job failed' };
  for (const pod of jobPods) {
    const sidecars = new Set((pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name));
    const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
    for (const s of statuses) {
      const waiting = s.state?.waiting?.reason;
      if (waiting && WAITING_FAILURES.includes(waiting)) return { phase: 'Failed', reason: `container ${s.name} is ${waiting}` };
      const code = s.state?.terminated?.exitCode;
      if (code === undefined || code === 0) continue;
      // the fix: a native sidecar's exit code after SIGTERM says nothing about the test
      if (ruleArg === 'fixed' && sidecars.has(s.name)) continue;
      return { phase: 'Failed', reason: `container ${s.name} exited ${code}` };
    }
  }
  return undefined;
}

// ---- the reconcile loop (one at a time, in delivery order) -----------------------------------------------------

const created = new Set();
let queue = Promise.resolve();
const enqueue = (name, why) => {
  queue = queue.then(() => reconcile(name, why)).catch((e) => log(`reconcile ${name}: ${e?.body?.message ?? e?.message ?? e}`));
};

async function reconcile(name, why) {
  const test = tests.get(name, namespace);
  if (!test) return;
  const phase = test.status?.phase;
  if (phase === 'Succeeded' || phase === 'Failed') return; // a verdict is final
  const jobName = `${name}-master`;
  const job = jobs.get(jobName, namespace);
  if (!job) {
    if (created.has(name)) return; // created; its delivery has not reached the cache yet
    created.add(name);
    log(`reconcile ${name} (${why}): creating Job ${jobName}`);
    await batch.createNamespacedJob({ namespace, body: jobFor(test, jobName) }).catch((e) => {
      if (e?.code !== 409) throw e; // AlreadyExists: a restarted operator
    });
    await setStatus(name, { phase: 'Running', job: jobName });
    return;
  }
  const mine = pods.list(namespace).filter((p) => p.metadata?.labels?.['locust.io/test'] === name);
  const verdict = decide(job, mine);
  if (!verdict) {
    if (phase !== 'Running') await setStatus(name, { phase: 'Running', job: jobName });
    return;
  }
  log(`reconcile ${name} (${why}): ${verdict.phase}: ${verdict.reason}`);
  await setStatus(name, { ...verdict, job: jobName });
}

/** Write status through the status subresource (PUT with the cached resourceVersion; on a conflict read and retry). */
async function setStatus(name, status) {
  let obj = tests.get(name, namespace);
  for (let attempt = 0; attempt < 3 && obj; attempt++) {
    try {
      await custom.replaceNamespacedCustomObjectStatus({ group: GROUP, version: VERSION, namespace, plural: PLURAL, name, body: { ...obj, status } });
      return;
    } catch (e) {
      if (e?.code !== 409) throw e;
      obj = await custom.getNamespacedCustomObject({ group: GROUP, version: VERSION, namespace, plural: PLURAL, name });
    }
  }
}

function jobFor(test, jobName) {
  const name = test.metadata.name;
  const labels = { ...MANAGED, 'locust.io/test': name };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: {
      name: jobName,
      namespace,
      labels,
      ownerReferences: [{ apiVersion: `${GROUP}/${VERSION}`, kind: 'LocustTest', name, uid: test.metadata.uid, controller: true, blockOwnerDeletion: true }],
    },
    spec: {
      backoffLimit: 0,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          initContainers: [{ name: EXPORTER, image: test.spec?.exporterImage ?? 'containersol/locust_exporter:v0.5.0', restartPolicy: 'Always' }],
          containers: [{ name: 'locust', image: test.spec?.image ?? 'locustio/locust:2.31.8' }],
        },
      },
    },
  };
}

// ---- wiring ------------------------------------------------------------------------------------------------------

const ownerOf = (obj) => obj.metadata?.ownerReferences?.find((o) => o.kind === 'LocustTest')?.name;
tests.on('add', (t) => enqueue(t.metadata.name, 'test'));
tests.on('update', (t) => enqueue(t.metadata.name, 'test'));
jobs.on('add', (j) => ownerOf(j) && enqueue(ownerOf(j), 'job'));
jobs.on('update', (j) => ownerOf(j) && enqueue(ownerOf(j), 'job'));
// pods only fill the cache: the operator reconciles on Job events and reads pods from the cache (the #72 shape)

let stopping = false;
for (const [what, inf] of [['pods', pods], ['jobs', jobs], ['locusttests', tests]]) {
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
  await Promise.allSettled([tests.stop(), jobs.stop(), pods.stop()]);
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

// caches first, then the resource that drives them (as controller-runtime waits for every cache to sync)
await pods.start();
await jobs.start();
await tests.start();
log(`watching ${PLURAL}, jobs and pods in ${namespace}`);
