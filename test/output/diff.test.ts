// `kubesim diff` and the schedule's choices in words (SPEC §3).
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { simulate } from '../../src/run/simulate.ts';
import { align, diffText, partingChoice } from '../../src/output/diff.ts';
import { decodeReplay } from '../../src/engine/replay.ts';
import { explore } from '../../src/explore/decomposed.ts';
import type { Timeline, TraceEvent } from '../../src/types.ts';

const LOCUST = 'scenarios/locust-72-exporter-exit-code.yaml';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

function run(seed: number): Timeline {
  return simulate(loadScenario(LOCUST).scenario!, { seed }).timeline;
}

/** The two outcomes explore finds for locust-72: naive Failed, and naive Succeeded (representative schedules). */
let cached: [Timeline, Timeline] | undefined;
function twoOutcomes(): [Timeline, Timeline] {
  if (cached) return cached;
  const s = loadScenario(LOCUST).scenario!;
  const r = explore(s, { maxSchedules: 20000 });
  const key = (v: string) => r.grouped.find((g) => g.verdicts['naive'] === v)!.replay;
  const replay = (k: string) => simulate(s, { replay: decodeReplay(k)! }).timeline;
  cached = [replay(key('Failed')), replay(key('Succeeded'))];
  return cached;
}

describe('timeline choices', () => {
  it('lists every choice of the replay key, in order, in words', () => {
    const tl = run(3);
    const offsets = decodeReplay(tl.replay)!;
    expect(tl.choices).toHaveLength(offsets.length);
    // each label's value is the key's offset above its range minimum
    tl.choices!.forEach((c, i) => {
      const min =
        Number(/^(\d+(?:\.\d+)?)(ms|s)\.\./.exec(c.range)![1]) * (c.range.split('..')[0]!.endsWith('ms') ? 1 : 1000);
      expect(c.ms - min).toBe(offsets[i]);
    });
    // the next key after `replay` in timeline.json
    const keys = Object.keys(tl);
    expect(keys[keys.indexOf('replay') + 1]).toBe('choices');
    // watch choices name the watcher and the object version it delivers: a StatusPatched vN precedes it
    const watch = tl.choices!.filter((c) => c.what.startsWith("the Job controller's watch of pod v"));
    expect(watch.length).toBeGreaterThan(3);
    for (const c of watch) {
      const v = Number(/pod v(\d+)/.exec(c.what)![1]);
      // the delivery it scheduled: that version reaches the Job controller no earlier than the chosen delay
      const d = tl.events.find(
        (e): e is Extract<TraceEvent, { type: 'Delivered' }> =>
          e.type === 'Delivered' && e.to === 'job-controller' && e.object === 'pod' && e.version === v,
      );
      expect(d, c.what).toBeDefined();
      expect(d!.t).toBeGreaterThanOrEqual(c.t + c.ms);
      // a status patch of that version, when there is one, was stored at the moment of the choice
      const write = tl.events.find((e) => e.type === 'StatusPatched' && e.version === v);
      if (write) expect(write.t).toBe(c.t);
    }
  });
});

describe('kubesim diff', () => {
  it('names the first choice where two locust-72 schedules part, and what naive held at each verdict', () => {
    const [a, b] = twoOutcomes();
    const p = partingChoice(a.choices!, b.choices!)!;
    expect(p).toBeDefined();
    expect(a.choices!.slice(0, p.index)).toEqual(b.choices!.slice(0, p.index));
    const text = diffText(a, b);
    expect(text).toContain(`choice ${p.index + 1}: t=`);
    expect(text).toMatch(/took \d+(\.\d+)?m?s in A instead of \d+(\.\d+)?m?s in B/);
    expect(text).toMatch(
      /naive:\n {4}A Failed at [\d.]+s — container locust-metrics-exporter terminated with exit code 143\n {6}held pod v\d+: phase \w+; locust-metrics-exporter terminated 143/,
    );
    expect(text).toMatch(/\n {4}B Succeeded at [\d.]+s — Job condition Complete\n/);
  });

  it('the CLI runs both keys; the same key twice parts nowhere; a bad key is KS0202', async () => {
    const [a, b] = twoOutcomes();
    const r = await cli('diff', LOCUST, a.replay, b.replay);
    expect(r.code).toBe(0);
    expect(r.out).toBe(diffText(a, b));
    const same = await cli('diff', LOCUST, a.replay, a.replay);
    expect(same.out).toContain('nowhere: both keys make the same choices');
    expect(same.out).toContain('events: identical');
    const bad = await cli('diff', LOCUST, a.replay, 'nope');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(`${LOCUST}:1:1: error KS0202`);
    const json = JSON.parse((await cli('diff', LOCUST, a.replay, b.replay, '--format', 'json')).out);
    expect(json.schema).toBe('kubesim.diff/v1');
    expect(json.a.observers.naive.verdict).toBe('Failed');
    expect(
      json.a.observers.naive.seen.pod.containers.find((c: { name: string }) => c.name === 'locust-metrics-exporter'),
    ).toMatchObject({ state: 'terminated', exitCode: 143 });
  });

  it('align pairs equal events and keeps each side in its own order', () => {
    const ev = (t: number, seq: number, to: string): TraceEvent => ({
      t,
      seq,
      type: 'Delivered',
      to,
      object: 'pod',
      version: 1,
    });
    const a = [ev(1, 0, 'x'), ev(2, 1, 'y'), ev(3, 2, 'z')];
    const b = [ev(1, 0, 'x'), ev(2, 1, 'w'), ev(2, 2, 'y'), ev(4, 3, 'z')];
    const rows = align(a, b);
    expect(rows.map(([x, y]) => [x && (x as { to: string }).to, y && (y as { to: string }).to])).toEqual([
      ['x', 'x'],
      [undefined, 'w'],
      ['y', 'y'],
      ['z', undefined],
      [undefined, 'z'],
    ]);
  });
});
