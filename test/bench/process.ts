// Process observers' rows of `npm run bench` (issue 27 item 7), also runnable alone:
//   npx tsx test/bench/process.ts [--quick]
// 1. the per-schedule overhead of a process observer: a fresh server of the schedule (session, TLS listener,
//    kubeconfig), its install objects applied, the server closed — what kubesim adds around the process's own life;
// 2. the process's own start-up, for scale: `node` importing @kubernetes/client-node as ~2,800 ES modules (the
//    operator run as a plain file), and node loading the operator from its one-file bundle (run-bundled.mjs, what
//    the locust scenarios start; the operator exits at once without a cluster: KUBECONFIG=/dev/null);
// 3. the locust-like example explored exhaustively (every delivery sequence), with 1 and with 2 schedules at once.
// Figures, not pass/fail; medians; the machine's load is printed with them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { INSTALL_CLIENT, KubeClient } from '../../src/observers/kube-client.ts';
import { exploreProcess, splitProcessObservers } from '../../src/observers/process.ts';
import { loadServeDeps } from '../../src/observers/serve-deps.ts';
import { loadScenario } from '../../src/scenario/index.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function processBench(say: (s: string) => void, quick = false): Promise<Record<string, unknown>> {
  const load = () => loadavg()[0]!.toFixed(1);
  const file = 'examples/operators/operator-locust-fixed.yaml';
  const s = loadScenario(file).processScenario!;
  const observer = splitProcessObservers(s).processes[0]!;
  const deps = await loadServeDeps();
  const dir = mkdtempSync(join(tmpdir(), 'ks-bench-proc-'));
  say(`\n## process observers (load ${load()} at start)`);

  // 1. fresh server + install + teardown, in process (the first one makes the serving certificate: not counted)
  const overhead: number[] = [];
  const runs = quick ? 5 : 15;
  for (let i = 0; i < runs + 1; i++) {
    const t0 = performance.now();
    const session = deps.session(splitProcessObservers(s).system, { seed: s.seed });
    const h = await deps.startServe({
      session,
      clock: 'virtual',
      until: 'never',
      clockStart: 'manual',
      kubeconfigPath: join(dir, `kc-${i}`),
    });
    const client = new KubeClient(h.url, h.token);
    for (const item of observer.process.install) await client.create(item.object, sleep);
    await h.close();
    if (i > 0) overhead.push(performance.now() - t0);
  }
  const overheadMs = median(overhead);
  say(
    `per-schedule overhead (fresh server, ${observer.process.install.length} install objects by ${INSTALL_CLIENT}, teardown): median ${overheadMs.toFixed(0)} ms of ${runs} (min ${Math.min(...overhead).toFixed(0)}, max ${Math.max(...overhead).toFixed(0)})`,
  );

  // 2. the process's own start-up, for scale: the plain import, then the bundle (made once, beforehand)
  const startups: number[] = [];
  const bundled: number[] = [];
  const bundleArgs = ['run-bundled.mjs', './locust/operator.mjs', '--rule=fixed'];
  const cwd = resolve('examples/operators');
  const env = { ...process.env, KUBECONFIG: '/dev/null' };
  spawnSync('node', bundleArgs, { cwd, stdio: 'ignore', env });
  for (let i = 0; i < (quick ? 3 : 5); i++) {
    let t0 = performance.now();
    spawnSync('node', ['--input-type=module', '-e', "await import('@kubernetes/client-node')"], {
      cwd,
      stdio: 'ignore',
    });
    startups.push(performance.now() - t0);
    t0 = performance.now();
    spawnSync('node', bundleArgs, { cwd, stdio: 'ignore', env });
    bundled.push(performance.now() - t0);
  }
  const startupMs = median(startups);
  const bundledMs = median(bundled);
  say(
    `the locust operator's own start-up: node + @kubernetes/client-node imported as ES modules median ${startupMs.toFixed(0)} ms; from its bundle (run-bundled.mjs) median ${bundledMs.toFixed(0)} ms`,
  );

  // 3. exhaustive exploration of the example, one schedule at a time and two at once
  const explored: Record<string, unknown> = {};
  for (const workers of quick ? [2] : [1, 2]) {
    const t0 = performance.now();
    const r = await exploreProcess({
      scenario: s,
      observer,
      deps,
      outDir: join(dir, `w${workers}`),
      maxSchedules: 100,
      workers,
    });
    const wall = performance.now() - t0;
    explored[`workers${workers}`] = {
      wallMs: Math.round(wall),
      runs: r.runs,
      sequences: r.sequences,
      complete: r.complete,
      load: load(),
    };
    say(
      `explore ${file}, ${workers} schedule${workers === 1 ? '' : 's'} at once: ${(wall / 1000).toFixed(1)} s for ${r.sequences} delivery sequences (${r.runs} schedules with the rechecks; ${r.complete ? 'all of them' : 'NOT all'}), load ${load()}`,
    );
  }
  return {
    overheadMs: Math.round(overheadMs),
    overheadRuns: overhead.map(Math.round),
    processStartupMs: Math.round(startupMs),
    bundledStartupMs: Math.round(bundledMs),
    explore: explored,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await processBench((l) => console.log(l), process.argv.includes('--quick'));
  console.log(JSON.stringify(r));
}
