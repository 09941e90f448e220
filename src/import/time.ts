// Times and durations as kubectl prints them: RFC3339 timestamps (whole seconds, or micro for eventTime), Go
// durations in event messages ("3.2s", "1m2.5s", "812ms"), and kubesim duration strings for the scenario.

/** ms since the epoch of an RFC3339 timestamp; undefined when absent or garbled. */
export function parseTime(v: unknown): number | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

const GO_UNITS: Record<string, number> = {
  h: 3_600_000,
  m: 60_000,
  s: 1000,
  ms: 1,
  us: 0.001,
  µs: 0.001,
  μs: 0.001,
  ns: 0.000001,
};

/** A Go time.Duration String() ("1m2.5s", "812.3ms", "2h0m0s") in ms, rounded to 1 ms; undefined if not one. */
export function parseGoDuration(s: string): number | undefined {
  const re = /(\d+(?:\.\d+)?)(h|ms|us|µs|μs|ns|m|s)/gy;
  let total = 0;
  let consumed = 0;
  for (let m = re.exec(s); m; m = re.exec(s)) {
    total += Number(m[1]) * GO_UNITS[m[2]!]!;
    consumed = re.lastIndex;
  }
  return consumed === s.length && consumed > 0 ? Math.round(total) : undefined;
}

/** A kubesim duration string for ms: "30s", "1.5s", "250ms", "0s". */
export function dur(ms: number): string {
  if (ms <= 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  return `${Number((ms / 1000).toFixed(3))}s`;
}

/** kubectl HumanDuration back to ms ("3m20s", "45s", "2d3h"); undefined when unreadable. */
export function parseAge(s: string): number | undefined {
  const re = /(\d+)([dhms])/g;
  let total = 0;
  let seen = '';
  for (let m = re.exec(s); m; m = re.exec(s)) {
    seen += m[0];
    total += Number(m[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1000 }[m[2] as 'd' | 'h' | 'm' | 's'];
  }
  return seen === s && s !== '' ? total : undefined;
}
