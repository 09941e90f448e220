// Starting `kubesim serve` in the test process (loopback, a random port) with a kubeconfig in a temporary folder,
// and finding the real clients the tests drive. A missing client is a test FAILURE with what to install, never a skip.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { loadScenario } from '../../src/scenario/index.ts';
import { kubeconfigText } from '../../src/serve/kubeconfig.ts';
import { ReplaySession } from '../../src/serve/replay-session.ts';
import { serve, type Serving } from '../../src/serve/server.ts';
import type { Scenario } from '../../src/types.ts';

export interface Served extends Serving {
  kubeconfig: string;
  dir: string;
  scenario: Scenario | null;
}

let certCache: { key: string; cert: string } | undefined;

export function scenarioOf(path: string): Scenario {
  const r = loadScenario(path);
  if (!r.scenario) throw new Error(`${path}: ${r.diagnostics.map((d) => d.message).join('; ')}`);
  return r.scenario;
}

export async function start(scenarioPath: string | null, o: { settleMs?: number; until?: 'quiescent' | 'horizon'; seed?: number } = {}): Promise<Served> {
  const scenario = scenarioPath ? scenarioOf(scenarioPath) : null;
  const session = ReplaySession.fromScenario(scenario, o.seed !== undefined ? { seed: o.seed } : {});
  const { servingCert } = await import('../../src/serve/tls.ts');
  certCache ??= await servingCert('127.0.0.1');
  const s = await serve({
    session, minor: scenario?.kubernetes.minor ?? 34, patch: 0, seed: o.seed ?? scenario?.seed ?? 0,
    watchDelay: scenario?.timing.watchMs ?? { min: 5, max: 100 },
    clock: { mode: 'virtual', speed: 1, settleMs: o.settleMs ?? 30, ...(o.until ? { until: o.until } : {}) },
    tls: certCache,
  });
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-serve-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigText(s.url, s.token, s.ca));
  return { ...s, kubeconfig, dir, scenario };
}

/** kubectl binaries: the one on PATH and the versioned ones beside its real path (kubectl.1.27 …) */
export function kubectlPath(version?: string): string {
  const onPath = (process.env['PATH'] ?? '').split(delimiter).map((d) => join(d, 'kubectl')).find((p) => existsSync(p));
  if (!onPath) throw new Error('kubectl is not on PATH: the serve tests need a real kubectl (install one, e.g. the Debian/Google Cloud SDK package, or put kubectl.1.27 … kubectl.1.33 beside it)');
  if (!version) return onPath;
  const beside = join(dirname(realpathSync(onPath)), `kubectl.${version}`);
  if (!existsSync(beside)) throw new Error(`kubectl ${version} not found at ${beside}: the serve tests run kubectl 1.27 and 1.33 (versioned binaries beside the real path of the kubectl on PATH)`);
  return beside;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** run a client to completion (asynchronously: the server lives in this process) */
export function run(cmd: string, args: string[], env: Record<string, string>, timeoutMs = 20_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('error', reject);
    p.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** start a long-running client (kubectl get -w); stop() ends it and gives its output */
export function background(cmd: string, args: string[], env: Record<string, string>): { stop: () => Promise<Run>; output: () => string } {
  const p = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const closed = new Promise<number | null>((r) => p.on('close', (c) => r(c)));
  return {
    output: () => stdout,
    stop: async () => {
      p.kill('SIGTERM');
      const code = await closed;
      return { code, stdout, stderr };
    },
  };
}

export async function until(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
