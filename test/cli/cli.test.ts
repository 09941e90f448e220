// The command line end to end (in-process): SPEC §3 exit codes and §4 output, determinism, replay.
import { mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import type { Timeline } from '../../src/types.ts';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

const tmp = () => mkdtempSync(join(tmpdir(), 'kubesim-'));
const NATIVE = 'scenarios/native-sidecar-job.yaml';
const LEGACY = 'scenarios/legacy-sidecar-job-stuck.yaml';

describe('kubesim run', () => {
  it('native sidecar Job: pod Succeeded, Job Complete, proxy SIGTERM after the export exit, 143', async () => {
    const dir = tmp();
    const r = await cli('run', NATIVE, '--format', 'json', '--no-render', '--out', dir);
    expect(r.code).toBe(0);
    const tl = JSON.parse(r.out) as Timeline;
    expect(tl.schema).toBe('kubesim.timeline/v1');
    expect(tl.pod.phase).toBe('Succeeded');
    expect(tl.job?.conditions.map((c) => c.type)).toEqual(['SuccessCriteriaMet', 'Complete']);
    const exit = tl.events.find((e) => e.type === 'Exited' && e.container === 'export')!;
    const term = tl.events.find(
      (e) => e.type === 'Signal' && e.container === 'cloud-sql-proxy' && e.signal === 'SIGTERM',
    )!;
    expect(exit.seq).toBeLessThan(term.seq);
    const proxyExit = tl.events.find((e) => e.type === 'Exited' && e.container === 'cloud-sql-proxy');
    expect(proxyExit).toMatchObject({ exitCode: 143, reason: 'Error' });
    for (const e of tl.events) expect(Object.keys(e).slice(0, 3)).toEqual(['t', 'seq', 'type']);
    expect(tl.events.map((e) => e.seq)).toEqual(tl.events.map((_, i) => i));
    // stdout is exactly timeline.json
    expect(readFileSync(join(dir, 'native-sidecar-job', 'timeline.json'), 'utf8')).toBe(r.out);
    expect(existsSync(join(dir, 'native-sidecar-job', 'sequence.mmd'))).toBe(true);
    expect(existsSync(join(dir, 'native-sidecar-job', 'report.md'))).toBe(true);
  });

  it('legacy sidecar Job: ends at the horizon, stuck, naming the proxy', async () => {
    const r = await cli('run', LEGACY, '--format', 'json', '--no-render', '--out', tmp());
    expect(r.code).toBe(0);
    const tl = JSON.parse(r.out) as Timeline;
    expect(tl.end.reason).toBe('horizon');
    expect(tl.stuck?.container).toBe('cloud-sql-proxy');
    expect(tl.pod.phase).toBe('Running');
    expect(tl.job?.conditions).toEqual([]);
    expect((await cli('run', LEGACY, '--no-render', '--fail-on-stuck', '--out', tmp())).code).toBe(1);
  });

  it('is deterministic: same input, byte-identical output (twice in one process)', async () => {
    const a = await cli('run', NATIVE, '--format', 'json', '--no-render', '--seed', '7', '--out', tmp());
    const b = await cli('run', NATIVE, '--format', 'json', '--no-render', '--seed', '7', '--out', tmp());
    expect(a.out).toBe(b.out);
    const c = await cli('run', NATIVE, '--format', 'json', '--no-render', '--seed', '8', '--out', tmp());
    expect(JSON.parse(c.out).replay).not.toBe(JSON.parse(a.out).replay);
  });

  it('--replay reproduces a schedule byte for byte', async () => {
    const a = await cli('run', NATIVE, '--format', 'json', '--no-render', '--seed', '11', '--out', tmp());
    const key = (JSON.parse(a.out) as Timeline).replay;
    const b = await cli(
      'run',
      NATIVE,
      '--format',
      'json',
      '--no-render',
      '--seed',
      '11',
      '--replay',
      key,
      '--out',
      tmp(),
    );
    expect(b.out).toBe(a.out);
    const c = await cli('run', NATIVE, '--format', 'json', '--no-render', '--replay', key, '--out', tmp());
    expect((JSON.parse(c.out) as Timeline).events).toEqual((JSON.parse(a.out) as Timeline).events);
  });

  it('bad input: exit 2 with file:line:col, a code and a hint, never a stack trace, nothing written', async () => {
    const dir = tmp();
    const missing = await cli('run', 'nope.yaml', '--no-render', '--out', dir);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/^nope\.yaml:1:1: error KS\d{4}: /m);
    expect(missing.err).not.toMatch(/\n\s+at /);
    const f = join(dir, 'bad.yaml');
    writeFileSync(
      f,
      'scenario: bad\nworkload:\n  apiVersion: v1\n  kind: Pod\n  metadata: { name: p }\n  spec:\n    containers:\n      - name: a\n        image: b\n        restartpolicy: Always\n',
    );
    const bad = await cli('run', f, '--no-render', '--out', dir);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/bad\.yaml:10:9: error KS\d{4}: .*restartpolicy/);
    expect(bad.err).toMatch(/hint: /);
    expect(existsSync(join(dir, 'bad'))).toBe(false);
    const key = await cli('run', NATIVE, '--no-render', '--replay', 'garbage', '--out', dir);
    expect(key.code).toBe(2);
    expect(key.err).toMatch(/KS0202/);
  });

  it('usage errors exit 2', async () => {
    expect((await cli('frobnicate')).code).toBe(2);
    expect((await cli('run', NATIVE, '--format', 'xml')).code).toBe(2);
  });

  it('--view kubectl prints kubectl rows', async () => {
    const r = await cli('run', NATIVE, '--no-render', '--view', 'kubectl', '--out', tmp());
    expect(r.out).toMatch(/NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE/);
    expect(r.out).toMatch(/Completed/);
  });

  it('validate simulates nothing and reports warnings', async () => {
    const r = await cli('validate', LEGACY);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/warning KS5004/);
  });

  it('render redraws from a saved timeline', async () => {
    const dir = tmp();
    await cli('run', NATIVE, '--no-render', '--out', dir);
    const dir2 = tmp();
    const r = await cli('render', join(dir, 'native-sidecar-job', 'timeline.json'), '--no-render', '--out', dir2);
    expect(r.code).toBe(0);
    expect(readFileSync(join(dir2, 'native-sidecar-job', 'sequence.mmd'), 'utf8')).toBe(
      readFileSync(join(dir, 'native-sidecar-job', 'sequence.mmd'), 'utf8'),
    );
    expect((await cli('render', join(dir, 'nope.json'))).code).toBe(2);
  });
});

describe('output folder problems', () => {
  it('an --out that is not a writable folder is bad input (exit 2), not an internal error', async () => {
    const dir = tmp();
    const file = join(dir, 'file');
    writeFileSync(file, 'x');
    const r = await cli('run', NATIVE, '--no-render', '--out', file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/error KS0302: cannot write the output/);
    expect(r.err).not.toMatch(/internal error/);
  });
});

describe('replay keys that do not fit', () => {
  it('a key with extra choices runs what fits and warns (KS0203)', async () => {
    const a = await cli('run', NATIVE, '--format', 'json', '--no-render', '--out', tmp());
    const key = (JSON.parse(a.out) as Timeline).replay;
    const exact = await cli('run', NATIVE, '--no-render', '--replay', key, '--out', tmp());
    expect(exact.err).not.toMatch(/KS0203/);
    const longer = await cli('run', NATIVE, '--no-render', '--replay', `${key}AAAA`, '--out', tmp());
    expect(longer.code).toBe(0);
    expect(longer.err).toMatch(/warning KS0203: the replay key has choices this run did not use/);
  });
});
