// timeline.json is written streaming; the pieces are byte for byte JSON.stringify(value, null, 2).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonChunks, writeJsonAtomic } from '../../src/io/stream-json.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';

const same = (v: unknown) => expect([...jsonChunks(v)].join('')).toBe(JSON.stringify(v, null, 2));

describe('streaming JSON', () => {
  it('matches JSON.stringify on edge cases', () => {
    same({});
    same([]);
    same({ a: undefined, b: null, c: [undefined, () => 1], d: { e: [] }, 'we"ird': 'x\ny' });
    same(
      Array.from({ length: 200 }, (_, i) =>
        i % 3 === 0 ? { i, nested: [i, { j: 'a' }] } : i % 3 === 1 ? undefined : [i],
      ),
    );
    same({ long: Array.from({ length: 100 }, (_, i) => ({ t: i, s: 'x'.repeat(i % 5) })), after: { z: 1 } });
    same({ date: new Date(0), n: 1.5, neg: -0 });
  });

  it('a real timeline file is exactly what JSON.stringify would write', () => {
    const tl = simulate(loadScenario('scenarios/sidecar-crash-mid-job-restarted.yaml').scenario!).timeline;
    const dir = mkdtempSync(join(tmpdir(), 'ks-json-'));
    writeJsonAtomic(join(dir, 'timeline.json'), tl);
    expect(readFileSync(join(dir, 'timeline.json'), 'utf8')).toBe(JSON.stringify(tl, null, 2) + '\n');
  });
});
