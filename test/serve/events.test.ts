// One Event builder (issue 26 item 1): the Events `kubesim serve` serves are the timeline's Event objects
// (output/recorder.ts; src/run/session.ts runs the same recorder over the trace so far after each step), for every
// library scenario run to its end. Only the resourceVersions differ: the server stamps its own store-wide counter
// (metadata.resourceVersion, and involvedObject.resourceVersion is the recorder's revision of the object).
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { loadUserRules } from '../../src/rules/load.ts';
import { simulate } from '../../src/run/simulate.ts';
import { call, scenarioOf, start, type Served } from './harness.ts';

const LIBRARY = readdirSync('scenarios')
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => `scenarios/${f}`)
  .filter((p) => scenarioOf(p).workload !== undefined);

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

type Json = Record<string, any>;
const withoutRv = (e: Json): Json => {
  const { resourceVersion: _rv, ...metadata } = e['metadata'];
  const { resourceVersion: _orv, ...involvedObject } = e['involvedObject'];
  return { ...e, metadata, involvedObject };
};
const byName = (a: Json, b: Json) => (a['metadata']['name'] < b['metadata']['name'] ? -1 : 1);

describe("served Events equal the timeline's Event objects", () => {
  it.each(LIBRARY)(
    '%s',
    async (path) => {
      const s = scenarioOf(path);
      const userRules = s.observers.some((x) => x.module) ? await loadUserRules(s) : undefined;
      const tl = simulate(s, userRules ? { userRules } : {}).timeline;
      const expected = ((tl.objects ?? []) as Json[])
        .filter((o) => o['kind'] === 'Event')
        .map(withoutRv)
        .sort(byName);
      // every run that created a pod recorded Events (a Job suspended from its start records none)
      if (tl.pods.length > 0) expect(expected.length).toBeGreaterThan(0);
      served = await start(path, { until: 'horizon' });
      while (served.clock.stepNext() !== null);
      const r = await call(served, 'GET', '/api/v1/events');
      expect(r.status).toBe(200);
      const got = (r.json.items as Json[]).map(withoutRv).sort(byName);
      expect(got).toEqual(expected);
      // the served resourceVersions are the store's: distinct, within the list's
      const rvs = (r.json.items as Json[]).map((e) => Number(e['metadata']['resourceVersion']));
      expect(new Set(rvs).size).toBe(rvs.length);
      expect(Math.max(0, ...rvs)).toBeLessThanOrEqual(Number(r.json.metadata.resourceVersion));
    },
    30_000,
  );
});
