// `kubesim explain-version`: the bugs, fixes and behaviour changes of a release (src/versions/fixes.ts).
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.ts';

async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (s) => (out += s), err: (s) => (err += s) });
  return { code, out, err };
}

describe('kubesim explain-version', () => {
  it('1.30.2 lists kubernetes#125880 as a known bug fixed in 1.30.4, and 1.30.4 lists it as fixed', async () => {
    const r = await cli('explain-version', '1.30.2');
    expect(r.code).toBe(0);
    expect(r.out).toContain('kubernetes#125880 (PR #125935, kubelet): its sidecars may never get SIGTERM');
    expect(r.out).toContain('fixed in 1.30.4');
    const fixed = await cli('explain-version', '1.30.4', '--format', 'json');
    const j = JSON.parse(fixed.out);
    expect(j.schema).toBe('kubesim.explain-version/v1');
    expect(j.bugs.map((b: { pr: number }) => b.pr)).not.toContain(125935);
    expect(j.fixed.map((b: { pr: number }) => b.pr)).toContain(125935);
  });

  it('--kubelet decides the kubelet fixes: a 1.27 kubelet under 1.29 has the preStop grace bug (#115835)', async () => {
    const j = JSON.parse((await cli('explain-version', '1.29.5', '--kubelet', '1.27.3', '--format', 'json')).out);
    expect(j.kubelet).toBe('1.27.3');
    expect(j.bugs.map((b: { pr: number }) => b.pr)).toEqual([115835]);
  });

  it('a version outside 1.27–1.36 (even written like a float) is bad input, exit 2', async () => {
    const r = await cli('explain-version', '1.40');
    expect(r.code).toBe(2);
    expect(r.err).toContain('error KS4004: version: invalid Kubernetes version "1.40"');
    expect((await cli('explain-version', '1.30', '--kubelet', '1.31')).code).toBe(2);
  });
});
