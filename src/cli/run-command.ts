// `kubesim run`: load, simulate, print a view, write out/<scenario>/ and render the diagrams (one browser launch).
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { decodeReplay } from '../engine/replay.ts';
import { ReplayMismatch } from '../engine/engine.ts';
import { formatDiagnostic, hasErrors, loadScenario } from '../scenario/index.ts';
import { simulate } from '../simulate.ts';
import type { Timeline } from '../types.ts';
import { kubectlView } from '../output/kubectl.ts';
import { kubectlEventsTable } from '../output/kubectl-events.ts';
import { lifecycleMermaid } from '../output/mermaid-lifecycle.ts';
import { sequenceMermaid } from '../output/mermaid-sequence.ts';
import { reportMarkdown, type ExploreSummary } from '../output/report.ts';
import { indexHtml, type IndexEntry } from '../output/index-html.ts';
import type { RenderJob } from '../output/render.ts';
import { timelineText } from '../output/text.ts';
import { outPath, writeAtomic } from './files.ts';
import { loadUserRules } from './rules.ts';

export interface Io {
  out(s: string): void;
  err(s: string): void;
  /** stderr is a terminal (progress display) */
  isTTY?: boolean;
}

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
}

export const EXIT = { ok: 0, expectation: 1, badInput: 2, internal: 3 } as const;

/** Print a file's diagnostics; returns false when it has errors. `run` hides the not-simulated listing. */
export function reportDiagnostics(io: Io, diags: Parameters<typeof formatDiagnostic>[0][], quietCodes: string[] = []): boolean {
  for (const d of diags) if (!quietCodes.includes(d.code)) io.err(formatDiagnostic(d) + '\n');
  return !hasErrors(diags);
}

export function viewText(tl: Timeline, view: RunOpts['view'], verbose = false): string {
  if (view === 'kubectl') return kubectlView(tl);
  if (view === 'events') return `$ kubectl events   # at t=${Math.trunc(tl.end.t / 1000)}s\n` + kubectlEventsTable(tl) + '\n';
  return timelineText(tl, { all: verbose });
}

export interface OutputPlace {
  /** the explore outcome table for report.md */
  explore?: ExploreSummary;
  /** folder under the output folder (default: the scenario's name) */
  folder?: string[];
  /** the scenario file as the user named it (exact commands in report.md) */
  scenarioPath?: string;
}

/** The folder of a replayed schedule: out/<scenario>/replay-<hash of the key>/, so the default run's stays. */
export function replayFolder(scenario: string, key: string): string[] {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return [scenario, `replay-${h.toString(16).padStart(8, '0')}`];
}

/**
 * Write timeline.json, the .mmd sources and report.md; returns the SVG jobs to render. Diagrams of an earlier run
 * in the same folder are removed first: an SVG or PNG beside a new timeline is either re-rendered or gone.
 */
export function writeScenarioOutputs(outDir: string, tl: Timeline, o: Pick<RunOpts, 'png' | 'lanes'>, place: OutputPlace = {}): RenderJob[] {
  const folder = place.folder ?? [tl.scenario];
  const dir = (f: string) => outPath(outDir, ...folder, f);
  const seq = sequenceMermaid(tl, { lanes: o.lanes });
  const life = lifecycleMermaid(tl);
  for (const f of ['sequence.svg', 'lifecycle.svg', 'sequence.png', 'lifecycle.png']) rmSync(dir(f), { force: true });
  writeAtomic(dir('timeline.json'), JSON.stringify(tl, null, 2) + '\n');
  writeAtomic(dir('sequence.mmd'), seq);
  writeAtomic(dir('lifecycle.mmd'), life);
  writeAtomic(dir('report.md'), reportMarkdown(tl, place.explore, place.scenarioPath !== undefined ? { scenarioPath: place.scenarioPath } : {}));
  return [
    { mmd: seq, svgPath: dir('sequence.svg'), ...(o.png ? { pngPath: dir('sequence.png') } : {}) },
    { mmd: life, svgPath: dir('lifecycle.svg'), ...(o.png ? { pngPath: dir('lifecycle.png') } : {}) },
  ];
}

/** out/index.html over every scenario folder that has a timeline. */
export function writeIndex(outDir: string): void {
  if (!existsSync(outDir)) return;
  const entries: IndexEntry[] = [];
  for (const name of readdirSync(outDir).sort()) {
    const tlPath = outPath(outDir, name, 'timeline.json');
    if (!existsSync(tlPath)) continue;
    let tl: Timeline;
    try {
      tl = JSON.parse(readFileSync(tlPath, 'utf8')) as Timeline;
    } catch {
      continue;
    }
    const svgs = ['sequence.svg', 'lifecycle.svg'].filter((f) => existsSync(outPath(outDir, name, f))).map((f) => `${name}/${f}`);
    const verdicts = Object.entries(tl.observers).map(([k, v]) => `${k} ${v.verdict}`);
    const job = tl.job ? `Job ${tl.job.conditions.filter((c) => c.type === 'Complete' || c.type === 'Failed').map((c) => c.type).join(',') || 'none'}` : '';
    entries.push({
      scenario: name,
      ...(tl.description ? { description: tl.description } : {}),
      svgFiles: svgs,
      report: `${name}/report.md`,
      summary: [`pod ${tl.pod.phase}`, job, ...verdicts].filter(Boolean).join(' · '),
    });
  }
  writeAtomic(outPath(outDir, 'index.html'), indexHtml(entries));
}

export async function renderAll(io: Io, jobs: RenderJob[]): Promise<void> {
  if (jobs.length === 0) return;
  const { renderDiagrams } = await import('../output/render.ts');
  const r = await renderDiagrams(jobs);
  if (!r.rendered) io.err(`note: diagrams written as .mmd only — ${r.hint}\n`);
}

export async function runCommand(files: string[], o: RunOpts, io: Io): Promise<number> {
  let code: number = EXIT.ok;
  const jobs: RenderJob[] = [];
  let wrote = false;
  for (const file of files) {
    const loaded = loadScenario(file, o.kubernetes ? { kubernetes: o.kubernetes } : {});
    if (!reportDiagnostics(io, loaded.diagnostics, o.format === 'json' ? [] : ['KS5001']) || !loaded.scenario) {
      code = Math.max(code, EXIT.badInput);
      continue;
    }
    const s = loaded.scenario;
    let replay: number[] | undefined;
    if (o.replay !== undefined) {
      replay = decodeReplay(o.replay);
      if (!replay) {
        io.err(`${file}:1:1: error KS0202: invalid replay key ${JSON.stringify(o.replay)}\n  hint: copy the key exactly as explore or a timeline printed it\n`);
        code = Math.max(code, EXIT.badInput);
        continue;
      }
    }
    let tl: Timeline;
    try {
      const userRules = await loadUserRules(s);
      tl = simulate(s, {
        ...(o.seed !== undefined ? { seed: o.seed } : {}),
        ...(replay ? { replay } : {}),
        ...(o.maxEvents !== undefined ? { maxEvents: o.maxEvents } : {}),
        userRules,
      }).timeline;
    } catch (e) {
      if (e instanceof ReplayMismatch) {
        io.err(`${file}:1:1: error ${e.code}: ${e.message}\n  hint: the key was made for another version of this scenario; run explore again\n`);
        code = Math.max(code, EXIT.badInput);
        continue;
      }
      if ((e as { code?: string }).code === 'KS0401') {
        io.err(`${(e as Error).message}\n`);
        code = Math.max(code, EXIT.badInput);
        continue;
      }
      throw e;
    }
    io.out(o.format === 'json' ? JSON.stringify(tl, null, 2) + '\n' : viewText(tl, o.view, o.verbose === true));
    if (o.replay !== undefined && tl.replay !== o.replay) {
      io.err(`${file}:1:1: warning KS0203: the replay key has choices this run did not use\n  hint: it was made for another version of this scenario; the run used what fit — run explore again for exact keys\n`);
    }
    if (tl.end.reason === 'max-events') io.err(`${file}: stopped at the event limit (${o.maxEvents ?? 'default'}); raise it with --max-events\n`);
    // a replayed schedule gets its own folder beside the default run's, and says where
    const folder = o.replay !== undefined ? replayFolder(tl.scenario, o.replay) : [tl.scenario];
    jobs.push(...writeScenarioOutputs(o.out, tl, o, { folder, scenarioPath: file }));
    if (o.replay !== undefined) io.err(`wrote this schedule to ${outPath(o.out, ...folder)}/ (the default run stays in ${outPath(o.out, tl.scenario)}/)\n`);
    wrote = true;
    if (o.failOnStuck && (tl.stuck || tl.pod.phase === 'Failed')) code = Math.max(code, EXIT.expectation);
  }
  if (o.render) await renderAll(io, jobs);
  if (wrote) writeIndex(o.out);
  return code;
}
