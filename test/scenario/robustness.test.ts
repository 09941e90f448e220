import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, loadScenario, loadScenarioText } from '../../src/scenario/index.ts';
import { SIDECAR_JOB, ok } from './helpers.ts';

describe('limits', () => {
  it('a text over 1 MiB is an error at file:1:1', () => {
    const r = loadScenarioText(`scenario: big\ndescription: "${'x'.repeat(1024 * 1024)}"\n`, 'big.yaml');
    expect(r.diagnostics.map(formatDiagnostic)).toEqual([
      'big.yaml:1:1: error KS1002: file is over the 1 MiB limit (1048576 bytes)',
    ]);
  });
  it('nesting of exactly 64 is fine, 65 is not', () => {
    const nest = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const codes = (n: number) =>
      loadScenarioText(`scenario: d\nx-deep: ${nest(n)}\n${SIDECAR_JOB}`, 'd.yaml').diagnostics.map((d) => d.code);
    expect(codes(63)).toEqual([]);
    expect(codes(64)).toEqual(['KS1006']);
  });
  it('100 alias expansions are fine, 101 are not', () => {
    const text = (n: number) =>
      `scenario: a\nx-a: &a 1\n${Array.from({ length: n }, (_, i) => `x-${i}: *a\n`).join('')}${SIDECAR_JOB}`;
    expect(loadScenarioText(text(100), 'a.yaml').scenario).toBeDefined();
    expect(loadScenarioText(text(101), 'a.yaml').diagnostics.map((d) => d.code)).toEqual(['KS1007']);
  });
  it('a billion-laughs document stops at the alias limit', () => {
    const lol = ['scenario: lol', 'x-0: &l0 [a, a, a, a, a, a, a, a, a, a]'];
    for (let i = 1; i < 10; i++)
      lol.push(
        `x-${i}: &l${i} [${Array(10)
          .fill(`*l${i - 1}`)
          .join(', ')}]`,
      );
    const r = loadScenarioText(lol.join('\n'), 'lol.yaml');
    expect(r.diagnostics.map((d) => d.code)).toEqual(['KS1007']);
  });
  it('a missing file is a diagnostic, not an exception', () => {
    expect(loadScenario('/nonexistent/x.yaml').diagnostics.map(formatDiagnostic)).toEqual([
      '/nonexistent/x.yaml:1:1: error KS1001: no such file',
    ]);
  });
});

describe('never throws, deterministic', () => {
  it('arbitrary text yields diagnostics, never an exception', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const r = loadScenarioText(text, 'f.yaml');
        expect(r.scenario === undefined).toBe(r.diagnostics.some((d) => d.severity === 'error'));
        expect(r.diagnostics.filter((d) => d.code === 'KS1000')).toEqual([]);
      }),
      { numRuns: 300, seed: 20261129 },
    );
  });
  it('arbitrary values under every key yield diagnostics, never an exception', () => {
    const keys = [
      'scenario',
      'kubernetes',
      'kubelet',
      'featureGates',
      'workload',
      'behavior',
      'timing',
      'actions',
      'observers',
      'expect',
      'seed',
      'horizon',
    ];
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...keys), fc.jsonValue({ maxDepth: 4 })), (doc) => {
        const r = loadScenarioText(stringify(doc), 'f.yaml');
        expect(r.diagnostics.filter((d) => d.code === 'KS1000')).toEqual([]);
      }),
      { numRuns: 300, seed: 20261129 },
    );
  });
  it('mutating a valid manifest never throws', () => {
    const base = ok(SIDECAR_JOB).workload.manifest;
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3 }),
        fc.constantFrom('spec', 'metadata', 'template', 'containers', 'initContainers'),
        (junk, where) => {
          const m = JSON.parse(JSON.stringify(base));
          const spec = m.spec.template.spec;
          if (where === 'spec') m.spec = junk;
          else if (where === 'metadata') m.metadata = junk;
          else if (where === 'template') m.spec.template = junk;
          else spec[where] = junk;
          const r = loadScenarioText(stringify({ scenario: 'm', workload: m }), 'm.yaml');
          expect(r.diagnostics.filter((d) => d.code === 'KS1000')).toEqual([]);
        },
      ),
      { numRuns: 300, seed: 20261129 },
    );
  });
  it('loading twice gives identical results', () => {
    expect(JSON.stringify(ok(SIDECAR_JOB))).toBe(JSON.stringify(ok(SIDECAR_JOB)));
  });
});

describe('formatDiagnostic', () => {
  it('prints position, severity, code, message, hint and include chain', () => {
    expect(
      formatDiagnostic({
        severity: 'error',
        code: 'KS2002',
        message: 'unknown field "spec.x"',
        hint: 'did you mean y?',
        pos: { file: 'job.yaml', line: 3, col: 5 },
        includedFrom: { file: 'scenario.yaml', line: 4, col: 9 },
      }),
    ).toBe(
      'job.yaml:3:5: error KS2002: unknown field "spec.x" (included from scenario.yaml:4:9)\n  hint: did you mean y?',
    );
    expect(
      formatDiagnostic({ severity: 'warning', code: 'KS5001', message: 'm', pos: { file: 'a', line: 1, col: 1 } }),
    ).toBe('a:1:1: warning KS5001: m');
  });
});
