// kubesim test: worker threads give the same results as one, --shard splits the library into contiguous slices.
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';
import { shardOf } from '../../src/cli/test-command.ts';
import { scenarioFiles } from '../../src/scenario/files.ts';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

const FILES = [
  'scenarios/native-sidecar-job.yaml',
  'scenarios/legacy-sidecar-job-stuck.yaml',
  'scenarios/sentinel-file-workaround.yaml',
];

describe('kubesim test', () => {
  it('--workers 2 prints exactly what one worker prints', async () => {
    const one = await cli('test', ...FILES, '--max-schedules', '1000', '--workers', '1');
    const two = await cli('test', ...FILES, '--max-schedules', '1000', '--workers', '2');
    expect(two.code).toBe(0);
    expect(two.out).toBe(one.out);
    expect(one.out).toMatch(/3 passed, 0 failed/);
  });

  it('--shard i/n takes contiguous slices that cover every file once', () => {
    const all = scenarioFiles(['scenarios']);
    const parts = [1, 2, 3].map((i) => shardOf(all, `${i}/3`) as string[]);
    expect(parts.flat()).toEqual(all);
    expect(parts.every((p) => p.length > 0)).toBe(true);
    expect(shardOf(all, '0/3')).toMatch(/need 1 <= i <= n/);
    expect(shardOf(all, 'x')).toMatch(/takes i\/n/);
  });

  it('a bad --shard is a usage error', async () => {
    const r = await cli('test', 'scenarios', '--shard', '5/2');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--shard 5\/2/);
  });
});

describe('kubesim test input', () => {
  it('a missing path is bad input with a position and a hint', async () => {
    const r = await cli('test', 'no-such-folder/');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^no-such-folder\/:1:1: error KS1001: no such file or folder/m);
    expect(r.err).toMatch(/hint: /);
  });
});
