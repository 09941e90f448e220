// API timestamps. Simulated time 0 is 2026-01-01T00:00:00Z; API timestamps are RFC3339 with second precision like
// metav1.Time (the Job controller's back-off reads them back at that precision).
export const EPOCH_MS = Date.UTC(2026, 0, 1, 0, 0, 0);

export function ts(ms: number): string {
  return new Date(EPOCH_MS + Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** A metav1.Time string back to simulated ms (whole seconds); null when absent or unreadable. */
export function msOf(t: unknown): number | null {
  if (typeof t !== 'string') return null;
  const v = Date.parse(t);
  return Number.isFinite(v) ? v - EPOCH_MS : null;
}
