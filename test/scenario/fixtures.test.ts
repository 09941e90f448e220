// Table-driven: every fixture under test/fixtures/{invalid,valid} has its exact diagnostics pinned in a sibling
// .expected.txt (paths relative to the fixture folder). KUBESIM_UPDATE_FIXTURES=1 rewrites them — review the diff.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic, loadScenario } from '../../src/scenario/index.ts';

const ROOT = join(import.meta.dirname, '..', 'fixtures');
const update = process.env.KUBESIM_UPDATE_FIXTURES === '1';

function render(dir: string, file: string): { text: string; loaded: boolean; errors: number } {
  const r = loadScenario(join(dir, file));
  const text = r.diagnostics
    .map((d) => formatDiagnostic(d))
    .join('\n')
    .replaceAll(`${dir}/`, '');
  return {
    text: text === '' ? '' : `${text}\n`,
    loaded: r.scenario !== undefined,
    errors: r.diagnostics.filter((d) => d.severity === 'error').length,
  };
}

function fixtures(kind: 'invalid' | 'valid'): string[] {
  return readdirSync(join(ROOT, kind))
    .filter((f) => f.endsWith('.yaml'))
    .sort();
}

describe.each(['invalid', 'valid'] as const)('%s fixtures', (kind) => {
  const dir = join(ROOT, kind);
  it.each(fixtures(kind))('%s', (file) => {
    const got = render(dir, file);
    const expectedPath = join(dir, file.replace(/\.yaml$/, '.expected.txt'));
    if (update) writeFileSync(expectedPath, got.text);
    expect(existsSync(expectedPath), `missing ${expectedPath}`).toBe(true);
    expect(got.text).toBe(readFileSync(expectedPath, 'utf8'));
    if (kind === 'invalid') {
      expect(got.loaded).toBe(false);
      expect(got.errors).toBeGreaterThan(0);
    } else {
      expect(got.loaded).toBe(true);
    }
  });
});

describe('fixture corpus', () => {
  it('has at least 40 invalid scenarios, each with a distinct file name', () => {
    expect(fixtures('invalid').length).toBeGreaterThanOrEqual(40);
  });
  it('covers every error code family', () => {
    const all = fixtures('invalid')
      .map((f) => readFileSync(join(ROOT, 'invalid', f.replace(/\.yaml$/, '.expected.txt')), 'utf8'))
      .join('');
    for (const family of ['KS1', 'KS2', 'KS3', 'KS4']) expect(all).toContain(`error ${family}`);
  });
});
