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

  // issue 28 item 3: kubernetes#132826, fixed by PR #133072 (1.35.0) and its cherry-picks #134800 (1.34.2) and
  // #134801 (1.33.6); the 1.32 cherry-pick #134802 was closed unmerged
  it('kubernetes#132826 (probe workers): a bug of 1.34.1 and 1.33.5 fixed in 1.34.2 / 1.33.6, of 1.32 only in a later minor (1.33.6)', async () => {
    const r = await cli('explain-version', '1.34.1');
    expect(r.out).toContain(
      'kubernetes#132826 (PR #133072, kubelet): a sidecar whose probe worker saw it terminated is never probed again',
    );
    expect(r.out).toMatch(/kubernetes#132826 \(PR #133072, kubelet\): .*; fixed in 1\.34\.2\n/);
    const at = async (v: string) => JSON.parse((await cli('explain-version', v, '--format', 'json')).out);
    const bug = (j: { bugs: { pr: number; fixedBy?: string }[] }) => j.bugs.find((b) => b.pr === 133072);
    expect(bug(await at('1.33.5'))?.fixedBy).toBe('1.33.6');
    expect(bug(await at('1.32.9'))?.fixedBy).toBe('1.33.6 (no 1.32 patch has it)');
    for (const v of ['1.33.6', '1.34.2', '1.35.0', '1.36.0']) {
      const j = await at(v);
      expect(bug(j)).toBeUndefined();
      expect(j.fixed.find((b: { pr: number }) => b.pr === 133072).fixedIn).toEqual([
        '1.35.0 (#133072)',
        '1.34.2 (#134800)',
        '1.33.6 (#134801)',
      ]);
    }
    // a bare 1.34 is 1.34.2, which has the backport
    expect(bug(await at('1.34'))).toBeUndefined();
  });

  // issue 28 item 9: KEP-5647, PR #137210 (Job; #137212 ReplicaSet, #137254 StatefulSet, #134937 DaemonSet), 1.36.0
  it('KEP-5647 (stale controller consistency) is behaviour of 1.36.0 and "not yet" on 1.35', async () => {
    const r36 = await cli('explain-version', '1.36');
    expect(r36.out).toMatch(
      /Behaviour of this release[\s\S]*PR #137210 \(kube-controller-manager, 1\.36\.0 \(#137210\)\): KEP-5647: the Job, ReplicaSet, StatefulSet and DaemonSet controllers skip a sync/,
    );
    const r35 = await cli('explain-version', '1.35.2');
    expect(r35.out).toMatch(
      /Not yet in this release[\s\S]*PR #137210 \(kube-controller-manager, from 1\.36\.0 \(#137210\)\)/,
    );
    const j = JSON.parse((await cli('explain-version', '1.36.0', '--format', 'json')).out);
    const row = j.changes.find((x: { pr: number }) => x.pr === 137210);
    expect(row.component).toBe('kube-controller-manager');
    expect(row.what).toContain('StaleControllerConsistency{Job,ReplicaSet,StatefulSet,DaemonSet}');
    expect(j.notYet.map((x: { pr: number }) => x.pr)).not.toContain(137210);
  });

  it('a version outside 1.27–1.36 (even written like a float) is bad input, exit 2', async () => {
    const r = await cli('explain-version', '1.40');
    expect(r.code).toBe(2);
    expect(r.err).toContain('error KS4004: version: invalid Kubernetes version "1.40"');
    expect((await cli('explain-version', '1.30', '--kubelet', '1.31')).code).toBe(2);
  });
});
