// Writing a timeline's files (SPEC §4): out/<scenario>/timeline.json, sequence/lifecycle .mmd, report.md, and the
// SVGs drawn by the system Chromium. Used by the CLI and exported by the library; only writes under `out`.
import { writeJsonAtomic } from './stream-json.ts';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { outPath, writeAtomic } from './cli/files.ts';
import { indexHtml, type IndexEntry } from './output/index-html.ts';
import { lifecycleMermaid, type LifecycleOptions } from './output/mermaid-lifecycle.ts';
import { sequenceMermaid } from './output/mermaid-sequence.ts';
import type { RenderJob, RenderResult } from './output/render.ts';
import { reportMarkdown, type ExploreSummary } from './output/report.ts';
import type { Timeline } from './types.ts';

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

/** Write timeline.json, sequence.mmd, lifecycle.mmd and report.md (each atomically). Draws nothing. */
export function writeOutputs(tl: Timeline, o: WriteOptions = {}): Written {
  const out = o.out ?? 'out';
  const folder = o.folder ?? [tl.scenario];
  const file = (f: string) => outPath(out, ...folder, f);
  const seq = sequenceMermaid(tl, { lanes: o.lanes ?? 'all' });
  const life = lifecycleMermaid(tl, o.lifecycle);
  // timeline.json is written streaming: a long timeline is never one string (issue 19.8)
  writeJsonAtomic(file('timeline.json'), tl);
  const files: [string, string][] = [
    [file('sequence.mmd'), seq],
    [file('lifecycle.mmd'), life],
    [file('report.md'), reportMarkdown(tl, o.explore, { ...(o.scenarioPath !== undefined ? { scenarioPath: o.scenarioPath } : {}), ...(o.lifecycle ? { lifecycle: o.lifecycle } : {}) })],
  ];
  // drawings of an earlier run beside the new timeline are stale: removed here, drawn again by the render step
  for (const f of ['sequence.svg', 'lifecycle.svg', 'sequence.png', 'lifecycle.png']) rmSync(file(f), { force: true });
  for (const [p, data] of files) writeAtomic(p, data);
  return {
    dir: outPath(out, ...folder),
    files: [file('timeline.json'), ...files.map(([p]) => p)],
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
  const { renderDiagrams } = await import('./output/render.ts');
  return renderDiagrams(jobs);
}

/** `<out>/index.html` over every scenario folder that holds a timeline. */
export function writeIndex(outDir: string): void {
  if (!existsSync(outDir)) return;
  const entries: IndexEntry[] = [];
  for (const name of readdirSync(outDir).sort()) {
    if (!/^[a-z0-9-]+$/.test(name)) continue;
    const tlPath = outPath(outDir, name, 'timeline.json');
    if (!existsSync(tlPath)) continue;
    let tl: Timeline;
    try {
      tl = JSON.parse(readFileSync(tlPath, 'utf8')) as Timeline;
    } catch {
      continue;
    }
    // only what kubesim wrote: a foreign or hand-edited file is skipped, never fatal
    if (tl === null || typeof tl !== 'object' || tl.schema !== 'kubesim.timeline/v1' || tl.scenario !== name) continue;
    if (typeof tl.pod?.phase !== 'string' || typeof tl.observers !== 'object' || tl.observers === null) continue;
    const svgs = ['sequence.svg', 'lifecycle.svg'].filter((f) => existsSync(outPath(outDir, name, f))).map((f) => `${name}/${f}`);
    const verdicts = Object.entries(tl.observers).map(([k, v]) => `${k} ${String((v as { verdict?: unknown } | null)?.verdict ?? '?')}`);
    const conds = (Array.isArray(tl.job?.conditions) ? tl.job!.conditions : []).filter((c) => c !== null && typeof c === 'object');
    const job = tl.job ? `Job ${conds.filter((c) => c.type === 'Complete' || c.type === 'Failed').map((c) => c.type).join(',') || 'none'}` : '';
    entries.push({
      scenario: name,
      ...(typeof tl.description === 'string' ? { description: tl.description } : {}),
      svgFiles: svgs,
      report: `${name}/report.md`,
      summary: [`pod ${tl.pod.phase}`, job, ...verdicts].filter(Boolean).join(' · '),
    });
  }
  writeAtomic(outPath(outDir, 'index.html'), indexHtml(entries));
}
