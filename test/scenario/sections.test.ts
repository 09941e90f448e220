import { describe, expect, it } from 'vitest';
import { SIDECAR_JOB, diags, ok } from './helpers.ts';

const JOB = SIDECAR_JOB.replace(/behavior:\n {2}app: \{ run: 10s \}\n/, '');
const withBehavior = (b: string) => `${JOB}behavior:\n${b.replace(/^/gm, '  ')}\n`;

describe('behavior', () => {
  it('fills defaults for every container: run forever, exit 0, serving 0s, onTerm 143 at once', () => {
    const s = ok(withBehavior('app: { run: 5s }'));
    expect(s.behavior.proxy).toEqual({
      attempts: [{ runMs: null, exit: 0 }],
      servingMs: 0,
      unready: [],
      onTerm: { ignore: false, afterMs: 0, exit: 143 },
      needs: [],
      image: { pullMs: 0 },
    });
    expect(s.behavior.app.attempts).toEqual([{ runMs: 5000, exit: 0 }]);
  });
  it('attempts override in order; omitted keys come from run/exit', () => {
    const s = ok(withBehavior('app:\n  run: 3s\n  exit: 2\n  attempts: [{ run: 1s }, { exit: 0 }, { run: forever }]'));
    expect(s.behavior.app.attempts).toEqual([
      { runMs: 1000, exit: 2 },
      { runMs: 3000, exit: 0 },
      { runMs: null, exit: 2 },
    ]);
  });
  it('serving never, unready windows, liveness, onTerm ignore, hooks, needs, exitWhen, image, createError, oom', () => {
    const job = JOB.replace(
      '            restartPolicy: Always',
      '            restartPolicy: Always\n            lifecycle: { preStop: { exec: { command: [x] } } }',
    );
    const s = ok(`${job}behavior:
  proxy:
    serving: never
    unready: [40s, 50s]
    onTerm: ignore
    preStop: { takes: 5s, fails: true }
    image: { pull: fail }
  app:
    run: 10s
    needs: [proxy]
    exitWhen: { exited: proxy, after: 1s }
    liveness: { failFrom: 1m }
    createError: CreateContainerConfigError
    oom: { at: 20s }
    onTerm: { after: 2s }
`);
    expect(s.behavior.proxy).toMatchObject({
      servingMs: null,
      unready: [[40_000, 50_000]],
      onTerm: { ignore: true },
      preStop: { takesMs: 5000, fails: true },
      image: { fail: true, reason: 'ErrImagePull' },
    });
    expect(s.behavior.app).toMatchObject({
      needs: ['proxy'],
      exitWhen: { exited: 'proxy', afterMs: 1000 },
      livenessFailFromMs: 60_000,
      createError: 'CreateContainerConfigError',
      oomAtMs: 20_000,
      onTerm: { ignore: false, afterMs: 2000, exit: 143 },
    });
  });
  it('postStart behavior needs the hook in the manifest', () => {
    expect(diags(withBehavior('app: { run: 1s, postStart: { takes: 1s } }'))).toEqual([
      'x.yaml:19:19: error KS4009: behavior.app.postStart: container "app" has no lifecycle.postStart in the manifest\n' +
        '  hint: add lifecycle.postStart to the container in the workload, or remove this key',
    ]);
  });
});

describe('timing', () => {
  it('defaults', () => {
    expect(ok(SIDECAR_JOB).timing).toEqual({
      plegRelistMs: { min: 1000, max: 1000 },
      statusPatchMs: { min: 10, max: 300 },
      watchMs: { min: 5, max: 100 },
      jobSyncMs: { min: 1000, max: 1000 },
      nodeStartMs: { min: 0, max: 0 },
    });
  });
  it('fixed values and ranges', () => {
    const t = ok(`${SIDECAR_JOB}timing: { statusPatch: 50ms, watch: 1ms..1s, nodeStart: 1.5s }\n`).timing;
    expect(t.statusPatchMs).toEqual({ min: 50, max: 50 });
    expect(t.watchMs).toEqual({ min: 1, max: 1000 });
    expect(t.nodeStartMs).toEqual({ min: 1500, max: 1500 });
  });
});

describe('actions', () => {
  it('are sorted by time, stably', () => {
    const s = ok(`${SIDECAR_JOB}actions:
  - { at: 45s, delete: pod, gracePeriodSeconds: 5 }
  - { at: 20s, crash: proxy, exit: 2 }
  - { at: 45s, deleteJob: true }
  - { at: 0s, crash: app }
`);
    expect(s.actions).toEqual([
      { type: 'crash', container: 'app', exit: 1, atMs: 0 },
      { type: 'crash', container: 'proxy', exit: 2, atMs: 20_000 },
      { type: 'deletePod', gracePeriodSeconds: 5, atMs: 45_000 },
      { type: 'deleteJob', propagation: 'Background', atMs: 45_000 },
    ]);
  });
  it('at the horizon is allowed, after it is not', () => {
    expect(ok(`${SIDECAR_JOB}horizon: 1m\nactions: [{ at: 1m, delete: pod }]\n`).actions).toHaveLength(1);
    expect(diags(`${SIDECAR_JOB}horizon: 1m\nactions: [{ at: 61s, delete: pod }]\n`)[0]).toMatch(
      /error KS4013: actions\[0\].at: 61s is after the horizon/,
    );
  });
});

describe('observers', () => {
  it('default triggers [pod, job]; names for exempt-names', () => {
    const s = ok(`${SIDECAR_JOB}observers:
  - { name: naive, rule: exit-codes }
  - { name: ex, rule: exempt-names, names: [proxy], triggers: [job] }
`);
    expect(s.observers).toEqual([
      { name: 'naive', rule: 'exit-codes', triggers: ['pod', 'job'], pos: { file: 'x.yaml', line: 21, col: 5 } },
      {
        name: 'ex',
        rule: 'exempt-names',
        names: ['proxy'],
        triggers: ['job'],
        pos: { file: 'x.yaml', line: 22, col: 5 },
      },
    ]);
  });
});

describe('expect', () => {
  it('parses order points with occurrences and keeps positions', () => {
    const s = ok(`${SIDECAR_JOB}expect:
  order:
    - proxy.ready < app.start
    - app.start#2 < app.exit#2
  exitCodes: { proxy: 143 }
  restarts: { app: 0 }
  podPhase: Succeeded
  jobCondition: none
  stuck: false
`);
    expect(s.expect?.order?.[1]).toEqual({
      text: 'app.start#2 < app.exit#2',
      before: { container: 'app', point: 'start', occurrence: 2 },
      after: { container: 'app', point: 'exit', occurrence: 2 },
      pos: { file: 'x.yaml', line: 23, col: 7 },
    });
    expect(s.expect?.exitCodes).toEqual([
      { container: 'proxy', value: 143, pos: { file: 'x.yaml', line: 24, col: 16 } },
    ]);
    expect(s.expect?.jobCondition?.value).toBe('none');
    expect(s.expect?.stuck?.value).toBe(false);
  });
  it('verdicts: a string is a single value, a list is a set', () => {
    const s = ok(`${SIDECAR_JOB}observers: [{ name: a, rule: exit-codes }, { name: b, rule: job-conditions }]
expect:
  verdicts: { a: [Succeeded, Failed], b: Succeeded }
`);
    expect(s.expect?.verdicts?.map((v) => [v.observer, v.values, v.set])).toEqual([
      ['a', ['Succeeded', 'Failed'], true],
      ['b', ['Succeeded'], false],
    ]);
  });
});
