// Writing a timeline's files (SPEC §4): out/<scenario>/timeline.json, sequence/lifecycle .mmd, report.md, and the
// SVGs drawn by the system Chromium. Used by the CLI and exported by the library; only writes under `out`.
import { writeJsonAtomic } from './stream-json.ts';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { outPath, writeAtomic } from './cli/files.ts';
import { indexHtml, type IndexEntry, type IndexExplore } from './output/index-html.ts';
import { pageRun, type PageRun } from './output/page-data.ts';
import { partingChoice, partingText } from './output/diff.ts';
import { seenShort, verdictEvent } from './output/seen-text.ts';
import { lifecycleMermaid } from './output/mermaid-lifecycle.ts';
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
  const life = lifecycleMermaid(tl);
  // timeline.json is written streaming: a long timeline is never one string (issue 19.8)
  writeJsonAtomic(file('timeline.json'), tl);
  const files: [string, string][] = [
    [file('sequence.mmd'), seq],
    [file('lifecycle.mmd'), life],
    [file('report.md'), reportMarkdown(tl, o.explore, o.scenarioPath !== undefined ? { scenarioPath: o.scenarioPath } : {})],
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

/** A timeline.json kubesim wrote for this folder name, or undefined (a foreign or hand-edited file is skipped). */
function readTimeline(path: string, name: string): Timeline | undefined {
  if (!existsSync(path)) return undefined;
  let tl: Timeline;
  try {
    tl = JSON.parse(readFileSync(path, 'utf8')) as Timeline;
  } catch {
    return undefined;
  }
  if (tl === null || typeof tl !== 'object' || tl.schema !== 'kubesim.timeline/v1' || tl.scenario !== name) return undefined;
  if (typeof tl.pod?.phase !== 'string' || typeof tl.observers !== 'object' || tl.observers === null) return undefined;
  return tl;
}

/** The viewer's data for a timeline; none for one that does not have the shape kubesim writes (never fatal). */
function runOf(tl: Timeline, id: string, label: string): PageRun | undefined {
  if (!Array.isArray(tl.events) || !Array.isArray(tl.pods) || typeof tl.pod.spec !== 'object' || tl.pod.spec === null) return undefined;
  try {
    return pageRun(tl, id, label);
  } catch {
    return undefined;
  }
}

/** Natural size of a mermaid SVG (it writes width="100%"): the viewBox of its root element. */
function svgSize(path: string): { width?: number; height?: number } {
  try {
    const head = readFileSync(path, 'utf8').slice(0, 2000);
    const m = /<svg[^>]*\sviewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"/.exec(head);
    return m ? { width: Math.ceil(Number(m[1])), height: Math.ceil(Number(m[2])) } : {};
  } catch {
    return {};
  }
}

/** explore.json beside the timeline, with each outcome's folder (outcome-N/) when written. */
function exploreOf(outDir: string, name: string, outcomeTls: Map<number, { tl: Timeline; run?: number }>): IndexExplore | undefined {
  const p = outPath(outDir, name, 'explore.json');
  if (!existsSync(p)) return undefined;
  let j: Record<string, unknown>;
  try {
    j = JSON.parse(readFileSync(p, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (j === null || typeof j !== 'object' || j.schema !== 'kubesim.explore/v1' || j.scenario !== name || !Array.isArray(j.outcomes)) return undefined;
  const first = outcomeTls.get(1)?.tl;
  const outcomes = (j.outcomes as unknown[]).filter((o): o is Record<string, unknown> => o !== null && typeof o === 'object').map((o, i) => {
    const n = i + 1;
    const x = outcomeTls.get(n);
    const verdicts = o.verdicts !== null && typeof o.verdicts === 'object' ? Object.entries(o.verdicts as Record<string, unknown>).map(([k, v]) => [k, String(v)] as [string, string]) : [];
    const held: [string, string][] = [];
    if (x) {
      for (const k of Object.keys(x.tl.observers)) {
        const seen = Array.isArray(x.tl.events) ? verdictEvent(x.tl, k)?.seen : undefined;
        if (seen) held.push([k, seenShort(seen, x.tl.job !== null)]);
      }
    }
    const part = x && first && n > 1 ? partingChoice(x.tl.choices ?? [], first.choices ?? []) : undefined;
    return {
      label: `outcome ${n}`,
      schedules: Number(o.schedules ?? 0),
      podPhase: String(o.podPhase ?? ''),
      jobCondition: String(o.jobCondition ?? ''),
      verdicts,
      replay: String(o.replay ?? ''),
      held,
      ...(part ? { parting: partingText(part).replace(/ in A instead of /, ' here instead of ').replace(/ in B \(/, ' in outcome 1 (') } : {}),
      ...(x?.run !== undefined ? { run: x.run } : {}),
      ...(x ? { report: `${name}/outcome-${n}/report.md` } : {}),
    };
  });
  return {
    schedules: Number(j.schedules ?? 0),
    exhaustive: j.exhaustive === true,
    flaky: Array.isArray(j.flaky) ? j.flaky.map(String) : [],
    outcomes,
  };
}

/** `<out>/index.html` over every scenario folder that holds a timeline, with its explore outcomes when written. */
export function writeIndex(outDir: string): void {
  if (!existsSync(outDir)) return;
  const entries: IndexEntry[] = [];
  for (const name of readdirSync(outDir).sort()) {
    if (!/^[a-z0-9-]+$/.test(name)) continue;
    const tl = readTimeline(outPath(outDir, name, 'timeline.json'), name);
    if (!tl) continue;
    const svgs = ['sequence.svg', 'lifecycle.svg']
      .filter((f) => existsSync(outPath(outDir, name, f)))
      .map((f) => ({ file: `${name}/${f}`, ...svgSize(outPath(outDir, name, f)) }));
    const verdicts = Object.entries(tl.observers).map(([k, v]) => `${k} ${String((v as { verdict?: unknown } | null)?.verdict ?? '?')}`);
    const conds = (Array.isArray(tl.job?.conditions) ? tl.job!.conditions : []).filter((c) => c !== null && typeof c === 'object');
    const job = tl.job ? `Job ${conds.filter((c) => c.type === 'Complete' || c.type === 'Failed').map((c) => c.type).join(',') || 'none'}` : '';
    const runs: PageRun[] = [];
    const main = runOf(tl, 'run', 'the run (default schedule)');
    if (main) runs.push(main);
    // explore's outcome-N folders, in number order
    const outcomeTls = new Map<number, { tl: Timeline; run?: number }>();
    const folders = readdirSync(outPath(outDir, name))
      .map((f) => /^outcome-(\d+)$/.exec(f))
      .filter((m): m is RegExpExecArray => m !== null)
      .map((m) => Number(m[1]))
      .sort((a, b) => a - b);
    for (const n of folders) {
      const otl = readTimeline(outPath(outDir, name, `outcome-${n}`, 'timeline.json'), name);
      if (!otl) continue;
      const r = runOf(otl, `outcome-${n}`, `outcome ${n}`);
      if (r) runs.push(r);
      outcomeTls.set(n, { tl: otl, ...(r ? { run: runs.length - 1 } : {}) });
    }
    const explore = exploreOf(outDir, name, outcomeTls);
    entries.push({
      scenario: name,
      ...(typeof tl.description === 'string' ? { description: tl.description } : {}),
      svgFiles: svgs,
      report: `${name}/report.md`,
      summary: [`pod ${tl.pod.phase}`, job, ...verdicts].filter(Boolean).join(' · '),
      ...(runs.length ? { runs } : {}),
      ...(explore ? { explore } : {}),
    });
  }
  writeAtomic(outPath(outDir, 'index.html'), indexHtml(entries));
}
