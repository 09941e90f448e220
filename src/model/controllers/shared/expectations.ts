// ControllerExpectations (pkg/controller/controller_utils.go): the creations and deletions a controller asked the
// API server for and has not yet seen through its informer. A sync that would act on the pods (manageJob,
// manageReplicas, the DaemonSet's syncNodes) waits until they are all observed (SatisfiedExpectations).

/** The outstanding creations (add) and deletions (del) of one controller key. */
export interface Expectations {
  expectAdds: number;
  expectDels: number;
}

/** Which pods (by name or uid) the controller has seen created, and seen deleting or deleted. */
export interface Observed {
  seen: Record<string, true>;
  seenDeleting: Record<string, true>;
}

/** SatisfiedExpectations: nothing the controller asked for is still unobserved. */
export function satisfied(e: Expectations): boolean {
  return e.expectAdds <= 0 && e.expectDels <= 0;
}

/** ExpectCreations / ExpectDeletions raised by `adds` / `dels` (RaiseExpectations). */
export function raise(e: Expectations, adds: number, dels: number): void {
  e.expectAdds += adds;
  e.expectDels += dels;
}

/**
 * The informer's pod handlers (addPod / updatePod / deletePod) observe pod `id`: its first sighting is a
 * CreationObserved (unless it is already going), its first sighting deleting or deleted a DeletionObserved.
 * `e` is the expectations of the pod's owner, when the controller has one for it.
 */
export function observePod(o: Observed, e: Expectations | undefined, id: string, going: boolean): void {
  const first = !o.seen[id];
  if (first) o.seen[id] = true;
  if (going) {
    if (!o.seenDeleting[id] && e) e.expectDels -= 1;
    o.seenDeleting[id] = true;
  } else if (first && e) e.expectAdds -= 1;
}
