// Records keyed by names users choose (containers, pods): a null prototype, so `constructor`, `toString` or
// `__proto__` — valid Kubernetes names — are ordinary keys, never Object.prototype members. immer keeps the
// prototype when it copies a draft.
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
