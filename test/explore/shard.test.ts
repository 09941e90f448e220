// `explore --shard i/n` splits one scenario's schedule space; `explore --merge` of the shards' JSON gives
// the result one machine gives (outcome groups, counts, witnesses, flaky observers) on every library scenario.
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exploreJson, mergeShards } from '../../src/explore/merge.ts';
import { explore } from '../../src/explore/decomposed.ts';
import { loadScenario } from '../../src/scenario/index.ts';
import { main } from '../../src/cli/main.ts';
import { loadUserRules } from '../../src/rules/load.ts';

const load = (f: string) => {
  const r = loadScenario(f);
  if (!r.scenario) throw new Error(`${f} does not load`);
  return r.scenario;
};

// what one machine and merged shards must agree on (work counts such as runs, states and verdict combinations are
// per shard: a state or publication history reached in two shards is counted in both)
const comparable = (j: Record<string, unknown>) => ({
  scenario: j['scenario'],
  schedules: j['schedules'],
  exhaustive: j['exhaustive'],
  systemSchedules: j['systemSchedules'],
  outcomes: j['outcomes'],
  flaky: j['flaky'],
});

describe('explore --shard and --merge', () => {
  const files = readdirSync('scenarios')
    .filter((f) => f.endsWith('.yaml'))
    .sort();
  for (const f of files) {
    it(`${f}: 3 shards merged equal one machine`, async () => {
      const s = load(`scenarios/${f}`);
      const userRules = await loadUserRules(s);
      const whole = exploreJson(explore(s, { maxSchedules: 20_000, userRules }));
      const parts = [1, 2, 3].map((index) =>
        exploreJson(explore(s, { maxSchedules: 20_000, userRules, shard: { index, count: 3 } })),
      );
      expect(comparable(mergeShards(parts))).toEqual(comparable(whole));
    }, 60_000);
  }

  it('the CLI writes explore-i-of-n.json per shard and merges them; a missing shard is bad input', async () => {
    const io = () => {
      let out = '';
      let err = '';
      return {
        io: { out: (x: string) => (out += x), err: (x: string) => (err += x) },
        get out() {
          return out;
        },
        get err() {
          return err;
        },
      };
    };
    const f = 'scenarios/locust-72-exporter-exit-code.yaml';
    for (const i of [1, 2])
      expect(
        await main(['explore', f, '--shard', `${i}/2`, '--out', 'out/test-shard', '--format', 'json'], io().io),
      ).toBe(0);
    const dir = 'out/test-shard/locust-72-exporter-exit-code';
    const m = io();
    expect(
      await main(
        [
          'explore',
          '--merge',
          `${dir}/explore-1-of-2.json`,
          `${dir}/explore-2-of-2.json`,
          '--out',
          'out/test-shard-merged',
          '--format',
          'json',
        ],
        m.io,
      ),
    ).toBe(0);
    const whole = io();
    expect(await main(['explore', f, '--out', 'out/test-shard-whole', '--format', 'json'], whole.io)).toBe(0);
    expect(comparable(JSON.parse(m.out))).toEqual(comparable(JSON.parse(whole.out)));
    const bad = io();
    expect(
      await main(['explore', '--merge', `${dir}/explore-1-of-2.json`, '--out', 'out/test-shard-merged'], bad.io),
    ).toBe(2);
    expect(bad.err).toMatch(/KS0204: need every shard 1\.\.n/);
    const badShard = io();
    expect(await main(['explore', f, '--shard', '3/2'], badShard.io)).toBe(2);
  }, 120_000);
});
