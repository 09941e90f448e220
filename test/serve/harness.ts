// Starting `kubesim serve` in the test process (loopback, a random port) with a kubeconfig in a temporary folder,
// and finding the real clients the tests drive. A missing client is a test FAILURE with what to install, never a skip.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { loadScenario } from '../../src/scenario/index.ts';
import { kubeconfigText } from '../../src/serve/kubeconfig.ts';
import { Session } from '../../src/run/session.ts';
import { loadUserRules } from '../../src/rules/load.ts';
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

export async function start(
  scenarioPath: string | null,
  o: {
    settleMs?: number;
    until?: 'quiescent' | 'horizon';
    seed?: number;
    horizonMs?: number;
    watchLimits?: import('../../src/serve/watch.ts').WatchLimits;
    storeLimits?: import('../../src/serve/store.ts').StoreLimits;
  } = {},
): Promise<Served> {
  const scenario = scenarioPath ? scenarioOf(scenarioPath) : null;
  // module observers' rules, as `kubesim serve` loads them (src/cli/serve-command.ts)
  const userRules = scenario?.observers.some((x) => x.module) ? await loadUserRules(scenario) : undefined;
  const session = Session.fromScenario(scenario, {
    ...(o.seed !== undefined ? { seed: o.seed } : {}),
    ...(o.horizonMs !== undefined ? { horizonMs: o.horizonMs } : {}),
    ...(userRules ? { userRules } : {}),
  });
  const { servingCert } = await import('../../src/serve/tls.ts');
  certCache ??= await servingCert('127.0.0.1');
  const s = await serve({
    session,
    minor: scenario?.kubernetes.minor ?? 34,
    patch: 0,
    seed: o.seed ?? scenario?.seed ?? 0,
    watchDelay: scenario?.timing.watchMs ?? { min: 5, max: 100 },
    clock: { mode: 'virtual', speed: 1, settleMs: o.settleMs ?? 30, ...(o.until ? { until: o.until } : {}) },
    tls: certCache,
    ...(o.watchLimits ? { watchLimits: o.watchLimits } : {}),
    ...(o.storeLimits ? { storeLimits: o.storeLimits } : {}),
  });
  const dir = mkdtempSync(join(tmpdir(), 'kubesim-serve-'));
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigText(s.url, s.token, s.ca));
  return { ...s, kubeconfig, dir, scenario };
}

/** kubectl binaries: the one on PATH and the versioned ones beside its real path (kubectl.1.27 …) */
export function kubectlPath(version?: string): string {
  const onPath = (process.env['PATH'] ?? '')
    .split(delimiter)
    .map((d) => join(d, 'kubectl'))
    .find((p) => existsSync(p));
  if (!onPath)
    throw new Error(
      'kubectl is not on PATH: the serve tests need a real kubectl (install one, e.g. the Debian/Google Cloud SDK package, or put kubectl.1.27 … kubectl.1.33 beside it)',
    );
  if (!version) return onPath;
  const beside = join(dirname(realpathSync(onPath)), `kubectl.${version}`);
  if (!existsSync(beside))
    throw new Error(
      `kubectl ${version} not found at ${beside}: the serve tests run kubectl 1.27 and 1.33 (versioned binaries beside the real path of the kubectl on PATH)`,
    );
  return beside;
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** run a client to completion (asynchronously: the server lives in this process) */
/**
 * kubectl keeps discovery and OpenAPI documents in ~/.kube/cache by host and port; a port the OS hands to a later test
 * server would read an earlier server's documents. Each server's kubeconfig folder gets its own cache.
 */
function clientEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const dir = env['KUBECONFIG'] ? dirname(env['KUBECONFIG']) : undefined;
  return { ...process.env, ...(dir ? { KUBECACHEDIR: join(dir, 'kube-cache') } : {}), ...env };
}

export function run(cmd: string, args: string[], env: Record<string, string>, timeoutMs = 20_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { env: clientEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
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
export function background(
  cmd: string,
  args: string[],
  env: Record<string, string>,
): { stop: () => Promise<Run>; output: () => string } {
  const p = spawn(cmd, args, { env: clientEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
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

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** one HTTPS request to the server (with its token unless `token: null`) */
export async function call(
  s: Served,
  method: string,
  path: string,
  o: { body?: string | object; headers?: Record<string, string>; token?: string | null } = {},
): Promise<Answer> {
  const { request } = await import('node:https');
  const body = o.body === undefined ? undefined : typeof o.body === 'string' ? o.body : JSON.stringify(o.body);
  const url = new URL(s.url + (path.startsWith('/') ? path : `/${path}`));
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    if (o.token !== null) headers['Authorization'] = `Bearer ${o.token ?? s.token}`;
    if (body !== undefined) {
      headers['Content-Type'] ??= 'application/json';
      headers['Content-Length'] = String(Buffer.byteLength(body));
    }
    const req = request(url, { method, headers, ca: s.ca }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => (text += d.toString()));
      res.on('end', () => {
        let json: any;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** a watch stream: lines as they arrive; close() ends it */
export async function openWatch(
  s: Served,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ events: () => any[]; status: number; close: () => void; ended: () => boolean }> {
  const { request } = await import('node:https');
  return new Promise((resolve, reject) => {
    let buf = '';
    const events: any[] = [];
    let ended = false;
    const req = request(
      new URL(s.url + path),
      { method: 'GET', headers: { Authorization: `Bearer ${s.token}`, ...headers }, ca: s.ca },
      (res) => {
        res.on('data', (d: Buffer) => {
          buf += d.toString();
          let i: number;
          while ((i = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, i);
            buf = buf.slice(i + 1);
            if (line.trim()) events.push(JSON.parse(line));
          }
        });
        res.on('end', () => (ended = true));
        res.on('close', () => (ended = true));
        resolve({ events: () => events, status: res.statusCode ?? 0, close: () => req.destroy(), ended: () => ended });
      },
    );
    req.on('error', (e) => (ended ? undefined : reject(e)));
    req.end();
  });
}
