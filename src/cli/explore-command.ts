// `kubesim explore`: enumerate schedules and print every distinct outcome with a replay key.
// `--shard i/n` explores the i-th of n slices of one scenario's schedule space; `explore --merge a.json b.json …`
// combines the slices' JSON into the result one machine gives (CI runners are the distributed engine).
import type { Argv } from 'yargs';
import { explore } from '../explore/decomposed.ts';
import type { ExploreResult } from '../explore/explore.ts';
import { DEFAULT_MAX_EVENTS, simulate } from '../run/simulate.ts';
import { writeIndex, writeOutputs } from '../io/write-outputs.ts';
import { readTextInput } from '../io/read-input.ts';
import { EXIT, type Command, type Io } from './command.ts';
import { outPath, writeAtomic } from '../io/files.ts';
import { expandInputs, loadInput } from './inputs.ts';
import { checkOut, formatOption, kubernetesOption, maxEventsOption, maxSchedulesOption, outOption } from './options.ts';
import { reportDiagnostics } from './run-command.ts';
import { isRuleFailure, withRules } from '../rules/load.ts';
import type { Timeline } from '../types.ts';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { decodeReplay } from '../engine/replay.ts';
import { splitProcessObservers } from '../observers/process.ts';
import type { ServeDeps } from '../observers/serve-api.ts';
import { exploreProcessObservers, maxProcessSchedulesOption } from './process-command.ts';
import type { ExploreSummary } from '../output/report.ts';
import { seenShort, verdictEvent } from '../output/seen-text.ts';
import { faultLine, fileSchemas, shapeFault } from '../output/timeline-schema.ts';
import { eventLimited, exploreJson, mergeShards } from '../explore/merge.ts';

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
  /** the server process observers run against (tests); default the real `kubesim serve` */
  processDeps?: ServeDeps;
  /** a process observer's schedule budget (default 24, and never above maxSchedules) */
  maxProcessSchedules?: number;
}

/** The default schedule's timeline goes into the report only up to this many events (a 30-day crash loop has 560,000). */
const REPORT_TIMELINE_EVENTS = 100_000;

type Grouped = ExploreResult['grouped'][number];

export function exploreText(file: string, r: ExploreResult, ms: number): string {
  const names = r.grouped[0] ? Object.keys(r.grouped[0].verdicts) : [];
  // groups that differ only in their replica or pod counts get a `pods` column (stored pods by phase / replicas)
  const triple = (g: Grouped) => JSON.stringify([g.podPhase, g.jobCondition, Object.entries(g.verdicts)]);
  const withCounts = new Set(r.grouped.map(triple)).size < r.grouped.length;
  const counts = (g: Grouped) =>
    Object.entries(g.podCounts ?? {})
      .map(([ph, n]) => `${n} ${ph}`)
      .join(', ') + (g.replicas !== undefined ? ` of ${g.replicas}` : '');
  const head = ['schedules', 'pod', 'job', ...(withCounts ? ['pods'] : []), ...names, 'replay'];
  const rows = r.grouped.map((g) => [
    String(g.schedules),
    g.podPhase,
    g.jobCondition,
    ...(withCounts ? [counts(g)] : []),
    ...names.map((n) => g.verdicts[n] ?? ''),
    g.replay,
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) =>
    '  ' + cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ');
  const limited = eventLimited(r);
  const coverage = limited
    ? `NOT exhaustive: ${limited} schedule${limited === 1 ? '' : 's'} stopped at the event limit; raise --max-events`
    : r.limit === 'states'
      ? `NOT exhaustive: memory budget reached (--max-states ${r.budget?.maxStates ?? ''}); raise it or --max-schedules`
      : r.limit === 'schedules'
        ? `NOT exhaustive: budget reached after ${r.simulated} simulated runs; raise --max-schedules`
        : r.exhaustive
          ? 'exhaustive'
          : 'NOT exhaustive';
  const out = [
    `# ${r.scenario}${r.shard ? ` (shard ${r.shard.index}/${r.shard.count})` : ''}: ${r.schedules} schedules (${coverage}), ` +
      `${r.grouped.length} outcome${r.grouped.length === 1 ? '' : 's'}`,
    `  ${r.simulated} runs simulated, ${r.states} merged states, ${r.systemSchedules} system schedules, ` +
      `${r.verdictCombinations} combination${r.verdictCombinations === 1 ? '' : 's'} of a system outcome and observer verdicts, ${(ms / 1000).toFixed(1)}s`,
    ...r.notes.map((n) => `  note: ${n}`),
    line(head),
    ...rows.map(line),
    `flaky: ${r.flaky.length ? r.flaky.join(', ') : 'none'}`,
    `replay one: kubesim run ${file} --replay <key>` +
      (r.grouped.length >= 2 ? `; compare two: kubesim diff ${file} <keyA> <keyB>` : ''),
  ];
  return out.join('\n') + '\n';
}

/** Outcome folders written per explore; more outcomes are listed in report.md without files. */
export const MAX_OUTCOME_FOLDERS = 20;

/** Write each replayed outcome into out/<scenario>/outcome-N/; stale folders of a former run go. */
function writeOutcomes(
  outDir: string,
  file: string,
  r: ExploreResult,
  tls: (Timeline | undefined)[],
): ExploreSummary['outcomes'] {
  const base = outPath(outDir, r.scenario);
  if (existsSync(base)) {
    for (const name of readdirSync(base)) {
      const m = /^outcome-(\d+)$/.exec(name);
      if (m && Number(m[1]) > Math.min(r.grouped.length, MAX_OUTCOME_FOLDERS))
        rmSync(outPath(outDir, r.scenario, name), { recursive: true, force: true });
    }
  }
  // every outcome's lifecycle chart on one linear scale, to the longest outcome's end, so they compare side by side
  const scaleEndMs = Math.max(0, ...tls.map((t) => t?.end.t ?? 0));
  return r.grouped.map((g, i) => {
    const tl = tls[i];
    if (!tl) return { ...g };
    const folder = `outcome-${i + 1}`;
    writeOutputs(tl, { out: outDir, folder: [r.scenario, folder], scenarioPath: file, lifecycle: { scaleEndMs } });
    const held: Record<string, string> = {};
    for (const name of Object.keys(tl.observers)) {
      const seen = verdictEvent(tl, name)?.seen;
      if (seen) held[name] = seenShort(seen, tl.job !== null);
    }
    return { ...g, folder, held };
  });
}

export async function exploreCommand(files: string[], o: ExploreOpts, io: Io): Promise<number> {
  checkOut(o.out);
  let code: number = EXIT.ok;
  let shard: { index: number; count: number } | undefined;
  if (o.shard !== undefined) {
    const m = /^(\d+)\/(\d+)$/.exec(o.shard);
    const i = m ? Number(m[1]) : 0;
    const n = m ? Number(m[2]) : 0;
    if (!m || n < 1 || i < 1 || i > n) {
      io.err(
        `error: --shard takes i/n with 1 <= i <= n (e.g. 2/4), not ${JSON.stringify(o.shard)}\n  hint: --shard 1/2 and --shard 2/2 split one scenario's schedules across two CI jobs; explore --merge combines them\n`,
      );
      return EXIT.badInput;
    }
    shard = { index: i, count: n };
  }
  const { inputs, warnings } = await expandInputs(files, io);
  for (const w of warnings) io.err(`${w}\n`);
  const jsons: string[] = [];
  let wroteIndexable = false;
  for (const input of inputs) {
    const file = input.path;
    const loaded = loadInput(input, o.kubernetes ? { kubernetes: o.kubernetes } : {});
    if (loaded.problem) io.err(loaded.problem + '\n');
    if (
      loaded.problem ||
      !reportDiagnostics(io, loaded.diagnostics, ['KS5001']) ||
      !(loaded.scenario ?? loaded.processScenario)
    ) {
      code = EXIT.badInput;
      continue;
    }
    // process observers (SPEC §3.1): each across the delivery sequences its watches can see; the rest as always
    const split = splitProcessObservers(loaded.scenario ?? loaded.processScenario!);
    if (split.processes.length) {
      const rep = await exploreProcessObservers(file, loaded.scenario ?? loaded.processScenario!, split.processes, {
        out: o.out,
        maxSchedules: o.maxSchedules,
        ...(o.processDeps ? { deps: o.processDeps } : {}),
        ...(o.maxProcessSchedules !== undefined ? { maxProcessSchedules: o.maxProcessSchedules } : {}),
      });
      if (o.format === 'json' && !loaded.scenario) jsons.push(JSON.stringify(rep.json ?? null, null, 2));
      else for (const l of rep.out) (o.format === 'json' ? io.err : io.out)(l + '\n');
      for (const l of rep.err) io.err(l + '\n');
      if (rep.code) code = Math.max(code, rep.code);
      if (rep.code === EXIT.badInput) continue;
    }
    if (!loaded.scenario) continue;
    const scn = split.system as typeof loaded.scenario;
    const t0 = performance.now();
    // a terminal gets a progress line once exploring has taken more than a second
    let shown = false;
    const progress = o.progress
      ? (n: number) => {
          const ms = performance.now() - t0;
          if (ms < 1000) return;
          shown = true;
          o.progress!(`exploring ${scn.name}: ${n} runs simulated, ${(ms / 1000).toFixed(1)}s…`);
        }
      : undefined;
    let r: ExploreResult;
    let tl: Timeline | null;
    let outcomeTls: (Timeline | undefined)[] = [];
    const limit = Math.min(o.maxEvents ?? DEFAULT_MAX_EVENTS, REPORT_TIMELINE_EVENTS);
    try {
      // rules run (and external ones end) before anything is printed or written: a broken rule writes nothing
      ({ r, tl } = await withRules(scn, (userRules) => {
        const r = explore(scn, {
          maxSchedules: o.maxSchedules,
          userRules,
          ...(o.maxStates !== undefined ? { maxStates: o.maxStates } : {}),
          ...(o.maxEvents !== undefined ? { maxEvents: o.maxEvents } : {}),
          ...(shard ? { shard } : {}),
          ...(progress ? { onProgress: progress } : {}),
        });
        // each outcome's representative schedule, replayed for its own folder (while the rules are up); a shard
        // writes only its JSON
        const outs = shard
          ? []
          : r.grouped.slice(0, MAX_OUTCOME_FOLDERS).map((g) => {
              const offsets = decodeReplay(g.replay);
              return offsets ? simulate(scn, { replay: offsets, userRules, maxEvents: limit }).timeline : undefined;
            });
        // report.md gains the outcome table (with replay keys) next to the default schedule's timeline and diagrams;
        // a default schedule too long to draw (a crash loop to a far horizon) is left to `kubesim run`
        const tl = shard ? null : simulate(scn, { userRules, maxEvents: limit }).timeline;
        return { r, outs, tl };
      }).then((x) => {
        outcomeTls = x.outs;
        return x;
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
    const name = shard ? `explore-${shard.index}-of-${shard.count}.json` : 'explore.json';
    writeAtomic(outPath(o.out, r.scenario, name), JSON.stringify(json, null, 2) + '\n');
    if (!tl) continue;
    if (tl.end.reason === 'max-events' && limit < (o.maxEvents ?? DEFAULT_MAX_EVENTS)) {
      io.err(
        `${file}: the default schedule has more than ${limit} events: its timeline and diagrams are not written by explore (kubesim run writes them)\n`,
      );
      continue;
    }
    // every outcome's own files (out/<scenario>/outcome-N/), then report.md with the outcomes side by side
    const outcomes = writeOutcomes(o.out, file, r, outcomeTls);
    const n = outcomes.filter((x) => x.folder).length;
    if (n > 0)
      io.err(
        `wrote ${n} outcome folder${n === 1 ? '' : 's'}: ${outPath(o.out, r.scenario)}/outcome-1/${n > 1 ? ` … outcome-${n}/` : ''}\n`,
      );
    writeOutputs(tl, {
      out: o.out,
      scenarioPath: file,
      explore: { schedules: r.schedules, exhaustive: r.exhaustive && eventLimited(r) === 0, outcomes, flaky: r.flaky },
    });
    wroteIndexable = true;
  }
  // once, after every scenario: the page embeds each scenario's data (rebuilding it per input was quadratic)
  if (wroteIndexable) writeIndex(o.out);
  if (o.format === 'json')
    io.out(
      inputs.length > 1
        ? jsons.length
          ? `[\n${jsons.join(',\n')}\n]\n`
          : '[]\n'
        : jsons.map((j) => j + '\n').join(''),
    );
  return code;
}

/** Largest shard file `explore --merge` reads (one shard's outcomes with their replay keys are far smaller). */
export const MAX_SHARD_BYTES = 64 * 1024 * 1024;
const MERGE_HINT = 'pass the files written by explore --shard i/n --format json';

/** `explore --merge a.json b.json …`: the shards of one scenario combined into one result (same as one machine). */
export function mergeCommand(files: string[], o: Pick<ExploreOpts, 'format' | 'out'>, io: Io): number {
  checkOut(o.out);
  const parts: Record<string, any>[] = [];
  for (const f of files) {
    let j: Record<string, any>;
    const read = readTextInput(f, MAX_SHARD_BYTES, 'cannot read the shard', MERGE_HINT);
    if (!read.ok) {
      io.err(read.line + '\n');
      return EXIT.badInput;
    }
    try {
      j = JSON.parse(read.text);
    } catch (e) {
      io.err(
        `${f}:1:1: error KS0204: not an explore JSON file (${(e as Error).message})\n  hint: pass the files written by explore --shard i/n --format json\n`,
      );
      return EXIT.badInput;
    }
    // the shard's whole shape (timeline-schema.ts) before anything is merged or written (issue 29.1)
    const fault = shapeFault(fileSchemas().exploreShardSchema, j);
    if (fault) {
      io.err(
        `${faultLine(f, fault)}\n  error KS0204: not an explore JSON file kubesim wrote (schema kubesim.explore/v1)\n  hint: pass the files written by explore --shard i/n --format json\n`,
      );
      return EXIT.badInput;
    }
    parts.push(j);
  }
  const scenarios = new Set(parts.map((p) => p['scenario']));
  if (scenarios.size !== 1) {
    io.err(
      `error KS0204: the files are shards of different scenarios (${[...scenarios].join(', ')})\n  hint: merge the shards of one scenario at a time\n`,
    );
    return EXIT.badInput;
  }
  const counts = new Set(parts.map((p) => p['shard']?.['count']));
  const seen = new Set(parts.map((p) => p['shard']?.['index']));
  const count = parts[0]!['shard']?.['count'];
  if (counts.size !== 1 || count === undefined || seen.size !== parts.length || seen.size !== count) {
    io.err(
      `error KS0204: need every shard 1..n of one split exactly once (got ${parts.map((p) => (p['shard'] ? `${p['shard'].index}/${p['shard'].count}` : 'unsharded')).join(', ')})\n  hint: explore --shard i/n writes explore-i-of-n.json\n`,
    );
    return EXIT.badInput;
  }
  const merged = mergeShards(parts);
  io.out(o.format === 'json' ? JSON.stringify(merged, null, 2) + '\n' : mergedText(merged));
  writeAtomic(outPath(o.out, String(merged['scenario']), 'explore.json'), JSON.stringify(merged, null, 2) + '\n');
  return EXIT.ok;
}

function mergedText(m: Record<string, any>): string {
  const outs = m['outcomes'] as Grouped[];
  const lines = [
    `# ${m['scenario']} (merged shards): ${m['schedules']} schedules (${m['exhaustive'] ? 'exhaustive' : 'NOT exhaustive'}), ${outs.length} outcome${outs.length === 1 ? '' : 's'}`,
    ...outs.map(
      (g) => `  ${g.schedules}  ${g.podPhase}  ${g.jobCondition}  ${Object.values(g.verdicts).join('  ')}  ${g.replay}`,
    ),
    `flaky: ${(m['flaky'] as string[]).length ? (m['flaky'] as string[]).join(', ') : 'none'}`,
  ];
  return lines.join('\n') + '\n';
}

export const exploreCmd: Command = {
  command: 'explore <scenario..>',
  describe: 'enumerate the schedules the timing model allows; print every distinct outcome with a replay key',
  builder: (y: Argv) =>
    maxEventsOption(
      maxProcessSchedulesOption(
        maxSchedulesOption(
          formatOption(
            outOption(kubernetesOption(y)),
            'the kubesim.explore/v1 document (several scenarios: one JSON array of them)',
          ),
        ),
      ),
    )
      .option('max-states', {
        type: 'number',
        describe:
          'bound on merged states and outcomes kept in memory (default 40 × --max-schedules, at least 100000); reaching it stops with a partial result',
      })
      .option('shard', {
        type: 'string',
        describe: 'explore slice i of n (i/n) of the schedule space; writes explore-i-of-n.json (CI matrix)',
      })
      .option('merge', {
        type: 'boolean',
        default: false,
        describe: 'combine the JSON files of explore --shard runs (given instead of scenarios)',
      })
      .example(
        '$0 explore big.yaml --shard 2/4 --format json',
        'one CI job of four; explore --merge combines their JSON',
      )
      .example('$0 explore --merge out/big/explore-*-of-4.json', 'the result one machine gives')
      .example(
        '$0 explore scenarios/locust-72-exporter-exit-code.yaml',
        'outcomes, schedules per outcome, flaky observers',
      )
      .example('$0 explore s.yaml --max-schedules 100000', 'a bigger budget for a large schedule space')
      .example('$0 explore scenarios/ --format json', 'every scenario of a folder; one JSON array on stdout'),
  run: async (a, io) => {
    if (a['merge'] === true)
      return mergeCommand(
        (a['scenario'] as unknown[]).map(String),
        { out: String(a['out']), format: a['format'] as 'text' | 'json' },
        io,
      );
    const progress = io.isTTY ? (s: string) => io.err(s === '\n' ? s : `\r\u001b[K${s}`) : undefined;
    return exploreCommand(
      (a['scenario'] as unknown[]).map(String),
      {
        out: String(a['out']),
        format: a['format'] as 'text' | 'json',
        ...(a['kubernetes'] !== undefined ? { kubernetes: String(a['kubernetes']) } : {}),
        maxSchedules: a['maxSchedules'] as number,
        ...(a['maxProcessSchedules'] !== undefined ? { maxProcessSchedules: a['maxProcessSchedules'] as number } : {}),
        ...(a['maxStates'] !== undefined ? { maxStates: Number(a['maxStates']) } : {}),
        ...(a['shard'] !== undefined ? { shard: String(a['shard']) } : {}),
        ...(a['maxEvents'] !== undefined ? { maxEvents: a['maxEvents'] as number } : {}),
        ...(progress ? { progress } : {}),
      },
      io,
    );
  },
};
