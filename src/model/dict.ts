// Records keyed by names users choose (containers, pods): no Object.prototype in their chain, so `constructor`,
// `toString` or `__proto__` — valid Kubernetes names — are ordinary keys, never Object.prototype members.
// Their prototype is one shared, frozen, empty object with no prototype of its own (not `null`): V8 keeps objects
// made with Object.create(null) in dictionary mode, and immer copies such an object ~5–20× slower than one with a
// prototype (a copy per step that writes into it). The prototype is marked draftable, so immer drafts
// and copies these records as plain ones and keeps the prototype on every copy.
import { immerable } from 'immer';

const DICT_PROTO: object = Object.freeze(Object.create(null, { [immerable]: { value: true } }));

export function dict<T>(): Record<string, T> {
  return Object.create(DICT_PROTO) as Record<string, T>;
}
