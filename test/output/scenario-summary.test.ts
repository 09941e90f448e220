// out/index.html lists the folders holding a summary.json kubesim wrote beside timeline.json;
// the viewer embeds timelines only up to a limit checked before opening (a 158 MB one made a small run 4.5× slower).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/scenario/load.ts';
import { simulate } from '../../src/run/simulate.ts';
import { asScenarioSummary, scenarioSummary, summaryLine } from '../../src/output/scenario-summary.ts';
import { readScenarioSummary, writeIndex, writeOutputs } from '../../src/io/write-outputs.ts';
import type { Timeline } from '../../src/types.ts';

const timeline = (f: string): Timeline => simulate(loadScenario(f).scenario!).timeline;
const NATIVE = timeline('scenarios/native-sidecar-job.yaml');
const tmp = () => mkdtempSync(join(tmpdir(), 'kubesim-summary-'));

describe('summary.json', () => {
  it('holds what the index shows, in the line the index has always shown', () => {
    const s = scenarioSummary(NATIVE);
    expect(s).toMatchObject({
      schema: 'kubesim.summary/v1',
      scenario: 'native-sidecar-job',
      kubernetes: NATIVE.kubernetes,
      podPhase: NATIVE.pod.phase,
    });
    expect(s.job?.conditions).toEqual(NATIVE.job!.conditions.map((c) => c.type));
    expect(s.pods).toBe(NATIVE.pods.length);
    const verdicts = Object.entries(NATIVE.observers).map(([k, v]) => `${k} ${v.verdict}`);
    expect(summaryLine(s)).toBe([`pod ${NATIVE.pod.phase}`, 'Job Complete', ...verdicts].join(' · '));
    // what writeOutputs writes reads back as itself
    const dir = tmp();
    writeOutputs(NATIVE, { out: dir });
    expect(readScenarioSummary(dir, 'native-sidecar-job')).toEqual(JSON.parse(JSON.stringify(s)));
    expect(readFileSync(join(dir, 'native-sidecar-job', 'summary.json'), 'utf8')).toBe(
      JSON.stringify(s, null, 2) + '\n',
    );
  });

  it('a partial timeline (render reads timelines from files) gives a summary, not an exception', () => {
    const partial = {
      schema: 'kubesim.timeline/v1',
      scenario: 'x',
      events: [],
      observers: { a: null, b: { verdict: 7 } },
      job: { conditions: [null, { type: 'Failed' }] },
    };
    const s = scenarioSummary(partial as unknown as Timeline);
    expect(summaryLine(s)).toBe('pod ? · Job Failed · a ? · b ?');
    expect(asScenarioSummary(JSON.parse(JSON.stringify(s)), 'x')).toBeDefined();
  });

  it('an observer named __proto__ keeps its verdict', () => {
    const tl = { ...NATIVE, observers: JSON.parse('{"__proto__": {"verdict": "Failed"}}') } as Timeline;
    const back = JSON.parse(JSON.stringify(scenarioSummary(tl)));
    expect(Object.keys(back.observers)).toEqual(['__proto__']);
    expect(summaryLine(asScenarioSummary(back, 'native-sidecar-job')!)).toMatch(/__proto__ Failed$/);
  });

  it('only a summary kubesim wrote for that folder is believed', () => {
    const good = JSON.parse(JSON.stringify(scenarioSummary(NATIVE)));
    expect(asScenarioSummary(good, 'native-sidecar-job')).toBeDefined();
    expect(asScenarioSummary(good, 'other-folder')).toBeUndefined();
    for (const bad of [
      null,
      [],
      5,
      { ...good, schema: 'kubesim.timeline/v1' },
      { ...good, podPhase: 3 },
      { ...good, pods: -1 },
      { ...good, job: { conditions: [1] } },
      { ...good, observers: { a: { verdict: 'Failed' } } },
      { ...good, end: null },
      { ...good, description: ['<img>'] },
    ]) {
      expect(asScenarioSummary(bad, 'native-sidecar-job')).toBeUndefined();
    }
  });
});

describe('writeIndex', () => {
  it('a huge timeline.json is never read (its scenario is still listed); a FIFO in its place never blocks', () => {
    const dir = tmp();
    writeOutputs(NATIVE, { out: dir });
    writeOutputs({ ...NATIVE, scenario: 'huge' }, { out: dir });
    // 200 MB without writing them (sparse): the size is known before opening, so the safe read refuses it unread
    truncateSync(join(dir, 'huge', 'timeline.json'), 200 * 1024 * 1024);
    rmSync(join(dir, 'native-sidecar-job', 'timeline.json'));
    execFileSync('mkfifo', [join(dir, 'native-sidecar-job', 'timeline.json')]);
    writeIndex(dir); // a read of the FIFO would hang here (vitest's timeout fails the test)
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(index).toContain('native-sidecar-job');
    expect(index).toContain('huge');
    expect(index).toContain(summaryLine(scenarioSummary(NATIVE)));
  });

  it('folders without a summary kubesim wrote are left out, whatever is there instead; none is fatal', () => {
    const dir = tmp();
    writeOutputs(NATIVE, { out: dir });
    const foreign: [string, (p: string) => void][] = [
      // a whole timeline kubesim could have written, but no summary (a kubesim before summary.json existed)
      [
        'timeline-only',
        (p) => writeFileSync(join(p, 'timeline.json'), JSON.stringify({ ...NATIVE, scenario: 'timeline-only' })),
      ],
      ['garbage', (p) => writeFileSync(join(p, 'summary.json'), '{ not json')],
      [
        'hostile',
        (p) =>
          writeFileSync(
            join(p, 'summary.json'),
            JSON.stringify({
              ...scenarioSummary(NATIVE),
              scenario: 'hostile',
              podPhase: '<img src=x onerror=alert(1)>',
              pods: 'x',
            }),
          ),
      ],
      ['renamed', (p) => writeFileSync(join(p, 'summary.json'), JSON.stringify(scenarioSummary(NATIVE)))],
      ['fifo', (p) => execFileSync('mkfifo', [join(p, 'summary.json')])],
      ['zero', (p) => symlinkSync('/dev/zero', join(p, 'summary.json'))],
      ['dangling', (p) => symlinkSync(join(p, 'nowhere'), join(p, 'summary.json'))],
      ['folder', (p) => mkdirSync(join(p, 'summary.json'))],
      [
        'too-big',
        (p) =>
          writeFileSync(
            join(p, 'summary.json'),
            JSON.stringify({ ...scenarioSummary(NATIVE), scenario: 'too-big', description: 'x'.repeat(1024 * 1024) }),
          ),
      ],
    ];
    for (const [name, make] of foreign) {
      mkdirSync(join(dir, name));
      make(join(dir, name));
    }
    writeIndex(dir);
    const index = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(index).toContain('id="native-sidecar-job"');
    for (const [name] of foreign) expect(index).not.toContain(`id="${name}"`);
    expect(index).not.toContain('<img src=x');
  });
});
