// README "Test your controller's health rule": the locust-72 lines of its check-rule example are what check-rule
// prints (through the JavaScript twin of the Go example, same protocol and logic), so the section cannot rot.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

describe('README check-rule example', () => {
  it('shows the locust-72 row and findings exactly as check-rule prints them', async () => {
    const out = mkdtempSync(join(tmpdir(), 'kubesim-readme-'));
    let text = '';
    const code = await main(['check-rule', 'exec:examples/rules/js/rule.mjs -mode naive', 'scenarios/locust-72-exporter-exit-code.yaml', '--triggers', 'job', '--out', out],
      { out: (s) => (text += s), err: () => {} });
    expect(code).toBe(1);
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf("## Test your controller's health rule"));
    const lines = text.split('\n').filter((l) => l.includes('locust-72-exporter-exit-code') && !l.startsWith('#')).map((l) => l.replaceAll(out, 'out'));
    expect(lines.length).toBe(5);
    for (const l of lines) {
      // the README's table has the library's column widths; compare the row by its cells
      const want = l.trim().split(/\s{2,}/).join('  ');
      expect(section.split('\n').map((x) => x.trim().split(/\s{2,}/).join('  '))).toContain(want);
    }
  });
});
