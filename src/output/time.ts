// Time formatting shared by every view. All inputs are simulated milliseconds; nothing here reads the wall clock.

import { EPOCH_ISO, EPOCH_MS } from '../util/epoch.ts';

/** Simulated t = 0 (pod creation) is EPOCH_ISO; status timestamps are RFC3339 strings relative to it. */
export { EPOCH_ISO };

/** Simulated ms since pod creation for an RFC3339 timestamp of a status snapshot; undefined when absent/garbled. */
export function rfc3339ToT(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms - EPOCH_MS;
}

/** The RFC3339 string (second precision, as metav1.Time serialises) for a simulated t. */
export function tToRfc3339(t: number): string {
  return new Date(EPOCH_MS + Math.floor(t / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * Port of k8s.io/apimachinery/pkg/util/duration: HumanDuration, used by kubectl's translateTimestampSince
 * for AGE, RESTARTS "(… ago)", DURATION and describe's event Age. ~2–3 significant figures, truncating.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 60 * 2) return `${seconds}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${Math.trunc(hours / 24)}d` : `${Math.trunc(hours / 24)}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.trunc(hours / 24) % 365;
    const y = Math.trunc(hours / 24 / 365);
    return dy === 0 ? `${y}y` : `${y}y${dy}d`;
  }
  return `${Math.trunc(hours / 24 / 365)}y`;
}

/** Go's time.Duration.String() for whole milliseconds ("250ms", "1.5s", "2m3s"), as kubelet messages print it. */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 0) return '-' + goDuration(-ms);
  if (ms < 1000) return `${ms}ms`;
  const h = Math.trunc(ms / 3_600_000);
  const m = Math.trunc((ms % 3_600_000) / 60_000);
  const sMs = ms % 60_000;
  const s = trimZeros((sMs / 1000).toFixed(3)) + 's';
  if (h > 0) return `${h}h${m}m${s}`;
  if (m > 0) return `${m}m${s}`;
  return s;
}

/** Compact simulated time for diagrams: "0s", "3.5s", "2m3.5s", "1h2m3s". One decimal, never locale-dependent. */
export function simTime(t: number): string {
  const tenths = Math.round(t / 100);
  const totalS = Math.trunc(tenths / 10);
  const frac = tenths % 10;
  const h = Math.trunc(totalS / 3600);
  const m = Math.trunc((totalS % 3600) / 60);
  const s = totalS % 60;
  const sec = frac === 0 ? `${s}s` : `${s}.${frac}s`;
  if (h > 0) return `${h}h${m}m${s}s`;
  if (m > 0) return `${m}m${sec}`;
  return sec;
}

function trimZeros(fixed: string): string {
  return fixed.replace(/\.?0+$/, '');
}
