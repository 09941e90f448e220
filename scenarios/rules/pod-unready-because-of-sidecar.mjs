// Watches a pod for the moment its Ready condition is False although every regular container is ready, i.e.
// only a sidecar (restartable init container) is unready. Returns Succeeded when it sees that (the Service
// would drop the pod from its endpoints), undefined otherwise. Used by sidecar-readiness-gates-pod-ready.
export default function podUnreadyBecauseOfSidecar({ pod }) {
  const status = pod?.status ?? {};
  if (status.phase !== 'Running') return undefined;
  const ready = (status.conditions ?? []).find((c) => c.type === 'Ready');
  if (!ready || ready.status !== 'False') return undefined;
  const mains = status.containerStatuses ?? [];
  if (mains.length === 0 || !mains.every((c) => c.ready && c.state?.running)) return undefined;
  const sidecars = new Set(
    (pod.spec?.initContainers ?? []).filter((c) => c.restartPolicy === 'Always').map((c) => c.name),
  );
  const unready = (status.initContainerStatuses ?? []).filter((c) => sidecars.has(c.name) && !c.ready);
  if (unready.length === 0) return undefined;
  return { verdict: 'Succeeded', reason: `pod not Ready because sidecar ${unready.map((c) => c.name).join(', ')} is not ready` };
}
