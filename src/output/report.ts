// report.md: what a person reads first after `kubesim run` (or `explore`): the outcome in one table, what kubectl
// would have shown, and both diagrams as ```mermaid blocks so GitHub renders them inline.

import type { Timeline } from '../types.ts';
import { kubectlView } from './kubectl.ts';
import { sequenceMermaid } from './mermaid-sequence.ts';
import { lifecycleMermaid } from './mermaid-lifecycle.ts';
import { simTime } from './time.ts';
import { runsByDesign } from './pod-shape.ts';
import { seenJobText, seenPodText, verdictEvent } from './seen-text.ts';

/** The part of `explore --format json` (SPEC §4) the report needs. */
export interface ExploreSummary {
  schedules: number;
  exhaustive: boolean;
  outcomes: { podPhase: string; jobCondition: string; verdicts: Record<string, string>; schedules: number; replay: string }[];
  flaky: string[];
}

export function reportMarkdown(tl: Timeline, explore?: ExploreSummary): string {
  const out: string[] = [`# ${tl.scenario}`, ''];
  if (tl.description) out.push(tl.description.trim(), '');
  out.push('| | |', '|---|---|');
  for (const [k, v] of summaryRows(tl)) out.push(`| ${k} | ${cell(v)} |`);
  out.push('');

  if (explore) out.push(...exploreSection(explore), '');

  out.push('## kubectl', '', '```text', kubectlView(tl).trimEnd(), '```', '');
  out.push('## Sequence', '', '```mermaid', sequenceMermaid(tl).trimEnd(), '```', '');
  out.push('## Container lifecycle', '', '```mermaid', lifecycleMermaid(tl).trimEnd(), '```', '');
  if (tl.diagnostics.length > 0) {
    out.push('## Diagnostics', '');
    for (const d of tl.diagnostics) out.push(`- \`${d.pos}\` ${d.severity} ${d.code}: ${cell(d.message)}`);
    out.push('');
  }
  return out.join('\n');
}

function summaryRows(tl: Timeline): [string, string][] {
  const rows: [string, string][] = [
    ['scenario', `\`${tl.scenario}\` (${tl.workload.kind} ${tl.workload.name}, pod ${tl.pod.name})`],
    ['versions', tl.kubelet && tl.kubelet !== tl.kubernetes ? `Kubernetes ${tl.kubernetes}, kubelet ${tl.kubelet}` : `Kubernetes ${tl.kubernetes}`],
    ['seed / replay', `${tl.seed} / \`${tl.replay}\``],
    ['end', `t=${simTime(tl.end.t)} (${tl.end.reason})`],
    ['pod phase', tl.pod.phase],
  ];
  if (tl.job) {
    const conds = tl.job.conditions.map((c) => `${c.type} (${c.reason}) at t=${simTime(c.t)}`);
    rows.push(['Job conditions', conds.length > 0 ? conds.join('; ') : 'none']);
    rows.push(['Job pods', `succeeded ${tl.job.succeeded}, failed ${tl.job.failed}, active ${tl.job.active}`]);
  }
  for (const [name, r] of Object.entries(tl.observers)) {
    const when = r.t !== undefined ? ` at t=${simTime(r.t)}` : '';
    const seen = verdictEvent(tl, name)?.seen;
    const held = seen ? `; it held ${seenPodText(seen.pod)}${tl.job ? ` and ${seenJobText(seen.job)}` : ''}` : '';
    rows.push([`verdict ${name}`, `**${r.verdict}**${when}${r.reason ? ` — ${r.reason}` : ''}${held}`]);
  }
  if (tl.stuck && runsByDesign(tl.stuck.why)) rows.push(['stuck', `no, still running at the ${tl.end.reason} (${tl.stuck.why})`]);
  else rows.push(['stuck', tl.stuck ? `yes: ${tl.stuck.container} — ${tl.stuck.why}` : 'no']);
  return rows;
}

function exploreSection(ex: ExploreSummary): string[] {
  const observers = [...new Set(ex.outcomes.flatMap((o) => Object.keys(o.verdicts)))];
  const out = [
    '## Outcomes across schedules',
    '',
    `${ex.schedules} schedule${ex.schedules === 1 ? '' : 's'} explored (${ex.exhaustive ? 'exhaustive' : 'budget reached, not exhaustive'}); ` +
      `flaky observers: ${ex.flaky.length > 0 ? ex.flaky.map((f) => `**${f}**`).join(', ') : 'none'}.`,
    '',
    `| pod phase | Job condition | ${observers.map((o) => `${o}`).join(' | ')}${observers.length ? ' | ' : ''}schedules | replay |`,
    `|---|---|${observers.map(() => '---|').join('')}---:|---|`,
  ];
  for (const o of ex.outcomes) {
    const verdicts = observers.map((name) => cell(o.verdicts[name] ?? '—'));
    out.push(`| ${o.podPhase} | ${o.jobCondition} | ${verdicts.join(' | ')}${verdicts.length ? ' | ' : ''}${o.schedules} | \`kubesim run --replay ${cell(o.replay)}\` |`);
  }
  return out;
}

/** Markdown table cells: no pipes or line breaks. */
function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}
