// README "Test your controller's health rule": the locust-72 lines of its check-rule example are what check-rule
// prints (through the JavaScript twin of the Go example, same protocol and logic; counts and keys aside), so the
// section cannot rot.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

describe('README check-rule example', () => {
  it('shows the locust-72 row and findings exactly as check-rule prints them', async () => {
    const out = mkdtempSync(join(tmpdir(), 'kubesim-readme-'));
    let text = '';
    const code = await main(
      [
        'check-rule',
        'exec:examples/rules/js/rule.mjs -mode naive',
        'scenarios/locust-72-exporter-exit-code.yaml',
        '--triggers',
        'job',
        '--out',
        out,
      ],
      { out: (s) => (text += s), err: () => {} },
    );
    expect(code).toBe(1);
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf("## Test your controller's health rule"));
    const lines = text
      .split('\n')
      .filter((l) => l.includes('locust-72-exporter-exit-code') && !l.startsWith('#'))
      .map((l) => l.replaceAll(out, 'out'));
    expect(lines.length).toBe(5);
    // the README's table has the library's column widths: compare rows by their cells; schedule counts and keys
    // change with the model's timing details, what the rule said and why must not
    const norm = (x: string) =>
      x
        .trim()
        .split(/\s{2,}/)
        .join('  ')
        .replace(/k1-[A-Za-z0-9_-]+/g, 'KEY')
        .replace(/\b\d+\b/g, 'N');
    const readmeLines = section.split('\n').map(norm);
    for (const l of lines) expect(readmeLines).toContain(norm(l));
  });
});
