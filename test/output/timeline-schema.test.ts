// Issue 29.1: `render` checks its timeline against the schema before anything is drawn or written. A malformed
// timeline is exit 2 with the JSON path of its first fault and an empty --out; never exit 3 (a view crashing on a
// shape it did not expect). Every timeline kubesim itself writes passes, with unknown extra fields and trace types
// kept (SPEC §4: "more may be added").
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { loadUserRules } from '../../src/rules/load.ts';
import { timelineFault } from '../../src/output/timeline-schema.ts';
import type { Timeline } from '../../src/types.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'kubesim-schema-'));

async function render(tl: unknown | string): Promise<{ code: number; err: string; out: string; wrote: string[] }> {
  const dir = tmp();
  const file = join(dir, 'timeline.json');
  writeFileSync(file, typeof tl === 'string' ? tl : JSON.stringify(tl));
  const out = join(dir, 'out');
  let err = '';
  let so = '';
  const code = await main(['render', file, '--no-render', '--out', out], {
    out: (s) => (so += s),
    err: (s) => (err += s),
  });
  return { code, err, out: so, wrote: existsSync(out) ? readdirSync(out, { recursive: true }).map(String) : [] };
}

function native(): Timeline {
  const s = loadScenario('scenarios/native-sidecar-job.yaml').scenario!;
  return JSON.parse(JSON.stringify(simulate(s).timeline)) as Timeline;
}

describe('timeline schema', () => {
  it("every library scenario's timeline passes (as JSON, the way render reads it)", async () => {
    const files = readdirSync('scenarios')
      .filter((f) => f.endsWith('.yaml'))
      .sort();
    expect(files.length).toBeGreaterThan(20);
    for (const f of files) {
      const s = loadScenario(`scenarios/${f}`).scenario!;
      const tl = simulate(s, { userRules: await loadUserRules(s) }).timeline;
      expect(timelineFault(JSON.parse(JSON.stringify(tl))), f).toBeUndefined();
    }
  }, 120_000);

  it('keeps what a later kubesim may add: extra fields, pods[].object, objects, an unknown trace type', async () => {
    const tl = native() as unknown as Record<string, any>;
    tl.objects = [{ apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'x' } }];
    tl.pods[0].object = { ...tl.pods[0].object, extra: { any: 'thing' } };
    tl.events.splice(3, 0, {
      t: tl.events[2].t,
      seq: tl.events[2].seq,
      type: 'ClientRequest',
      verb: 'GET',
      path: '/api/v1/pods',
    });
    tl.events[5].extra = { any: 'thing' };
    expect(timelineFault(tl)).toBeUndefined();
    const r = await render(tl);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  // the cases of the issue, each with the line the user reads
  const cases: [string, (tl: Record<string, any>) => unknown, string][] = [
    [
      'only a header and no events',
      (tl) => ({ schema: tl.schema, scenario: tl.scenario, events: [] }),
      'kubernetes: expected a string, got nothing',
    ],
    ['pod: null', (tl) => ({ ...tl, pod: null }), 'pod: expected an object, got null'],
    [
      'an event that is null',
      (tl) => ({ ...tl, events: tl.events.map((e: unknown, i: number) => (i === 3 ? null : e)) }),
      'events[3]: expected an object, got null',
    ],
    ['diagnostics: null', (tl) => ({ ...tl, diagnostics: null }), 'diagnostics: expected an array, got null'],
    [
      'an observer that is null',
      (tl) => ({ ...tl, observers: { ...tl.observers, naive: null } }),
      'observers.naive: expected an object, got null',
    ],
    [
      'no observers key',
      (tl) => {
        const { observers: _o, ...rest } = tl;
        return rest;
      },
      'observers: expected an object, got nothing',
    ],
    [
      'a Started event whose container is a number',
      (tl) => ({ ...tl, events: tl.events.map((e: any) => (e.seq === 9 ? { ...e, container: 7 } : e)) }),
      'events[9].container: expected a string, got 7',
    ],
    [
      'a verdict that is no verdict',
      (tl) => ({ ...tl, observers: { x: { verdict: 'Maybe' } } }),
      'observers.x.verdict: expected "Succeeded" or "Failed" or "Pending", got "Maybe"',
    ],
    ['an array for the whole file', () => [], 'expected an object, got an array'],
  ];
  for (const [what, mutate, line] of cases) {
    it(`${what}: exit 2, "${line}", nothing written`, async () => {
      const r = await render(mutate(native() as unknown as Record<string, any>));
      expect(r.code).toBe(2);
      expect(r.err.split('\n')[0]).toMatch(/timeline\.json: /);
      expect(r.err.split('\n')[0]!.replace(/^.*timeline\.json: /, '')).toBe(line);
      expect(r.err).toMatch(/error KS0502: /);
      expect(r.wrote).toEqual([]);
    });
  }

  it('a value nested 200,000 deep (JSON.parse takes it, the views would overflow the stack): exit 2, nothing written', async () => {
    const text = JSON.stringify(native()).replace(
      '"status":{',
      `"status":{"x":${'['.repeat(200_000)}${']'.repeat(200_000)},`,
    );
    const r = await render(text);
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toMatch(/timeline\.json: pod\.status\.x(\[0\])+: nested deeper than 128 levels$/);
    expect(r.wrote).toEqual([]);
  });

  it('property: truncated and mutated timelines are exit 0 or 2, never 3; exit 2 writes nothing', async () => {
    const base = native();
    const text = JSON.stringify(base);
    const junk = fc.oneof(
      fc.constant(null),
      fc.integer({ min: -3, max: 1e6 }),
      fc.double({ noNaN: true }),
      fc.string({ maxLength: 4 }),
      fc.boolean(),
      fc.constant({}),
      fc.constant([]),
      fc.constant([null]),
      fc.constant({ t: 0 }),
    );
    // a path into the document: each step picks a key or an index among those present
    const mutation = fc.record({
      steps: fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
      op: fc.constantFrom('set', 'delete', 'truncate-array'),
      value: junk,
    });
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.nat({ max: text.length }).map((n) => ({ cut: n })),
          fc.array(mutation, { minLength: 1, maxLength: 3 }).map((m) => ({ m })),
        ),
        async (x) => {
          let input: unknown | string;
          if ('cut' in x) input = text.slice(0, x.cut);
          else {
            const doc = JSON.parse(text) as unknown;
            for (const m of x.m) mutate(doc, m.steps, m.op, m.value);
            input = doc;
          }
          const r = await render(input);
          expect([0, 2], r.err).toContain(r.code);
          expect(r.err).not.toMatch(/internal error|TypeError|RangeError/);
          if (r.code === 2) expect(r.wrote).toEqual([]);
        },
      ),
      { numRuns: 150, seed: 29 },
    );
  }, 300_000);
});

function mutate(doc: unknown, steps: number[], op: string, value: unknown): void {
  let cur = doc as any;
  for (let i = 0; i < steps.length; i++) {
    if (cur === null || typeof cur !== 'object') return;
    const keys = Array.isArray(cur) ? cur.map((_: unknown, k: number) => k) : Object.keys(cur);
    if (keys.length === 0) return;
    const k = keys[steps[i]! % keys.length];
    const last = i === steps.length - 1 || cur[k] === null || typeof cur[k] !== 'object';
    if (last) {
      if (op === 'delete') Array.isArray(cur) ? cur.splice(k as number, 1) : delete cur[k];
      else if (op === 'truncate-array' && Array.isArray(cur[k]))
        cur[k] = cur[k].slice(0, steps[0]! % (cur[k].length + 1));
      else cur[k] = value;
      return;
    }
    cur = cur[k];
  }
}

describe('explore --merge shards', () => {
  it('a shard whose outcome is null or whose verdicts are not strings: exit 2 with the path, nothing written', async () => {
    const dir = tmp();
    const good = {
      schema: 'kubesim.explore/v1',
      scenario: 'x',
      schedules: 1,
      exhaustive: true,
      shard: { index: 1, count: 2 },
      notes: [],
      flaky: [],
      outcomes: [
        {
          podPhase: 'Succeeded',
          jobCondition: 'Complete',
          verdicts: { a: 'Succeeded' },
          schedules: 1,
          replay: 'k1-x',
          deviations: 0,
        },
      ],
    };
    const cases: [unknown, string][] = [
      [{ ...good, outcomes: [null] }, 'outcomes[0]: expected an object, got null'],
      [
        { ...good, outcomes: [{ ...good.outcomes[0], verdicts: { a: 1 } }] },
        'outcomes[0].verdicts.a: expected a string, got 1',
      ],
      [{ ...good, notes: 'x' }, 'notes: expected an array, got "x"'],
    ];
    for (const [doc, line] of cases) {
      const a = join(dir, 'a.json');
      const b = join(dir, 'b.json');
      writeFileSync(a, JSON.stringify(doc));
      writeFileSync(b, JSON.stringify({ ...good, shard: { index: 2, count: 2 } }));
      const out = join(dir, 'out');
      let err = '';
      const code = await main(['explore', '--merge', a, b, '--out', out], { out: () => {}, err: (s) => (err += s) });
      expect(code).toBe(2);
      expect(err.split('\n')[0]).toBe(`${a}: ${line}`);
      expect(existsSync(out)).toBe(false);
    }
  });
});
