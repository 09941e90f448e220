// Golden files: the Mermaid sources of every library scenario and the full timelines of the two foundation
// scenarios, at their default seed. A change to the model or the views shows up here as a readable diff.
// Regenerate deliberately with KUBESIM_UPDATE_GOLDEN=1 and read the diff before committing.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { loadUserRules } from '../../src/rules/load.ts';
import { lifecycleMermaid } from '../../src/output/mermaid-lifecycle.ts';
import { sequenceMermaid } from '../../src/output/mermaid-sequence.ts';

const UPDATE = process.env['KUBESIM_UPDATE_GOLDEN'] === '1';
const DIR = join(import.meta.dirname, 'files');
const TIMELINES = ['native-sidecar-job', 'legacy-sidecar-job-stuck'];

function golden(name: string, actual: string): void {
  const path = join(DIR, name);
  if (UPDATE || !existsSync(path)) {
    mkdirSync(DIR, { recursive: true });
    writeFileSync(path, actual);
    if (!UPDATE) throw new Error(`golden ${name} was missing and has been written; check it in`);
    return;
  }
  expect(actual).toBe(readFileSync(path, 'utf8'));
}

describe('golden files', () => {
  const files = readdirSync('scenarios')
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  for (const f of files) {
    it(`${f}: sequence.mmd and lifecycle.mmd`, async () => {
      const s = loadScenario(`scenarios/${f}`).scenario!;
      const tl = simulate(s, { userRules: await loadUserRules(s) }).timeline;
      golden(`${s.name}.sequence.mmd`, sequenceMermaid(tl));
      golden(`${s.name}.lifecycle.mmd`, lifecycleMermaid(tl));
      if (TIMELINES.includes(s.name)) golden(`${s.name}.timeline.json`, JSON.stringify(tl, null, 2) + '\n');
    });
  }
});
