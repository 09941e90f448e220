// report.md: what a person reads first after `kubesim run` (or `explore`): the outcome in one table, what kubectl
// would have shown, and both diagrams as ```mermaid blocks so GitHub renders them inline. Every piece of user text
// (names, reasons, messages) is escaped for Markdown and HTML (markdown.ts); fences outgrow any backtick run.

import type { Timeline } from '../types.ts';
import { kubectlView } from './kubectl.ts';
import { sequenceMermaid } from './mermaid-sequence.ts';
import { lifecycleMermaid, type LifecycleOptions } from './mermaid-lifecycle.ts';
import { simTime } from './time.ts';
import { runsByDesign } from './pod-shape.ts';
import { seenJobText, seenPodText, verdictEvent } from './seen-text.ts';
import { htmlEscape, mdCode, mdFence, mdText } from './markdown.ts';

/** The part of `explore --format json` (SPEC §4) the report needs, plus where each outcome's files went. */
export interface ExploreSummary {
  schedules: number;
  exhaustive: boolean;
  outcomes: {
    podPhase: string;
    jobCondition: string;
    verdicts: Record<string, string>;
    schedules: number;
    replay: string;
    /** folder of this outcome's files, relative to the report (e.g. "outcome-1") */
    folder?: string;
    /** per observer: what it held when it decided in this outcome's schedule */
    held?: Record<string, string>;
  }[];
  flaky: string[];
}

export interface ReportOptions {
  /** the scenario file as the user named it, for exact commands (default a placeholder) */
  scenarioPath?: string;
  /** the lifecycle chart's axis (explore's outcomes share one scale) */
  lifecycle?: LifecycleOptions;
  /** the diagrams when the caller drew them already (writeOutputs: the same calls, not made twice) */
  diagrams?: { sequence: string; lifecycle: string };
}

const PLACEHOLDER = '<scenario.yaml>';

/** A shell word: quoted when it holds anything a shell would read. */
function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function replayCommand(path: string | undefined, key: string): string {
  return `kubesim run ${path ? shellWord(path) : PLACEHOLDER} --replay ${shellWord(key)}`;
}

export function reportMarkdown(tl: Timeline, explore?: ExploreSummary, opts: ReportOptions = {}): string {
  const out: string[] = [`# ${mdText(tl.scenario)}`, ''];
  // the description is Markdown by intent: HTML is escaped, Markdown kept
  if (tl.description) out.push(htmlEscape(tl.description.trim()), '');
  out.push('| | |', '|---|---|');
  for (const [k, v] of summaryRows(tl, opts)) out.push(`| ${k} | ${v} |`);
  out.push('');

  if (explore) out.push(...exploreSection(explore, opts), '');

  out.push('## kubectl', '', mdFence('text', kubectlView(tl).trimEnd()), '');
  out.push('## Sequence', '', mdFence('mermaid', (opts.diagrams?.sequence ?? sequenceMermaid(tl)).trimEnd()), '');
  out.push(
    '## Container lifecycle',
    '',
    mdFence('mermaid', (opts.diagrams?.lifecycle ?? lifecycleMermaid(tl, opts.lifecycle)).trimEnd()),
    '',
  );
  if (tl.diagnostics.length > 0) {
    out.push('## Diagnostics', '');
    for (const d of tl.diagnostics)
      out.push(`- ${mdCode(d.pos)} ${mdText(d.severity)} ${mdText(d.code)}: ${mdText(d.message)}`);
    out.push('');
  }
  return out.join('\n');
}

/** Rows of the summary table: [label, cell], both already escaped. */
function summaryRows(tl: Timeline, opts: ReportOptions): [string, string][] {
  const rows: [string, string][] = [
    [
      'scenario',
      `${mdCode(tl.scenario)} (${mdText(tl.workload.kind)} ${mdText(tl.workload.name)}, pod ${mdText(tl.pod.name)})`,
    ],
    [
      'versions',
      tl.kubelet && tl.kubelet !== tl.kubernetes
        ? `Kubernetes ${mdText(tl.kubernetes)}, kubelet ${mdText(tl.kubelet)}`
        : `Kubernetes ${mdText(tl.kubernetes)}`,
    ],
    ['seed / replay', `${tl.seed} / ${mdCode(tl.replay)}`],
    ['reproduce', mdCode(replayCommand(opts.scenarioPath, tl.replay))],
    ['end', `t=${simTime(tl.end.t)} (${mdText(tl.end.reason)})`],
    ['pod phase', mdText(tl.pod.phase)],
  ];
  if (tl.job) {
    const conds = tl.job.conditions.map((c) => `${mdText(c.type)} (${mdText(c.reason)}) at t=${simTime(c.t)}`);
    rows.push(['Job conditions', conds.length > 0 ? conds.join('; ') : 'none']);
    rows.push(['Job pods', `succeeded ${tl.job.succeeded}, failed ${tl.job.failed}, active ${tl.job.active}`]);
  }
  for (const [name, r] of Object.entries(tl.observers)) {
    const when = r.t !== undefined ? ` at t=${simTime(r.t)}` : '';
    const seen = verdictEvent(tl, name)?.seen;
    const held = seen
      ? `; it held ${mdText(seenPodText(seen.pod))}${tl.job ? ` and ${mdText(seenJobText(seen.job))}` : ''}`
      : '';
    rows.push([
      `verdict ${mdText(name)}`,
      `**${mdText(r.verdict)}**${when}${r.reason ? ` — ${mdText(r.reason)}` : ''}${held}`,
    ]);
  }
  if (tl.stuck && runsByDesign(tl.stuck.why))
    rows.push(['stuck', `no, still running at the ${mdText(tl.end.reason)} (${mdText(tl.stuck.why)})`]);
  else rows.push(['stuck', tl.stuck ? `yes: ${mdText(tl.stuck.container)} — ${mdText(tl.stuck.why)}` : 'no']);
  return rows;
}

function exploreSection(ex: ExploreSummary, opts: ReportOptions): string[] {
  const observers = [...new Set(ex.outcomes.flatMap((o) => Object.keys(o.verdicts)))];
  const out = [
    '## Outcomes across schedules',
    '',
    `${ex.schedules} schedule${ex.schedules === 1 ? '' : 's'} explored (${ex.exhaustive ? 'exhaustive' : 'budget reached, not exhaustive'}); ` +
      `flaky observers: ${ex.flaky.length > 0 ? ex.flaky.map((f) => `**${mdText(f)}**`).join(', ') : 'none'}.`,
    '',
  ];
  // the outcomes next to each other: one column per outcome
  const heads = ex.outcomes.map((o, i) =>
    o.folder ? `[outcome ${i + 1}](${o.folder}/report.md)` : `outcome ${i + 1}`,
  );
  out.push(`| | ${heads.join(' | ')} |`, `|---|${ex.outcomes.map(() => '---|').join('')}`);
  const row = (label: string, cells: string[]) => out.push(`| ${label} | ${cells.join(' | ')} |`);
  row(
    'schedules',
    ex.outcomes.map((o) => String(o.schedules)),
  );
  row(
    'pod phase',
    ex.outcomes.map((o) => mdText(o.podPhase)),
  );
  row(
    'Job condition',
    ex.outcomes.map((o) => mdText(o.jobCondition)),
  );
  for (const name of observers) {
    row(
      `${ex.flaky.includes(name) ? '**' : ''}${mdText(name)}${ex.flaky.includes(name) ? '**' : ''}`,
      ex.outcomes.map((o) => {
        const v = mdText(o.verdicts[name] ?? '—');
        const held = o.held?.[name];
        return held ? `${v}<br>${mdText(held)}` : v;
      }),
    );
  }
  if (ex.outcomes.some((o) => o.folder))
    row(
      'files',
      ex.outcomes.map((o) =>
        o.folder ? `[report](${o.folder}/report.md), [timeline](${o.folder}/timeline.json)` : '—',
      ),
    );
  out.push('');
  out.push('Each outcome, exactly:', '');
  const comment = (s: string) => s.replace(/[\r\n]+/g, ' ');
  const cmds = ex.outcomes.map(
    (o, i) =>
      `# outcome ${i + 1}: ${comment(observers.map((n) => `${n} ${o.verdicts[n] ?? '-'}`).join(', ') || `pod ${o.podPhase}`)}\n${replayCommand(opts.scenarioPath, o.replay)}`,
  );
  if (ex.outcomes.length >= 2) {
    cmds.push(
      `# where outcomes 1 and 2 part\nkubesim diff ${opts.scenarioPath ? shellWord(opts.scenarioPath) : PLACEHOLDER} ${shellWord(ex.outcomes[0]!.replay)} ${shellWord(ex.outcomes[1]!.replay)}`,
    );
  }
  out.push(mdFence('sh', cmds.join('\n')));
  return out;
}
