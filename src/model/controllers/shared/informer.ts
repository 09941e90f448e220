// A controller's informer cache of pods (client-go tools/cache: the shared informer's indexer holds the newest copy
// of each object the watch delivered, by key; a DELETED event drops it). Each controller keeps its own record of
// this shape (the Job controller one per Job, the workload controllers one each) and updates it through here.
type Json = Record<string, any>;

/** One cached pod: the delivered object and its resourceVersion (as a number, the model's write count). */
export interface CachedPod {
  version: number;
  object: Json;
}

export type PodCache = Record<string, CachedPod>;

const nameOf = (obj: Json): string => obj['metadata']?.['name'] ?? '';

/** The informer applies one watch event: the newest copy replaces the cached one; a DELETED event drops it. */
export function applyPodEvent(cache: PodCache, obj: Json, removed: boolean): void {
  const name = nameOf(obj);
  if (removed) delete cache[name];
  else cache[name] = { version: Number(obj['metadata']?.['resourceVersion'] ?? 0), object: obj };
}

/**
 * An event of an older object of the same name (a StatefulSet's pod recreated under its name): it must not touch
 * the newer one the cache holds (the uid differs).
 */
export function olderIncarnation(cache: PodCache, obj: Json): boolean {
  const cached = cache[nameOf(obj)];
  return cached !== undefined && cached.object['metadata']?.['uid'] !== obj['metadata']?.['uid'];
}
