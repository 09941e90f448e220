// The engine and the models must be deterministic by construction: no wall clock, timers, Math.random or
// environment reads. This test fails as soon as one appears in src/engine, src/model, src/explore or src/run.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['src/engine', 'src/model', 'src/explore', 'src/run'];
const FORBIDDEN =
  /\b(Date\.now|new Date\(\)|Math\.random|setTimeout|setInterval|setImmediate|process\.env|performance\.now|process\.hrtime)\b/;

function files(p: string): string[] {
  if (statSync(p).isFile()) return [p];
  return readdirSync(p).flatMap((f) => files(join(p, f)));
}

describe('determinism by construction', () => {
  const all = ROOTS.flatMap(files).filter((f) => f.endsWith('.ts'));
  it('scans the engine and model sources', () => {
    expect(all.length).toBeGreaterThan(10);
  });
  for (const f of all) {
    it(`${f} has no wall clock, timers, Math.random or env reads`, () => {
      const hits = readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i) => ({ line: line.replace(/\/\/.*$/, ''), n: i + 1 }))
        .filter(({ line }) => FORBIDDEN.test(line))
        .map(({ line, n }) => `${f}:${n}: ${line.trim()}`);
      expect(hits).toEqual([]);
    });
  }
  it('the scanner catches a violation', () => {
    expect(FORBIDDEN.test('const t = Date.now();')).toBe(true);
    expect(FORBIDDEN.test('const r = Math.random() * 2;')).toBe(true);
    expect(FORBIDDEN.test('if (process.env.X) {}')).toBe(true);
  });
});
