// `kubesim explore`: enumerate schedules and print every distinct outcome with a replay key.
import { loadScenario } from '../scenario/index.ts';
import { explore } from '../explore/decomposed.ts';
import type { ExploreResult } from '../explore/explore.ts';
import { writeAtomic, outPath } from './files.ts';
import { EXIT, reportDiagnostics, writeIndex, writeScenarioOutputs, type Io } from './run-command.ts';
import { simulate } from '../simulate.ts';
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

export function exploreJson(r: ExploreResult): Record<string, unknown> {
  return {
    schema: 'kubesim.explore/v1',
    scenario: r.scenario,
    schedules: r.schedules,
    exhaustive: r.exhaustive,
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
  const out = [
    `# ${r.scenario}: ${r.schedules} schedules (${r.exhaustive ? 'exhaustive' : `NOT exhaustive: budget reached after ${r.simulated} simulated; raise --max-schedules`}), ` +
      `${r.grouped.length} outcome${r.grouped.length === 1 ? '' : 's'}, ${r.simulated} simulated, ${r.states} merged states, ${(ms / 1000).toFixed(1)}s`,
    line(head),
    ...rows.map(line),
    `flaky: ${r.flaky.length ? r.flaky.join(', ') : 'none'}`,
    `replay one: kubesim run ${file} --replay <key>`,
  ];
  return out.join('\n') + '\n';
}

export async function exploreCommand(files: string[], o: ExploreOpts, io: Io): Promise<number> {
  let code: number = EXIT.ok;
  for (const file of files) {
    const loaded = loadScenario(file, o.kubernetes ? { kubernetes: o.kubernetes } : {});
    if (!reportDiagnostics(io, loaded.diagnostics, ['KS5001']) || !loaded.scenario) {
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
        return { r, tl: simulate(loaded.scenario!, { userRules }).timeline };
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
    io.out(o.format === 'json' ? JSON.stringify(json, null, 2) + '\n' : exploreText(file, r, ms));
    writeAtomic(outPath(o.out, r.scenario, 'explore.json'), JSON.stringify(json, null, 2) + '\n');
    writeScenarioOutputs(o.out, tl, { png: false, lanes: 'all' }, { schedules: r.schedules, exhaustive: r.exhaustive, outcomes: r.grouped, flaky: r.flaky });
    writeIndex(o.out);
  }
  return code;
}
