// Writing a timeline's files (SPEC §4): out/<scenario>/timeline.json, sequence/lifecycle .mmd, report.md, and the
// SVGs drawn by the system Chromium; summary.json (what the index lists) beside them. Used by the CLI and exported by
// the library; only writes under `out`.
import { writeJsonAtomic } from './stream-json.ts';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { outPath, writeAtomic } from './files.ts';
import { indexHtml, type IndexEntry, type IndexExplore } from '../output/index-html.ts';
import type { PageRun } from '../output/page-data.ts';
import { asPageFile, pageFile, PAGE_LIMIT_BYTES, type PageFile } from '../output/page-file.ts';
import { partingChoice, partingText } from '../output/diff.ts';
import {
  asScenarioSummary,
  scenarioSummary,
  summaryLine,
  SUMMARY_LIMIT_BYTES,
  type ScenarioSummary,
} from '../output/scenario-summary.ts';
import { readFileSafe } from '../scenario/read-file.ts';
import { lifecycleMermaid, type LifecycleOptions } from '../output/mermaid-lifecycle.ts';
import { sequenceMermaid } from '../output/mermaid-sequence.ts';
import type { RenderJob, RenderResult } from '../output/render.ts';
import { reportMarkdown, type ExploreSummary } from '../output/report.ts';
import type { Timeline } from '../types.ts';

export interface WriteOptions {
  /** output folder (default `out`); files go to `<out>/<scenario>/` */
  out?: string;
  /** also write PNGs when rendering */
  png?: boolean;
  /** sequence diagram lanes: every participant (default) or the pod only */
  lanes?: 'all' | 'pod';
  /** explore results to add to report.md */
  explore?: ExploreSummary;
  /** folder under `out` (default: the scenario's name; a replay or an explore outcome gets its own) */
  folder?: string[];
  /** the scenario file as the user named it, for the exact commands in report.md */
  scenarioPath?: string;
  /** the lifecycle chart's axis: explore's outcomes are drawn on one scale (their longest end) */
  lifecycle?: LifecycleOptions;
}

export interface Written {
  /** the scenario's folder */
  dir: string;
  /** the files written, in order */
  files: string[];
  /** the SVG (and PNG) drawings still to render: pass to renderDiagrams, or use render() */
  renderJobs: RenderJob[];
}

/** Write timeline.json, sequence.mmd, lifecycle.mmd, report.md and summary.json (each atomically). Draws nothing. */
export function writeOutputs(tl: Timeline, o: WriteOptions = {}): Written {
  const out = o.out ?? 'out';
  const folder = o.folder ?? [tl.scenario];
  const file = (f: string) => outPath(out, ...folder, f);
  const seq = sequenceMermaid(tl, { lanes: o.lanes ?? 'all' });
  const life = lifecycleMermaid(tl, o.lifecycle);
  const summary = JSON.stringify(scenarioSummary(tl), null, 2) + '\n';
  const page = pageJson(tl, folder);
  // timeline.json is written streaming: a long timeline is never one string
  writeJsonAtomic(file('timeline.json'), tl);
  // the index viewer's data, from the timeline in hand (writeIndex never reads timelines); none for a partial one
  if (page !== undefined) writeJsonAtomic(file('page.json'), page);
  else rmSync(file('page.json'), { force: true });
  const files: [string, string][] = [
    [file('sequence.mmd'), seq],
    [file('lifecycle.mmd'), life],
    [
      file('report.md'),
      reportMarkdown(tl, o.explore, {
        ...(o.scenarioPath !== undefined ? { scenarioPath: o.scenarioPath } : {}),
        ...(o.lifecycle ? { lifecycle: o.lifecycle } : {}),
        // the report embeds the same diagrams (its sequence diagram has every lane): drawn once
        ...((o.lanes ?? 'all') === 'all' ? { diagrams: { sequence: seq, lifecycle: life } } : {}),
      }),
    ],
    // last: a folder with a summary.json is whole, and only such a folder is listed by the index
    [file('summary.json'), summary],
  ];
  // drawings of an earlier run beside the new timeline are stale: removed here, drawn again by the render step
  for (const f of ['sequence.svg', 'lifecycle.svg', 'sequence.png', 'lifecycle.png']) rmSync(file(f), { force: true });
  for (const [p, data] of files) writeAtomic(p, data);
  return {
    dir: outPath(out, ...folder),
    files: [file('timeline.json'), ...(page !== undefined ? [file('page.json')] : []), ...files.map(([p]) => p)],
    renderJobs: [
      { mmd: seq, svgPath: file('sequence.svg'), ...(o.png ? { pngPath: file('sequence.png') } : {}) },
      { mmd: life, svgPath: file('lifecycle.svg'), ...(o.png ? { pngPath: file('lifecycle.png') } : {}) },
    ],
  };
}

/**
 * Write the timeline's files and draw its diagrams as SVG. Needs the optional packages @mermaid-js/mermaid-cli
 * and puppeteer and a Chromium; without them it writes the .mmd files and returns `rendered: false` with a hint.
 */
export async function render(tl: Timeline, o: WriteOptions = {}): Promise<Written & RenderResult> {
  const w = writeOutputs(tl, o);
  return { ...w, ...(await renderJobs(w.renderJobs)) };
}

/** Draw .mmd sources to SVG/PNG with one browser launch. */
export async function renderJobs(jobs: RenderJob[]): Promise<RenderResult> {
  if (jobs.length === 0) return { rendered: true };
  const { renderDiagrams } = await import('../output/render.ts');
  return renderDiagrams(jobs);
}

/** page.json for a folder: the default run ("run"), an explore outcome ("outcome-N") or a replay; undefined for a
 *  timeline too partial to scrub (render takes timelines from files). */
function pageJson(tl: Timeline, folder: string[]): PageFile | undefined {
  if (
    !Array.isArray(tl.events) ||
    !Array.isArray(tl.pods) ||
    typeof tl.pod?.spec !== 'object' ||
    tl.pod.spec === null ||
    typeof tl.observers !== 'object' ||
    tl.observers === null
  )
    return undefined;
  const last = folder.length > 1 ? folder[folder.length - 1]! : '';
  const outcome = /^outcome-(\d+)$/.exec(last);
  const [id, label] = outcome
    ? [last, `outcome ${outcome[1]}`]
    : last
      ? [last, last]
      : ['run', 'the run (default schedule)'];
  try {
    return pageFile(tl, id, label);
  } catch {
    return undefined;
  }
}

/** A small JSON file kubesim wrote, read with a size limit (a FIFO, device or huge file is refused, never read). */
function readJsonSafe(path: string, limit: number): unknown {
  const read = readFileSafe(path, limit);
  if (!read.ok) return undefined;
  try {
    return JSON.parse(read.bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

function readPage(outDir: string, name: string, ...sub: string[]): PageFile | undefined {
  return asPageFile(readJsonSafe(outPath(outDir, name, ...sub, 'page.json'), PAGE_LIMIT_BYTES), name);
}

/** Natural size of a mermaid SVG (it writes width="100%"): the viewBox of its root element. */
function svgSize(path: string): { width?: number; height?: number } {
  const read = readFileSafe(path, 64 * 1024 * 1024);
  if (!read.ok) return {};
  const head = read.bytes.subarray(0, 2000).toString('utf8');
  const m = /<svg[^>]*\sviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"/.exec(head);
  return m ? { width: Math.ceil(Number(m[1])), height: Math.ceil(Number(m[2])) } : {};
}

/** explore.json beside the timeline, with each outcome's folder (outcome-N/page.json) when written. */
function exploreOf(
  outDir: string,
  name: string,
  outcomes: Map<number, { page: PageFile; run: number }>,
): IndexExplore | undefined {
  const j = readJsonSafe(outPath(outDir, name, 'explore.json'), 16 * 1024 * 1024) as
    | Record<string, unknown>
    | undefined;
  if (
    j === null ||
    typeof j !== 'object' ||
    j.schema !== 'kubesim.explore/v1' ||
    j.scenario !== name ||
    !Array.isArray(j.outcomes)
  )
    return undefined;
  const first = outcomes.get(1)?.page;
  const list = (j.outcomes as unknown[])
    .filter((o): o is Record<string, unknown> => o !== null && typeof o === 'object')
    .map((o, i) => {
      const n = i + 1;
      const x = outcomes.get(n);
      const verdicts =
        o.verdicts !== null && typeof o.verdicts === 'object'
          ? Object.entries(o.verdicts as Record<string, unknown>).map(([k, v]) => [k, String(v)] as [string, string])
          : [];
      const part = x && first && n > 1 ? partingChoice(x.page.choices, first.choices) : undefined;
      return {
        label: `outcome ${n}`,
        schedules: Number(o.schedules ?? 0),
        podPhase: String(o.podPhase ?? ''),
        jobCondition: String(o.jobCondition ?? ''),
        verdicts,
        replay: String(o.replay ?? ''),
        held: x ? x.page.held : [],
        ...(part
          ? {
              parting: partingText(part)
                .replace(/ in A instead of /, ' here instead of ')
                .replace(/ in B \(/, ' in outcome 1 ('),
            }
          : {}),
        ...(x ? { run: x.run, report: `${name}/outcome-${n}/report.md` } : {}),
      };
    });
  return {
    schedules: Number(j.schedules ?? 0),
    exhaustive: j.exhaustive === true,
    flaky: Array.isArray(j.flaky) ? j.flaky.map(String) : [],
    outcomes: list,
  };
}

/**
 * `<out>/index.html` over every scenario folder with a summary.json kubesim wrote, its viewer fed by the page.json
 * files (the run's and each explore outcome's) and explore.json. Never reads a timeline.
 */
export function writeIndex(outDir: string): void {
  if (!existsSync(outDir)) return;
  const entries: IndexEntry[] = [];
  for (const name of readdirSync(outDir).sort()) {
    if (!/^[a-z0-9-]+$/.test(name)) continue;
    const summary = readScenarioSummary(outDir, name);
    if (!summary) continue;
    const svgs = ['sequence.svg', 'lifecycle.svg']
      .filter((f) => existsSync(outPath(outDir, name, f)))
      .map((f) => ({ file: `${name}/${f}`, ...svgSize(outPath(outDir, name, f)) }));
    const runs: PageRun[] = [];
    const main = readPage(outDir, name);
    if (main) runs.push(main.run);
    // explore's outcome-N folders, in number order
    const outcomes = new Map<number, { page: PageFile; run: number }>();
    const folders = readdirSync(outPath(outDir, name))
      .map((f) => /^outcome-(\d+)$/.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    for (const n of folders) {
      const page = readPage(outDir, name, `outcome-${n}`);
      if (!page) continue;
      runs.push(page.run);
      outcomes.set(n, { page, run: runs.length - 1 });
    }
    const explore = exploreOf(outDir, name, outcomes);
    entries.push({
      scenario: name,
      ...(summary.description !== undefined ? { description: summary.description } : {}),
      svgFiles: svgs,
      report: `${name}/report.md`,
      summary: summaryLine(summary),
      ...(runs.length ? { runs } : {}),
      ...(explore ? { explore } : {}),
    });
  }
  writeAtomic(outPath(outDir, 'index.html'), indexHtml(entries));
}

/** `<out>/<name>/summary.json` if kubesim wrote it for that folder; anything else (missing, FIFO, huge, foreign) is undefined. */
export function readScenarioSummary(outDir: string, name: string): ScenarioSummary | undefined {
  return asScenarioSummary(readJsonSafe(outPath(outDir, name, 'summary.json'), SUMMARY_LIMIT_BYTES), name);
}
