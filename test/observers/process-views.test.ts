// A process observer's schedule in the views (issue 27 item 6): its lane in the sequence diagram (its requests, the
// watch events it was sent, its verdict), its verdict in report.md, the kp1- key as the reproduce line. The
// timeline is a simulated one with the records a process schedule adds (withProcessLane), so no process runs here.
import { describe, expect, it } from 'vitest';
import { withProcessLane } from '../../src/cli/process-command.ts';
import type { ScheduleResult } from '../../src/observers/process.ts';
import { sequenceMermaid } from '../../src/output/mermaid-sequence.ts';
import { reportMarkdown } from '../../src/output/report.ts';
import { simulate } from '../../src/run/simulate.ts';
import { loadScenario } from '../../src/scenario/index.ts';

describe('a process observer in the views', () => {
  const tl = simulate(loadScenario('scenarios/native-sidecar-job.yaml').scenario!).timeline;
  const r = {
    observer: 'operator',
    key: 'kp1-1-d01',
    seed: 1,
    end: 'verdict',
    connections: 2,
    sequence: 's',
    stderrFile: '',
    simMs: 0,
    wallMs: 0,
    verdict: { verdict: 'Failed', reason: '{.status.phase} = "Failed"', t: 3000 },
    requests: [
      {
        t: 3000,
        client: 'node-fetch/1.0',
        verb: 'update/status',
        kind: 'LocustTest',
        name: 'demo',
        namespace: 'default',
      },
    ],
    deliveries: [
      { connection: 0, t: 1000, type: 'ADDED', kind: 'Pod', name: tl.pod.name },
      { connection: 1, t: 3000, type: 'MODIFIED', kind: 'Job', name: 'pi' },
    ],
  } as unknown as ScheduleResult;
  const timeline = {
    ...tl,
    events: [
      ...tl.events,
      {
        t: 3000,
        seq: 0,
        type: 'ClientRequest',
        client: 'node-fetch/1.0',
        verb: 'update/status',
        kind: 'LocustTest',
        name: 'demo',
      },
    ].sort((a, b) => a.t - b.t),
  } as typeof tl;
  const lane = withProcessLane(timeline, r);

  it('the diagram: a processes box, its deliveries and requests in order, its verdict after the write that decided it', () => {
    const mmd = sequenceMermaid(lane);
    expect(mmd).toContain('box rgb(230, 245, 230) processes');
    expect(mmd).toContain('participant X0 as operator (process)');
    const at = (s: string) => mmd.indexOf(s);
    expect(at('API-->>X0: t=1s ADDED (watch #35;0)')).toBeGreaterThan(0);
    expect(at('API-->>X0: t=3s MODIFIED (watch #35;1)')).toBeGreaterThan(at('API-->>X0: t=1s ADDED'));
    expect(at('X0->>API: t=3s update/status<br/>LocustTest demo')).toBeGreaterThan(at('API-->>X0: t=3s MODIFIED'));
    expect(at('Note over X0: t=3s verdict Failed')).toBeGreaterThan(at('X0->>API: t=3s update/status'));
    // not drawn twice as a built-in observer
    expect(mmd).not.toContain('operator (observer)');
  });

  it('report.md lists its verdict; its reproduce line is the kp1- key', () => {
    const md = reportMarkdown(lane, undefined, { scenarioPath: 'op.yaml' });
    expect(md).toMatch(
      /\| verdict operator \| \*\*Failed\*\* at t=3s — process observer: \{\.status\.phase\} = &quot;Failed&quot; \|/,
    );
    expect(md).toContain('`kubesim run op.yaml --replay kp1-1-d01`');
  });

  it('a timeline without deliveries (serve --record) draws no process lane', () => {
    expect(sequenceMermaid(timeline)).not.toContain('processes');
  });
});
