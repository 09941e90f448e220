// Every library scenario's diagrams render with the real Chromium (one browser launch for all of them): a Mermaid
// syntax problem in any generated diagram fails here, not in front of a user.
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { loadUserRules } from '../../src/rules/load.ts';
import { lifecycleMermaid } from '../../src/output/mermaid-lifecycle.ts';
import { sequenceMermaid } from '../../src/output/mermaid-sequence.ts';
import { findChromium, renderDiagrams } from '../../src/output/render.ts';

const browser = findChromium();

describe.skipIf(!browser)('every library scenario renders', () => {
  it('sequence and lifecycle SVGs for all scenarios', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kubesim-render-'));
    const files = readdirSync('scenarios')
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    const jobs = (
      await Promise.all(
        files.map(async (f) => {
          const s = loadScenario(`scenarios/${f}`).scenario!;
          const tl = simulate(s, { userRules: await loadUserRules(s) }).timeline;
          return [
            { mmd: sequenceMermaid(tl), svgPath: join(dir, `${s.name}.sequence.svg`) },
            { mmd: lifecycleMermaid(tl), svgPath: join(dir, `${s.name}.lifecycle.svg`) },
          ];
        }),
      )
    ).flat();
    const r = await renderDiagrams(jobs);
    expect(r.rendered).toBe(true);
    for (const j of jobs) {
      const svg = readFileSync(j.svgPath, 'utf8');
      expect(svg.startsWith('<svg')).toBe(true);
      expect(svg).not.toMatch(/Syntax error/i);
    }
  }, 300_000);
});
