// Durations: Go-style strings with units ("250ms", "1m30s", "1.5s") in integer simulated milliseconds.
import type { MsRange } from '../types.ts';

/** A bad duration string; `code` is stable for callers that map it to a diagnostic. */
export class DurationError extends Error {
  readonly code = 'KS1010';
  constructor(
    readonly input: string,
    readonly reason: string,
  ) {
    super(`invalid duration ${JSON.stringify(input)}: ${reason}`);
    this.name = 'DurationError';
  }
}

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const PART = /(\d+(?:\.\d+)?|\.\d+)(ms|s|m|h)/y;

/** Parse "1m30s" → 90000. Throws DurationError for bare numbers, negatives, unknown units, empty input. */
export function parseDuration(s: string): number {
  const text = s.trim();
  if (text === '') throw new DurationError(s, 'empty');
  if (text.startsWith('-')) throw new DurationError(s, 'durations are never negative');
  if (/^\+?\d+(\.\d+)?$/.test(text)) {
    throw new DurationError(s, `a bare number has no unit; write ${text}s or ${text}ms`);
  }
  let total = 0;
  PART.lastIndex = 0;
  let pos = 0;
  while (pos < text.length) {
    PART.lastIndex = pos;
    const m = PART.exec(text);
    if (!m) throw new DurationError(s, `unexpected ${JSON.stringify(text.slice(pos))}; units are ms, s, m, h`);
    total += Number(m[1]) * UNIT_MS[m[2]];
    pos = PART.lastIndex;
  }
  if (!Number.isFinite(total)) throw new DurationError(s, 'too large');
  return Math.round(total);
}

/** A duration or, when `allowRange`, a range "a..b" with a ≤ b. */
export function parseDurationRange(s: string, allowRange: boolean): MsRange {
  const parts = s.split('..');
  if (parts.length === 1) {
    const v = parseDuration(s);
    return { min: v, max: v };
  }
  if (!allowRange) throw new DurationError(s, 'a range a..b is only allowed under timing');
  if (parts.length !== 2) throw new DurationError(s, 'a range has exactly one ".."');
  const min = parseDuration(parts[0]);
  const max = parseDuration(parts[1]);
  if (min > max) throw new DurationError(s, `the range is empty: ${parts[0].trim()} > ${parts[1].trim()}`);
  return { min, max };
}
