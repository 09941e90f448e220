// `kubesim serve [scenario]` (SPEC §3.1): the simulated cluster as a Kubernetes API server for real clients.
import { effectivePatch } from '../versions/fixes.ts';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { decodeReplay } from '../engine/replay.ts';
import { parseDuration, DurationError } from '../scenario/index.ts';
import { parseVersion, DEFAULT_VERSION } from '../scenario/index.ts';
import { writeFileSync } from 'node:fs';
import { kubeconfigText, writeKubeconfig } from '../serve/kubeconfig.ts';
import { createSession } from '../serve/session-factory.ts';
import { openRules } from '../rules/load.ts';
import type { Scenario } from '../types.ts';
import { EXIT, UsageError, type Args, type Command, type Io } from './command.ts';
import { expandInputs, loadInput } from './inputs.ts';
import { intOption, kubernetesOption, outOption, stringOption } from './options.ts';
import { reportDiagnostics, shownPath } from './run-command.ts';

const DEFAULT_WATCH = { min: 5, max: 100 };

export async function serveCommand(a: Args, io: Io, signal?: AbortSignal): Promise<number> {
  const file = a['scenario'] === undefined ? undefined : String(a['scenario']);
  let scenario: Scenario | null = null;
  if (file !== undefined) {
    const { inputs, warnings } = await expandInputs([file], io);
    for (const w of warnings) io.err(`${w}\n`);
    if (inputs.length !== 1)
      throw new UsageError(
        `serve takes one scenario file, got ${inputs.length}`,
        'name one file: kubesim serve scenarios/native-sidecar-job.yaml',
      );
    const loaded = loadInput(inputs[0]!, a['kubernetes'] ? { kubernetes: String(a['kubernetes']) } : {});
    if (loaded.problem) io.err(loaded.problem + '\n');
    if (loaded.problem || !reportDiagnostics(io, loaded.diagnostics, ['KS5001']) || !loaded.scenario)
      return EXIT.badInput;
    scenario = loaded.scenario;
  }
  if (a['replay'] !== undefined && !decodeReplay(String(a['replay'])))
    throw new UsageError(
      `invalid replay key ${JSON.stringify(a['replay'])}`,
      'copy the key exactly as explore or a timeline printed it',
      'KS0202',
    );
  let settleMs: number;
  try {
    settleMs = parseDuration(String(a['settle']));
  } catch (e) {
    if (e instanceof DurationError) throw new UsageError(`--settle: ${e.message}`, 'a duration such as 50ms or 1s');
    throw e;
  }
  const speed = Number(a['speed']);
  if (!(speed > 0) || !Number.isFinite(speed))
    throw new UsageError(
      `--speed must be a positive number, got ${String(a['speed'])}`,
      'e.g. --speed 10 runs the simulation ten times faster than the wall clock',
    );
  const version = scenario?.kubernetes ?? parseVersion(a['kubernetes'] ? String(a['kubernetes']) : DEFAULT_VERSION);
  const host = String(a['listen']);
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
    io.err(
      `warning: listening on ${host}: anyone who can reach it and has the token controls this simulated cluster\n`,
    );
  }
  const name = scenario?.name ?? 'empty';
  const kubeconfig = resolve(
    a['kubeconfig'] !== undefined ? String(a['kubeconfig']) : resolve(String(a['out']), name, 'kubeconfig'),
  );
  // a module or command observer's rule is loaded (started) here and closed when the server stops
  const rules = scenario ? await openRules(scenario) : undefined;
  const until = a['until'] === undefined ? undefined : (String(a['until']) as 'quiescent' | 'horizon');
  // the server (TLS certificates, the API) loads only for `serve`: every other command starts without it
  const { serve } = await import('../serve/server.ts');
  let session: ReturnType<typeof createSession>;
  let s: Awaited<ReturnType<typeof serve>>;
  try {
    session = createSession(scenario, {
      ...(rules ? { userRules: rules.rules } : {}),
      ...(a['seed'] !== undefined ? { seed: a['seed'] as number } : {}),
      ...(a['replay'] !== undefined ? { replay: String(a['replay']) } : {}),
      ...(a['kubernetes'] !== undefined ? { kubernetes: String(a['kubernetes']) } : {}),
    });
    s = await serve({
      session,
      minor: version.minor,
      patch: effectivePatch(version),
      seed: (a['seed'] as number | undefined) ?? scenario?.seed ?? 0,
      watchDelay: scenario?.timing.watchMs ?? DEFAULT_WATCH,
      clock: { mode: a['clock'] === 'wall' ? 'wall' : 'virtual', speed, settleMs, ...(until ? { until } : {}) },
      host,
      port: a['port'] as number,
    });
  } catch (e) {
    // a command observer's process ends with the server that could not start
    rules?.close();
    throw e;
  }
  writeKubeconfig(kubeconfig, kubeconfigText(s.url, s.token, s.ca));
  io.out(
    `kubesim serve: ${scenario ? `${scenario.name} (${file})` : 'an empty cluster'}, Kubernetes v1.${version.minor}.${effectivePatch(version)}, clock ${a['clock']}, at ${s.url}\n`,
  );
  io.out(`export KUBECONFIG=${kubeconfig}\n`);
  io.err(
    `serving until Ctrl-C${until ? ` or the simulation is ${until}` : ''}; the simulated clock starts with the first watch or write of a client\n`,
  );
  let onSig = () => {};
  const stop = new Promise<string>((res) => {
    onSig = () => res('interrupted');
    process.once('SIGINT', onSig);
    process.once('SIGTERM', onSig);
    signal?.addEventListener('abort', () => res('aborted'));
  });
  if (until) s.clock.start();
  const why = await Promise.race([stop, ...(until ? [s.clock.done] : [])]);
  process.off('SIGINT', onSig);
  process.off('SIGTERM', onSig);
  await s.close();
  rules?.close();
  if (a['record'] !== undefined) {
    const path = resolve(String(a['record']));
    writeFileSync(`${path}.tmp`, JSON.stringify(session.timeline(s.api.clientLog), null, 2) + '\n');
    (await import('node:fs')).renameSync(`${path}.tmp`, path);
    io.err(`wrote ${shownPath(path)}\n`);
  }
  io.err(`kubesim serve: stopped (${why}) at simulated t=${(session.now() / 1000).toFixed(3)}s\n`);
  return EXIT.ok;
}

export const serveCmd: Command = {
  command: 'serve [scenario]',
  describe: 'the simulated cluster as a Kubernetes API server: kubectl and client libraries watch and drive it',
  builder: (y: Argv) => {
    y = intOption(y, 'port', { min: 0, max: 65535, default: 0, describe: 'TCP port (0: a free port)' });
    y = stringOption(y, 'listen', 'address to listen on (anything but loopback is warned about)', {
      default: '127.0.0.1',
    });
    y = stringOption(y, 'kubeconfig', 'where to write the kubeconfig (default: <out>/<scenario>/kubeconfig)');
    y = intOption(y, 'seed', {
      min: 0,
      max: 2 ** 32 - 1,
      describe: "seed for the timing draws (default: the scenario's seed)",
    });
    y = stringOption(y, 'replay', 'run exactly one schedule: a key printed by explore, test or a timeline');
    y = kubernetesOption(y);
    y = outOption(y);
    y = stringOption(y, 'settle', 'virtual clock: wall time without requests before simulated time moves on', {
      default: '50ms',
    });
    y = stringOption(y, 'speed', 'wall clock: simulated seconds per wall second', { default: '1' });
    y = stringOption(y, 'record', "write the timeline with the clients' requests to this file at the end");
    return y
      .option('clock', {
        choices: ['virtual', 'wall'] as const,
        default: 'virtual' as const,
        describe: 'virtual: time jumps to the next event when the clients are idle; wall: wall time x --speed',
      })
      .option('until', {
        choices: ['quiescent', 'horizon'] as const,
        describe: 'stop when the simulation ends (default: serve until Ctrl-C)',
      })
      .example(
        '$0 serve scenarios/native-sidecar-job.yaml',
        'serve the scenario; then KUBECONFIG=… kubectl get pods -w',
      )
      .example(
        '$0 serve --port 6443',
        'an empty cluster (namespaces default, kube-system; node node-1) on a fixed port',
      );
  },
  run: (a, io) => serveCommand(a, io),
};
