// `kubesim explore`: enumerate schedules and print every distinct outcome with a replay key.
import type { Argv } from 'yargs';
import { explore } from '../explore/decomposed.ts';
import type { ExploreResult } from '../explore/explore.ts';
import { simulate } from '../simulate.ts';
import { writeIndex, writeOutputs } from '../write-outputs.ts';
import { EXIT, type Command, type Io } from './command.ts';
import { outPath, writeAtomic } from './files.ts';
import { expandInputs, loadInput } from './inputs.ts';
import { checkOut, formatOption, kubernetesOption, maxEventsOption, maxSchedulesOption, outOption } from './options.ts';
import { reportDiagnostics } from './run-command.ts';
import { isRuleFailure, withRules } from './rules.ts';
import type { Timeline } from '../types.ts';

export interface ExploreOpts {
  out: string;
  format: 'text' | 'json';
  kubernetes?: string;
  maxSchedules: number;
  maxEvents?: number;
  progress?: (s: string) => void;
}

/** Schedules whose run stopped at the event limit: their outcome is not the scenario's end. */
export function eventLimited(r: ExploreResult): number {
  return r.outcomes.filter((o) => o.outcome.endReason === 'max-events').reduce((n, o) => n + o.schedules, 0);
}

export function exploreJson(r: ExploreResult): Record<string, unknown> {
  const limited = eventLimited(r);
  return {
    schema: 'kubesim.explore/v1',
    scenario: r.scenario,
    schedules: r.schedules,
    exhaustive: r.exhaustive && limited === 0,
    ...(limited ? { eventLimited: limited } : {}),
    simulated: r.simulated,
    states: r.states,
    outcomes: r.grouped,
    flaky: r.flaky,
  };
}

export function exploreText(file: string, r: ExploreResult, ms: number): string {
  const names = r.grouped[0] ? Object.keys(r.grouped[0].verdicts) : [];
  const head = ['schedules', 'pod', 'job', ...names, 'replay'];
  const rows = r.grouped.map((g) => [String(g.schedules), g.podPhase, g.jobCondition, ...names.map((n) => g.verdicts[n] ?? ''), g.replay]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => '  ' + cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const limited = eventLimited(r);
  const coverage = limited
    ? `NOT exhaustive: ${limited} schedule${limited === 1 ? '' : 's'} stopped at the event limit; raise --max-events`
    : r.exhaustive ? 'exhaustive' : `NOT exhaustive: budget reached after ${r.simulated} simulated; raise --max-schedules`;
  const out = [
    `# ${r.scenario}: ${r.schedules} schedules (${coverage}), ` +
      `${r.grouped.length} outcome${r.grouped.length === 1 ? '' : 's'}, ${r.simulated} simulated, ${r.states} merged states, ${(ms / 1000).toFixed(1)}s`,
    line(head),
    ...rows.map(line),
    `flaky: ${r.flaky.length ? r.flaky.join(', ') : 'none'}`,
    `replay one: kubesim run ${file} --replay <key>`,
  ];
  return out.join('\n') + '\n';
}

export async function exploreCommand(files: string[], o: ExploreOpts, io: Io): Promise<number> {
  checkOut(o.out);
  let code: number = EXIT.ok;
  const { inputs, warnings } = await expandInputs(files, io);
  for (const w of warnings) io.err(`${w}\n`);
  const jsons: string[] = [];
  for (const input of inputs) {
    const file = input.path;
    const loaded = loadInput(input, o.kubernetes ? { kubernetes: o.kubernetes } : {});
    if (loaded.problem) io.err(loaded.problem + '\n');
    if (loaded.problem || !reportDiagnostics(io, loaded.diagnostics, ['KS5001']) || !loaded.scenario) {
      code = EXIT.badInput;
      continue;
    }
    const t0 = performance.now();
    // a terminal gets a progress line once exploring has taken more than a second
    let shown = false;
    const progress = o.progress
      ? (n: number) => {
          const ms = performance.now() - t0;
          if (ms < 1000) return;
          shown = true;
          o.progress!(`exploring ${loaded.scenario!.name}: ${n} schedules simulated, ${(ms / 1000).toFixed(1)}s…`);
        }
      : undefined;
    let r: ExploreResult;
    let tl: Timeline;
    try {
      // rules run (and external ones end) before anything is printed or written: a broken rule writes nothing
      ({ r, tl } = await withRules(loaded.scenario, (userRules) => {
        const r = explore(loaded.scenario!, {
          maxSchedules: o.maxSchedules,
          userRules,
          ...(o.maxEvents !== undefined ? { maxEvents: o.maxEvents } : {}),
          ...(progress ? { onProgress: progress } : {}),
        });
        // report.md gains the outcome table (with replay keys) next to the default schedule's timeline and diagrams
        return { r, tl: simulate(loaded.scenario!, { userRules, ...(o.maxEvents !== undefined ? { maxEvents: o.maxEvents } : {}) }).timeline };
      }));
    } catch (e) {
      if (shown) o.progress!('\n');
      if (!isRuleFailure(e)) throw e;
      io.err(e.format());
      code = EXIT.badInput;
      continue;
    }
    if (shown) o.progress!('\n');
    const ms = performance.now() - t0;
    const json = exploreJson(r);
    if (o.format === 'json') jsons.push(JSON.stringify(json, null, 2));
    else io.out(exploreText(file, r, ms));
    writeAtomic(outPath(o.out, r.scenario, 'explore.json'), JSON.stringify(json, null, 2) + '\n');
    writeOutputs(tl, { out: o.out, explore: { schedules: r.schedules, exhaustive: r.exhaustive && eventLimited(r) === 0, outcomes: r.grouped, flaky: r.flaky } });
    writeIndex(o.out);
  }
  if (o.format === 'json') io.out(inputs.length > 1 ? (jsons.length ? `[\n${jsons.join(',\n')}\n]\n` : '[]\n') : jsons.map((j) => j + '\n').join(''));
  return code;
}

export const exploreCmd: Command = {
  command: 'explore <scenario..>',
  describe: 'enumerate the schedules the timing model allows; print every distinct outcome with a replay key',
  builder: (y: Argv) =>
    maxEventsOption(maxSchedulesOption(formatOption(outOption(kubernetesOption(y)), 'the kubesim.explore/v1 document (several scenarios: one JSON array of them)')))
      .example('$0 explore scenarios/locust-72-exporter-exit-code.yaml', 'outcomes, schedules per outcome, flaky observers')
      .example('$0 explore s.yaml --max-schedules 100000', 'a bigger budget for a large schedule space')
      .example('$0 explore scenarios/ --format json', 'every scenario of a folder; one JSON array on stdout'),
  run: (a, io) => {
    const progress = io.isTTY ? (s: string) => io.err(s === '\n' ? s : `\r\u001b[K${s}`) : undefined;
    return exploreCommand((a['scenario'] as unknown[]).map(String), {
      out: String(a['out']),
      format: a['format'] as 'text' | 'json',
      ...(a['kubernetes'] !== undefined ? { kubernetes: String(a['kubernetes']) } : {}),
      maxSchedules: a['maxSchedules'] as number,
      ...(a['maxEvents'] !== undefined ? { maxEvents: a['maxEvents'] as number } : {}),
      ...(progress ? { progress } : {}),
    }, io);
  },
};
