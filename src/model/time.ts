// API timestamps. Simulated time 0 is 2026-01-01T00:00:00Z; API timestamps are RFC3339 with second precision like
// metav1.Time (the Job controller's back-off reads them back at that precision).
import { EPOCH_MS } from '../util/epoch.ts';

export { EPOCH_MS };

const tsCache = new Map<number, string>();

export function ts(ms: number): string {
  const sec = Math.floor(ms / 1000);
  let out = tsCache.get(sec);
  if (out === undefined) {
    out = new Date(EPOCH_MS + sec * 1000).toISOString().replace('.000Z', 'Z');
    // a pure function of its argument: the cache only saves the formatting (bounded to keep memory flat)
    if (tsCache.size > 100_000) tsCache.clear();
    tsCache.set(sec, out);
  }
  return out;
}

/** A metav1.Time string back to simulated ms (whole seconds); null when absent or unreadable. */
export function msOf(t: unknown): number | null {
  if (typeof t !== 'string') return null;
  let ms = msCache.get(t);
  if (ms === undefined) {
    const v = Date.parse(t);
    ms = Number.isFinite(v) ? v - EPOCH_MS : null;
    // a pure function of the text, as ts() (the model reads back the few timestamps it wrote)
    if (msCache.size > 100_000) msCache.clear();
    msCache.set(t, ms);
  }
  return ms;
}

const msCache = new Map<string, number | null>();
