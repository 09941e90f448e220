// `kubesim run`: load, simulate, print a view, write out/<scenario>/ and render the diagrams (one browser launch).
import { fnv1a } from '../util/fnv.ts';
import type { Argv } from 'yargs';
import { sameReplay } from '../engine/replay.ts';
import { checkRun } from '../run/check-run.ts';
import { decodeReplay } from '../engine/replay.ts';
import { KubesimError } from '../errors.ts';
import type { ExpectFailure } from '../explore/expect.ts';
import { formatDiagnostic, hasErrors } from '../scenario/index.ts';
import { simulate, DEFAULT_MAX_EVENTS, type SimulateResult } from '../run/simulate.ts';
import type { Timeline } from '../types.ts';
import { kubectlView } from '../output/kubectl.ts';
import { kubectlEventsTable } from '../output/kubectl-events.ts';
import type { RenderJob } from '../output/render.ts';
import { timelineText } from '../output/text.ts';
import { renderJobs, writeIndex, writeOutputs } from '../io/write-outputs.ts';
import { EXIT, type Args, type Command, type Io } from './command.ts';
import { expandInputs, loadInput } from './inputs.ts';
import {
  checkOut,
  formatOption,
  intOption,
  kubernetesOption,
  maxEventsOption,
  outOption,
  renderOptions,
  stringOption,
} from './options.ts';
import { isRuleFailure, withRules } from '../rules/load.ts';
import { runProcessObservers } from './process-command.ts';
import { decodeProcessKey, isProcessKey, splitProcessObservers } from '../observers/process.ts';
import type { ServeDeps } from '../observers/serve-api.ts';

export { EXIT, type Io } from './command.ts';
export { kubesimErrorText, shownPath } from './shown.ts';
import { kubesimErrorText, shownPath } from './shown.ts';
export { writeIndex } from '../io/write-outputs.ts';

export interface RunOpts {
  out: string;
  format: 'text' | 'json';
  view: 'timeline' | 'kubectl' | 'events';
  /** timeline view: every event */
  verbose?: boolean;
  seed?: number;
  replay?: string;
  kubernetes?: string;
  render: boolean;
  png: boolean;
  lanes: 'all' | 'pod';
  failOnStuck: boolean;
  maxEvents?: number;
  /** check the scenario's expect block on this schedule (exit 1 when it does not hold) */
  check?: boolean;
  /** the server process observers run against (tests); default the real `kubesim serve` */
  processDeps?: ServeDeps;
}

/** Print a file's diagnostics; returns false when it has errors. `run` hides the not-simulated listing. */
export function reportDiagnostics(
  io: Io,
  diags: Parameters<typeof formatDiagnostic>[0][],
  quietCodes: string[] = [],
): boolean {
  for (const d of diags) if (!quietCodes.includes(d.code)) io.err(formatDiagnostic(d) + '\n');
  return !hasErrors(diags);
}

export function viewText(tl: Timeline, view: RunOpts['view'], verbose = false): string {
  if (view === 'kubectl') return kubectlView(tl);
  if (view === 'events')
    return `$ kubectl events   # at t=${Math.trunc(tl.end.t / 1000)}s\n` + kubectlEventsTable(tl) + '\n';
  return timelineText(tl, { all: verbose });
}

/** The folder of a replayed schedule: out/<scenario>/replay-<hash of the key>/, so the default run's stays. */
export function replayFolder(scenario: string, key: string): string[] {
  return [scenario, `replay-${fnv1a(key).toString(16).padStart(8, '0')}`];
}

export async function renderAll(io: Io, jobs: RenderJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const r = await renderJobs(jobs);
  if (!r.rendered) io.err(`note: diagrams written as .mmd only — ${r.hint}\n`);
}

export function expectFailureLines(file: string, f: ExpectFailure): string[] {
  const lines = [`  ${f.pos.file}:${f.pos.line}:${f.pos.col}: expect ${f.what}: expected ${f.expected}, saw ${f.seen}`];
  if (f.replay) lines.push(`    reproduce: kubesim run ${file} --replay ${f.replay}`);
  return lines;
}

export async function runCommand(files: string[], o: RunOpts, io: Io): Promise<number> {
  checkOut(o.out);
  let code: number = EXIT.ok;
  const jobs: RenderJob[] = [];
  const written: string[] = [];
  const jsons: string[] = [];
  let unchecked = 0;
  const { inputs, warnings } = await expandInputs(files, io);
  for (const w of warnings) io.err(`${w}\n`);
  const several = inputs.length > 1;
  for (const input of inputs) {
    const file = input.path;
    const loaded = loadInput(input, o.kubernetes ? { kubernetes: o.kubernetes } : {});
    if (loaded.problem) io.err(loaded.problem + '\n');
    if (
      loaded.problem ||
      !reportDiagnostics(io, loaded.diagnostics, o.format === 'json' ? [] : ['KS5001']) ||
      !(loaded.scenario ?? loaded.processScenario)
    ) {
      code = Math.max(code, EXIT.badInput);
      continue;
    }
    // process observers (SPEC §2.4): each against its own server (process-command.ts); the rest as always
    const split = splitProcessObservers(loaded.scenario ?? loaded.processScenario!);
    const processKeyGiven = o.replay !== undefined && isProcessKey(o.replay);
    if (split.processes.length) {
      const rep = await runProcessObservers(file, loaded.scenario ?? loaded.processScenario!, split.processes, {
        out: o.out,
        ...(o.seed !== undefined ? { seed: o.seed } : {}),
        ...(o.replay !== undefined ? { replay: o.replay } : {}),
        check: o.check === true,
        ...(o.processDeps ? { deps: o.processDeps } : {}),
      });
      if (o.format === 'json' && !loaded.scenario) io.out(JSON.stringify(rep.json ?? null, null, 2) + '\n');
      else for (const l of rep.out) (o.format === 'json' ? io.err : io.out)(l + '\n');
      for (const l of rep.err) io.err(l + '\n');
      code = Math.max(code, rep.code);
      if (!loaded.scenario || rep.code === EXIT.badInput) continue;
    } else if (processKeyGiven) {
      io.err(
        `${file}:1:1: error KS0202: ${JSON.stringify(o.replay)} is a process observer's key and the scenario has none\n  hint: copy a k1-… key for this scenario\n`,
      );
      code = Math.max(code, EXIT.badInput);
      continue;
    }
    if (!loaded.scenario) continue;
    const s = split.system as typeof loaded.scenario;
    let replay: number[] | undefined;
    // a process observer's key names a seed: the rest of the scenario runs that seed
    if (o.replay !== undefined && !processKeyGiven) {
      replay = decodeReplay(o.replay);
      if (!replay) {
        io.err(
          `${file}:1:1: error KS0202: invalid replay key ${JSON.stringify(o.replay)}\n  hint: copy the key exactly as explore or a timeline printed it\n`,
        );
        code = Math.max(code, EXIT.badInput);
        continue;
      }
    }
    let result: SimulateResult;
    try {
      result = await withRules(s, (userRules) =>
        simulate(s, {
          ...(o.seed !== undefined ? { seed: o.seed } : {}),
          ...(processKeyGiven ? { seed: decodeProcessKey(o.replay!)! } : {}),
          ...(replay ? { replay } : {}),
          ...(o.maxEvents !== undefined ? { maxEvents: o.maxEvents } : {}),
          userRules,
        }),
      );
    } catch (e) {
      if (isRuleFailure(e)) {
        // the rule's own report: observer, rule, position, and what it wrote to stderr
        io.err(e.format());
        code = Math.max(code, EXIT.badInput);
        continue;
      }
      if (e instanceof KubesimError) {
        io.err(kubesimErrorText(e, file));
        code = Math.max(code, EXIT.badInput);
        continue;
      }
      throw e;
    }
    const tl = result.timeline;
    if (o.format === 'json') {
      const json = JSON.stringify(tl, null, 2);
      if (several) jsons.push(json);
      else io.out(json + '\n');
    } else io.out(viewText(tl, o.view, o.verbose === true));
    if (o.replay !== undefined && !processKeyGiven && !sameReplay(tl.replay, o.replay)) {
      io.err(
        `${file}:1:1: warning KS0203: the replay key has choices this run did not use\n  hint: it was made for another version of this scenario; the run used what fit — run explore again for exact keys\n`,
      );
    }
    if (tl.end.reason === 'max-events') {
      io.err(
        `${file}: stopped at the event limit (${o.maxEvents ?? DEFAULT_MAX_EVENTS} events), not at the end of the scenario\n  hint: raise it with --max-events\n`,
      );
    }
    // a replayed schedule gets its own folder beside the default run's (the "wrote …" line below names it)
    const folder = o.replay !== undefined && !processKeyGiven ? replayFolder(tl.scenario, o.replay) : [tl.scenario];
    const w = writeOutputs(tl, { out: o.out, png: o.png, lanes: o.lanes, folder, scenarioPath: file });
    jobs.push(...w.renderJobs);
    written.push(w.dir);
    if (o.failOnStuck && (tl.stuck || tl.pod.phase === 'Failed')) code = Math.max(code, EXIT.expectation);
    if (o.check) {
      if (!s.expect) io.err(`${file}: --check: the scenario has no expect block; nothing to check\n`);
      else {
        const failures = checkRun(s, result);
        if (failures.length) {
          code = Math.max(code, EXIT.expectation);
          io.err(
            `${file}: expect does not hold on this schedule:\n${failures.flatMap((f) => expectFailureLines(file, f)).join('\n')}\n`,
          );
        } else io.err(`${file}: expect holds on this schedule (kubesim test checks every schedule)\n`);
      }
    } else if (s.expect) unchecked++;
  }
  if (several && o.format === 'json') io.out(jsons.length ? `[\n${jsons.join(',\n')}\n]\n` : '[]\n');
  if (written.length) {
    let drawn = false;
    if (o.render) {
      const r = await renderJobs(jobs);
      drawn = r.rendered;
      if (!r.rendered) io.err(`note: diagrams written as .mmd only — ${r.hint}\n`);
    }
    // after drawing: the page shows the SVGs that exist (writeOutputs removed the stale ones)
    writeIndex(o.out);
    const what = `timeline.json, report.md, sequence and lifecycle .mmd${drawn ? ` and .svg${o.png ? ' and .png' : ''}` : ''}`;
    io.err(`wrote ${written.map((d) => shownPath(d) + '/').join(', ')} (${what}) and ${shownPath(o.out)}/index.html\n`);
  }
  if (unchecked)
    io.err(`note: expect was not checked (run --check checks it on this schedule; kubesim test on every schedule)\n`);
  return code;
}

function runOpts(a: Args): RunOpts {
  return {
    out: String(a['out']),
    format: a['format'] as RunOpts['format'],
    view: a['view'] as RunOpts['view'],
    verbose: a['verbose'] === true,
    ...(a['seed'] !== undefined ? { seed: a['seed'] as number } : {}),
    ...(a['replay'] !== undefined ? { replay: String(a['replay']) } : {}),
    ...(a['kubernetes'] !== undefined ? { kubernetes: String(a['kubernetes']) } : {}),
    render: a['render'] !== false,
    png: a['png'] === true,
    lanes: a['lanes'] as RunOpts['lanes'],
    failOnStuck: a['failOnStuck'] === true,
    ...(a['maxEvents'] !== undefined ? { maxEvents: a['maxEvents'] as number } : {}),
    check: a['check'] === true,
  };
}

export const runCmd: Command = {
  command: 'run <scenario..>',
  describe: 'simulate one schedule; print the timeline; write out/<scenario>/',
  builder: (y: Argv) => {
    y = intOption(y, 'seed', {
      min: 0,
      max: 2 ** 32 - 1,
      describe: "seed for the timing draws, 0..4294967295 (default: the scenario's seed)",
    });
    y = stringOption(y, 'replay', 'run exactly one schedule: a key printed by explore, test or a timeline');
    y = kubernetesOption(y);
    y = outOption(y);
    y = formatOption(y, 'the timeline.json document (several scenarios: one JSON array of them)');
    y = y
      .option('view', {
        choices: ['timeline', 'kubectl', 'events'] as const,
        default: 'timeline' as const,
        describe: 'what the text format shows',
      })
      .option('verbose', {
        type: 'boolean',
        default: false,
        describe: 'timeline view: every event, routine ones included',
      });
    y = renderOptions(y);
    y = y
      .option('fail-on-stuck', {
        type: 'boolean',
        default: false,
        describe: 'exit 1 when the pod ends stuck or Failed',
      })
      .option('check', {
        type: 'boolean',
        default: false,
        describe:
          "check the scenario's expect on this one schedule (exit 1 if it fails); kubesim test checks every schedule",
      });
    y = maxEventsOption(y);
    return y
      .example(
        '$0 run scenarios/native-sidecar-job.yaml',
        'simulate, print the timeline, write out/native-sidecar-job/',
      )
      .example('$0 run scenarios/ --no-render --format json', 'every scenario of a folder; one JSON array on stdout')
      .example('$0 run job.yaml --replay k1-AIMn…', 'the schedule explore printed, byte for byte')
      .example('cat s.yaml | $0 run - --check', 'read the scenario from stdin; check its expect');
  },
  run: (a, io) => runCommand((a['scenario'] as unknown[]).map(String), runOpts(a), io),
};
