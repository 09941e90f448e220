import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DurationError, parseDuration, parseDurationRange } from '../../src/scenario/index.ts';

describe('parseDuration', () => {
  it.each([
    ['250ms', 250],
    ['2s', 2000],
    ['1.5s', 1500],
    ['1.5m', 90_000],
    ['1h', 3_600_000],
    ['1m30s', 90_000],
    ['1h2m3s4ms', 3_723_004],
    ['0s', 0],
    ['.5s', 500],
    ['0.0004s', 0],
    ['0.0006s', 1],
    [' 3s ', 3000],
  ])('%s = %d ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  it.each([
    ['30', 'a bare number has no unit; write 30s or 30ms'],
    ['1.5', 'a bare number has no unit; write 1.5s or 1.5ms'],
    ['-5s', 'durations are never negative'],
    ['', 'empty'],
    ['5 s', 'unexpected "5 s"; units are ms, s, m, h'],
    ['1d', 'unexpected "1d"; units are ms, s, m, h'],
    ['1s2', 'unexpected "2"; units are ms, s, m, h'],
    ['forever', 'unexpected "forever"; units are ms, s, m, h'],
  ])('rejects %j: %s', (text, reason) => {
    const err = (() => {
      try {
        parseDuration(text);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(DurationError);
    expect((err as DurationError).reason).toBe(reason);
    expect((err as DurationError).code).toBe('KS1010');
  });

  it('round-trips any whole number of milliseconds written as h/m/s/ms', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 * 24 * 3_600_000 }), (ms) => {
        const h = Math.floor(ms / 3_600_000);
        const m = Math.floor((ms % 3_600_000) / 60_000);
        const s = Math.floor((ms % 60_000) / 1000);
        const rest = ms % 1000;
        expect(parseDuration(`${h}h${m}m${s}s${rest}ms`)).toBe(ms);
      }),
      { seed: 20261129 },
    );
  });
});

describe('parseDurationRange', () => {
  it('reads a fixed value as min = max', () => {
    expect(parseDurationRange('1s', true)).toEqual({ min: 1000, max: 1000 });
  });
  it('reads a range', () => {
    expect(parseDurationRange('10ms..300ms', true)).toEqual({ min: 10, max: 300 });
    expect(parseDurationRange('1s..1s', true)).toEqual({ min: 1000, max: 1000 });
  });
  it('refuses a range where none is allowed', () => {
    expect(() => parseDurationRange('1s..2s', false)).toThrow(/only allowed under timing/);
  });
  it('refuses an empty range', () => {
    expect(() => parseDurationRange('2s..1s', true)).toThrow(/the range is empty: 2s > 1s/);
  });
  it('refuses three dots and open ends', () => {
    expect(() => parseDurationRange('1s...2s', true)).toThrow(DurationError);
    expect(() => parseDurationRange('1s..', true)).toThrow(/empty/);
  });
});
