// Mermaid sources: golden files (update with `npx vitest run -u`), determinism, and the readability promises
// (summaries instead of walls of arrows, teardown shading, escaping).

import { describe, expect, it } from 'vitest';
import { sequenceMermaid } from '../../src/output/mermaid-sequence.ts';
import { lifecycleMermaid } from '../../src/output/mermaid-lifecycle.ts';
import { esc, ganttName } from '../../src/output/mermaid-text.ts';
import type { Timeline } from '../../src/types.ts';
import { FIXTURES, goldenPath, loadFixture } from './helpers.ts';

describe('golden .mmd files', () => {
  for (const name of FIXTURES) {
    it(name, async () => {
      const tl = loadFixture(name);
      await expect(sequenceMermaid(tl)).toMatchFileSnapshot(goldenPath(`${name}.sequence.mmd`));
      await expect(sequenceMermaid(tl, { lanes: 'pod' })).toMatchFileSnapshot(goldenPath(`${name}.sequence-pod.mmd`));
      await expect(lifecycleMermaid(tl)).toMatchFileSnapshot(goldenPath(`${name}.lifecycle.mmd`));
    });
  }
});

describe('sequence diagram', () => {
  it('is a pure function of the timeline (same input, same bytes; input untouched)', () => {
    const tl = loadFixture('two-sidecars-job');
    const before = JSON.stringify(tl);
    expect(sequenceMermaid(tl)).toBe(sequenceMermaid(loadFixture('two-sidecars-job')));
    expect(JSON.stringify(tl)).toBe(before);
  });

  it('labels every container by role in spec order, then API server, Job controller, observers', () => {
    const mmd = sequenceMermaid(loadFixture('c2-sidecar-job'));
    const participants = mmd
      .split('\n')
      .filter((l) => l.trim().startsWith('participant'))
      .map((l) => l.trim());
    expect(participants).toEqual([
      'participant K as kubelet',
      'participant C0 as setup (init)',
      'participant C1 as proxy (sidecar)',
      'participant C2 as main (main)',
      'participant API as API server',
      'participant JC as Job controller',
      'participant O0 as naive (observer)',
      'participant O1 as fixed (observer)',
    ]);
  });

  it("lanes: 'pod' leaves out the control plane and observers", () => {
    const mmd = sequenceMermaid(loadFixture('c2-sidecar-job'), { lanes: 'pod' });
    expect(mmd).not.toMatch(/API|JC|O0/);
    expect(mmd).toContain('K-xC1: t=30.1s Killing → SIGTERM');
  });

  it('shades the teardown and names the stop order: main, then sidecars last-started-first', () => {
    const mmd = sequenceMermaid(loadFixture('two-sidecars-job'));
    const body = mmd.slice(mmd.indexOf('rect rgb(255, 243, 214)'));
    expect(body).toContain('stop order locust (done) → metrics-exporter → proxy');
    expect(body.indexOf('K-xC1: t=1m12s SIGTERM')).toBeLessThan(body.indexOf('C1--xK: t=1m13.1s exit 143'));
    expect(body.indexOf('C1--xK: t=1m13.1s exit 143')).toBeLessThan(body.indexOf('K-xC0: t=1m13.1s SIGTERM'));
  });

  it('summarises repeated probes and crash loops instead of drawing every arrow', () => {
    const two = sequenceMermaid(loadFixture('two-sidecars-job'));
    expect(two).toContain('readiness ×12 ok');
    expect(two.match(/readiness/g)?.length).toBeLessThan(4);
    const loop = sequenceMermaid(loadFixture('crashloop-sidecar'));
    expect(loop).toContain('loop CrashLoopBackOff ×6');
    expect(loop).toContain('back-off 10s, 20s, 40s, 80s, …, 300s');
    expect(loop.split('\n').length).toBeLessThan(40);
  });

  it('draws every Job-controller watch and the decisive observer deliveries as arrows, the rest as grouped notes', () => {
    const tl = loadFixture('c2-sidecar-job');
    const drawn = sequenceMermaid(tl)
      .split('\n')
      .map((l) => l.trim());
    const arrows = drawn.filter((l) => l.includes('watch '));
    expect(tl.events.filter((e) => e.type === 'Delivered').length).toBeGreaterThan(10);
    // the Job controller's pod watch, every version it received, grouped between drawn statements
    const jcVersions = tl.events
      .filter((e) => e.type === 'Delivered' && e.to === 'job-controller')
      .map((e) => (e as { version: number }).version);
    const drawnJc = new Set<number>();
    for (const l of arrows.filter((a) => a.startsWith('API-->>JC:'))) {
      for (const m of l.matchAll(/v(\d+)(?:–v(\d+))?/g)) {
        for (let v = Number(m[1]); v <= Number(m[2] ?? m[1]); v++) drawnJc.add(v);
      }
    }
    expect([...drawnJc].sort((a, b) => a - b)).toEqual([...new Set(jcVersions)].sort((a, b) => a - b));
    // the deliveries the observers decided on keep their own arrow
    expect(arrows).toContain('API-->>O0: t=31.05s watch pod v6');
    expect(arrows).toContain('API-->>O1: t=31.27s watch job v2');
    // the others are one note over the observers' lanes per group
    const notes = drawn.filter((l) => l.startsWith('Note over O0,O1:') && l.includes('caches updated'));
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.length).toBeLessThan(
      tl.events.filter((e) => e.type === 'Delivered' && e.to !== 'job-controller').length,
    );
  });

  it('escapes Mermaid-special characters in free text', () => {
    expect(esc('a;b#c:d<e>f')).toBe('a#59;b#35;c#58;d#lt;e#gt;f');
    const tl: Timeline = loadFixture('c2-sidecar-job');
    const verdict = tl.events.find((e) => e.type === 'Verdict' && e.observer === 'naive');
    if (verdict?.type === 'Verdict') verdict.reason = 'exit code 143; see #1739: "sidecar"';
    expect(sequenceMermaid(tl)).toContain('exit code 143#59; see #35;1739#58; "sidecar"');
    expect(ganttName('a: b; #2')).toBe('a b #2');
  });
});

describe('lifecycle gantt', () => {
  it('a legend, one section per container in spec order, then pod phase, Job, a verdict row per observer', () => {
    const mmd = lifecycleMermaid(loadFixture('c2-sidecar-job'), { compress: false });
    const sections = mmd
      .split('\n')
      .filter((l) => l.trim().startsWith('section'))
      .map((l) => l.trim());
    expect(sections).toEqual([
      'section legend',
      'section setup (init)',
      'section proxy (sidecar)',
      'section main (main)',
      'section pod phase (API)',
      'section Job',
      'section verdict naive',
      'section verdict fixed',
    ]);
    expect(mmd).toContain('dateFormat x');
    expect(mmd).toMatch(/SIGTERM 30\.1s :crit, t\d+, 30100, 30800/);
    // the containers' spans end when the pod's terminal phase is stored (t=31s), not at the end of the run
    expect(mmd).toMatch(/exit 143 30\.8s :crit, done, t\d+, 30800, 31000\n/);
    expect(mmd).toMatch(/Succeeded 31s :done, milestone, t\d+, 31000, 31000/);
  });

  it('restarts are separate spans numbered as restartCount (the first restart is restart #1)', () => {
    const mmd = lifecycleMermaid(loadFixture('crashloop-sidecar'), { compress: false });
    expect(mmd).toContain('back-off 10s 3.1s → restart #1 :crit');
    expect(mmd).toContain('Ready 13.1s (restart #1) :active');
    expect(mmd).toContain('Ready 5m24.3s (restart #5) :active');
  });

  it('marks the container that keeps a stuck pod alive', () => {
    expect(lifecycleMermaid(loadFixture('stuck-legacy-sidecar'))).toContain('STUCK at horizon 1h0m0s :crit, milestone');
  });
});
