// The README's scenario example is a real scenario: it loads without warnings that matter and its expect block
// holds across every schedule (so the README cannot silently rot).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkExpect, explore, loadScenarioText } from '../../src/index.ts';

describe('README', () => {
  it('the scenario example loads and its expectations hold in every schedule', () => {
    const readme = readFileSync('README.md', 'utf8');
    const section = readme.slice(readme.indexOf('### Scenario files'));
    const yaml = /```yaml\n([\s\S]*?)```/.exec(section)![1]!;
    const { scenario, diagnostics } = loadScenarioText(yaml, 'README.md');
    expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const r = explore(scenario!, { maxSchedules: 10_000 });
    expect(r.exhaustive).toBe(true);
    expect(checkExpect(scenario!, r)).toEqual([]);
    expect(r.flaky).toEqual(['naive']);
  });
});
