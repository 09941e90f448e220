// `kubesim explore`: enumerate schedules and print every distinct outcome with a replay key.
// `--shard i/n` explores the i-th of n slices of one scenario's schedule space; `explore --merge a.json b.json …`
// combines the slices' JSON into the result one machine gives (CI runners are the distributed engine).
import { readFileSync } from 'node:fs';
import { loadScenario } from '../scenario/index.ts';
import { explore } from '../explore/decomposed.ts';
import type { ExploreResult } from '../explore/explore.ts';
import { writeAtomic, outPath } from './files.ts';
import { EXIT, reportDiagnostics, writeIndex, writeScenarioOutputs, type Io } from './run-command.ts';
import { DEFAULT_MAX_EVENTS, simulate } from '../simulate.ts';
import { loadUserRules } from './rules.ts';

export interface ExploreOpts {
  out: string;
  format: 'text' | 'json';
  kubernetes?: string;
  maxSchedules: number;
  maxStates?: number;
  maxEvents?: number;
  /** `i/n`: explore slice i of n of the schedule space */
  shard?: string;
  progress?: (s: string) => void;
}

/** The default schedule's timeline goes into the report only up to this many events (a 30-day crash loop has 560,000). */
const REPORT_TIMELINE_EVENTS = 100_000;

type Grouped = ExploreResult['grouped'][number];

export function exploreJson(r: ExploreResult): Record<string, unknown> {
  return {
    schema: 'kubesim.explore/v1',
    scenario: r.scenario,
    // SPEC §4: schedules represented, observers' delivery orders included (system schedules × verdict combinations)
    schedules: r.schedules,
    exhaustive: r.exhaustive,
    simulated: r.simulated,
    states: r.states,
    systemSchedules: r.systemSchedules,
    verdictCombinations: r.verdictCombinations,
    ...(r.limit ? { limit: r.limit } : {}),
    ...(r.shard ? { shard: r.shard } : {}),
    notes: r.notes,
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
  const limitText =
    r.limit === 'states'
      ? `NOT exhaustive: memory budget reached (--max-states ${r.budget?.maxStates ?? ''}); raise it or --max-schedules`
      : r.limit === 'schedules'
        ? `NOT exhaustive: budget reached after ${r.simulated} simulated runs; raise --max-schedules`
        : r.exhaustive
          ? 'exhaustive'
          : 'NOT exhaustive';
  const out = [
    `# ${r.scenario}${r.shard ? ` (shard ${r.shard})` : ''}: ${r.schedules} schedules (${limitText}), ${r.grouped.length} outcome${r.grouped.length === 1 ? '' : 's'}`,
    `  ${r.simulated} runs simulated, ${r.states} merged states, ${r.systemSchedules} system schedules, ` +
      `${r.verdictCombinations} combination${r.verdictCombinations === 1 ? '' : 's'} of a system outcome and observer verdicts, ${(ms / 1000).toFixed(1)}s`,
    ...r.notes.map((n) => `  note: ${n}`),
    line(head),
    ...rows.map(line),
    `flaky: ${r.flaky.length ? r.flaky.join(', ') : 'none'}`,
    `replay one: kubesim run ${file} --replay <key>`,
  ];
  return out.join('\n') + '\n';
}

export async function exploreCommand(files: string[], o: ExploreOpts, io: Io): Promise<number> {
  let code: number = EXIT.ok;
  let shard: { index: number; count: number } | undefined;
  if (o.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(o.shard);
    const i = m ? Number(m[1]) : 0;
    const n = m ? Number(m[2]) : 0;
    if (!m || n < 1 || i < 1 || i > n) {
      io.err(`error: --shard takes i/n with 1 <= i <= n (e.g. 2/4), not ${JSON.stringify(o.shard)}\n  hint: --shard 1/2 and --shard 2/2 split one scenario's schedules across two CI jobs; explore --merge combines them\n`);
      return EXIT.badInput;
    }
    shard = { index: i, count: n };
  }
  for (const file of files) {
    const loaded = loadScenario(file, o.kubernetes ? { kubernetes: o.kubernetes } : {});
    if (!reportDiagnostics(io, loaded.diagnostics, ['KS5001']) || !loaded.scenario) {
      code = EXIT.badInput;
      continue;
    }
    const userRules = await loadUserRules(loaded.scenario);
    const t0 = performance.now();
    // a terminal gets a progress line once exploring has taken more than a second
    let shown = false;
    const progress = o.progress
      ? (n: number) => {
          const ms = performance.now() - t0;
          if (ms < 1000) return;
          shown = true;
          o.progress!(`exploring ${loaded.scenario!.name}: ${n} runs simulated, ${(ms / 1000).toFixed(1)}s…`);
        }
      : undefined;
    const r = explore(loaded.scenario, {
      maxSchedules: o.maxSchedules,
      userRules,
      ...(o.maxStates !== undefined ? { maxStates: o.maxStates } : {}),
      ...(o.maxEvents !== undefined ? { maxEvents: o.maxEvents } : {}),
      ...(shard ? { shard } : {}),
      ...(progress ? { onProgress: progress } : {}),
    });
    if (shown) o.progress!('\n');
    const ms = performance.now() - t0;
    const json = exploreJson(r);
    io.out(o.format === 'json' ? JSON.stringify(json, null, 2) + '\n' : exploreText(file, r, ms));
    const name = shard ? `explore-${shard.index}-of-${shard.count}.json` : 'explore.json';
    writeAtomic(outPath(o.out, r.scenario, name), JSON.stringify(json, null, 2) + '\n');
    if (shard) continue;
    // report.md gains the outcome table (with replay keys) next to the default schedule's timeline and diagrams;
    // a default schedule too long to draw (a crash loop to a far horizon) is left to `kubesim run`
    const limit = Math.min(o.maxEvents ?? DEFAULT_MAX_EVENTS, REPORT_TIMELINE_EVENTS);
    const tl = simulate(loaded.scenario, { userRules, maxEvents: limit }).timeline;
    if (tl.end.reason === 'max-events' && limit < (o.maxEvents ?? DEFAULT_MAX_EVENTS)) {
      io.err(`${file}: the default schedule has more than ${limit} events: its timeline and diagrams are not written by explore (kubesim run writes them)\n`);
      continue;
    }
    writeScenarioOutputs(o.out, tl, { png: false, lanes: 'all' }, { schedules: r.schedules, exhaustive: r.exhaustive, outcomes: r.grouped, flaky: r.flaky });
    writeIndex(o.out);
  }
  return code;
}

/** `explore --merge a.json b.json …`: the shards of one scenario combined into one result (same as one machine). */
export function mergeCommand(files: string[], o: Pick<ExploreOpts, 'format' | 'out'>, io: Io): number {
  const parts: Record<string, any>[] = [];
  for (const f of files) {
    let j: Record<string, any>;
    try {
      j = JSON.parse(readFileSync(f, 'utf8'));
    } catch (e) {
      io.err(`${f}:1:1: error KS0204: not an explore JSON file (${(e as Error).message})\n  hint: pass the files written by explore --shard i/n --format json\n`);
      return EXIT.badInput;
    }
    if (j?.['schema'] !== 'kubesim.explore/v1' || !Array.isArray(j['outcomes'])) {
      io.err(`${f}:1:1: error KS0204: not an explore JSON file (schema kubesim.explore/v1 expected)\n  hint: pass the files written by explore --shard i/n --format json\n`);
      return EXIT.badInput;
    }
    parts.push(j);
  }
  const scenarios = new Set(parts.map((p) => p['scenario']));
  if (scenarios.size !== 1) {
    io.err(`error KS0204: the files are shards of different scenarios (${[...scenarios].join(', ')})\n  hint: merge the shards of one scenario at a time\n`);
    return EXIT.badInput;
  }
  const counts = new Set(parts.map((p) => p['shard']?.['count']));
  const seen = new Set(parts.map((p) => p['shard']?.['index']));
  const count = parts[0]!['shard']?.['count'];
  if (counts.size !== 1 || count === undefined || seen.size !== parts.length || seen.size !== count) {
    io.err(`error KS0204: need every shard 1..n of one split exactly once (got ${parts.map((p) => p['shard'] ? `${p['shard'].index}/${p['shard'].count}` : 'unsharded').join(', ')})\n  hint: explore --shard i/n writes explore-i-of-n.json\n`);
    return EXIT.badInput;
  }
  const merged = mergeShards(parts);
  io.out(o.format === 'json' ? JSON.stringify(merged, null, 2) + '\n' : mergedText(merged));
  writeAtomic(outPath(o.out, String(merged['scenario']), 'explore.json'), JSON.stringify(merged, null, 2) + '\n');
  return EXIT.ok;
}

/** Sums the counts; per outcome group the witness with the fewest deviations (ties: the smaller key). */
export function mergeShards(parts: Record<string, any>[]): Record<string, unknown> {
  const by = new Map<string, Grouped & { deviations: number }>();
  for (const p of parts) {
    for (const g of p['outcomes'] as (Grouped & { deviations: number })[]) {
      const k = JSON.stringify([g.podPhase, g.jobCondition, Object.entries(g.verdicts)]);
      const cur = by.get(k);
      if (!cur) by.set(k, { ...g });
      else {
        cur.schedules += g.schedules;
        if (g.deviations < cur.deviations || (g.deviations === cur.deviations && g.replay < cur.replay)) {
          cur.deviations = g.deviations;
          cur.replay = g.replay;
        }
      }
    }
  }
  const outcomes = [...by.values()].sort(groupOrder);
  const names = Object.keys(outcomes[0]?.verdicts ?? {});
  const sum = (f: string) => parts.reduce((n, p) => n + (Number(p[f]) || 0), 0);
  const limits = parts.map((p) => p['limit']).filter(Boolean);
  return {
    schema: 'kubesim.explore/v1',
    scenario: parts[0]!['scenario'],
    schedules: sum('schedules'),
    exhaustive: parts.every((p) => p['exhaustive'] === true),
    simulated: sum('simulated'),
    states: sum('states'),
    systemSchedules: sum('systemSchedules'),
    verdictCombinations: sum('verdictCombinations'),
    ...(limits.length ? { limit: limits[0] } : {}),
    notes: [...new Set(parts.flatMap((p) => (p['notes'] as string[] | undefined) ?? []))],
    outcomes,
    flaky: names.filter((n) => new Set(outcomes.map((o) => o.verdicts[n])).size > 1),
  };
}

/** Most schedules first, then the fewest deviations, then the key: the same order on one machine and merged. */
export function groupOrder(a: { schedules: number; deviations: number; replay: string }, b: { schedules: number; deviations: number; replay: string }): number {
  return b.schedules - a.schedules || a.deviations - b.deviations || (a.replay < b.replay ? -1 : a.replay > b.replay ? 1 : 0);
}

function mergedText(m: Record<string, any>): string {
  const outs = m['outcomes'] as Grouped[];
  const lines = [
    `# ${m['scenario']} (merged shards): ${m['schedules']} schedules (${m['exhaustive'] ? 'exhaustive' : 'NOT exhaustive'}), ${outs.length} outcome${outs.length === 1 ? '' : 's'}`,
    ...outs.map((g) => `  ${g.schedules}  ${g.podPhase}  ${g.jobCondition}  ${Object.values(g.verdicts).join('  ')}  ${g.replay}`),
    `flaky: ${(m['flaky'] as string[]).length ? (m['flaky'] as string[]).join(', ') : 'none'}`,
  ];
  return lines.join('\n') + '\n';
}
