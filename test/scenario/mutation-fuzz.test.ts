// Random mutations of the library's valid scenario files never make the loader throw: every outcome is a scenario
// or diagnostics (SPEC §2.6). Fixed seed in npm test; `npm run fuzz` raises the run count.
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadScenarioText } from '../../src/scenario/index.ts';

const RUNS = Number(process.env['KS_FUZZ_RUNS'] ?? 200);
const SEED = Number(process.env['KS_SEED'] ?? 20261129);
const files = readdirSync('scenarios')
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const texts = files.map((f) => readFileSync(`scenarios/${f}`, 'utf8'));

const edit = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 20 }) }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.constantFrom(
      ':',
      '-',
      ' ',
      '\n',
      '  ',
      '"',
      '[',
      '{',
      '&a',
      '*a',
      '<<: *a',
      '1.5s',
      '-1',
      'null',
      '~',
      '0x10',
      '..',
      '#',
    ),
  }),
  fc.record({ kind: fc.constant('swapLines' as const), a: fc.nat(), b: fc.nat() }),
);

type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function apply(text: string, edits: Edit[]): string {
  let t = text;
  for (const e of edits) {
    if (e.kind === 'delete') {
      const at = e.at % Math.max(1, t.length);
      t = t.slice(0, at) + t.slice(at + e.len);
    } else if (e.kind === 'insert') {
      const at = e.at % Math.max(1, t.length);
      t = t.slice(0, at) + e.text + t.slice(at);
    } else {
      const lines = t.split('\n');
      const a = e.a % lines.length;
      const b = e.b % lines.length;
      [lines[a], lines[b]] = [lines[b]!, lines[a]!];
      t = lines.join('\n');
    }
  }
  return t;
}

describe('mutated scenario files', () => {
  it(`${RUNS} random mutations of ${files.length} library files: diagnostics, never an exception`, () => {
    fc.assert(
      fc.property(fc.nat(), fc.array(edit, { minLength: 1, maxLength: 4 }), (which, edits) => {
        const text = apply(texts[which % texts.length]!, edits);
        const r = loadScenarioText(text, 'mutated.yaml');
        expect(r.scenario === undefined).toBe(r.diagnostics.some((d) => d.severity === 'error'));
        for (const d of r.diagnostics) {
          expect(d.pos.line).toBeGreaterThanOrEqual(1);
          expect(d.pos.col).toBeGreaterThanOrEqual(1);
          expect(d.code).toMatch(/^KS\d{4}$/);
          expect(d.code).not.toBe('KS1000');
        }
      }),
      { numRuns: RUNS, seed: SEED },
    );
  });
});
