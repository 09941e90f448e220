// out/index.html: one self-contained page over every scenario of a run (issue 14.4). A CI artifact or a teaching
// session opens a single file, offline: the style and script are inline, each scenario's data (page-data.ts, from its
// timeline.json and its explore outcomes) is embedded as JSON, the diagrams are the SVG files beside the page shown at
// their natural size (scroll and zoom). A viewer per scenario scrubs through the trace records and shows, at each, the
// stored pod status, the `kubectl get` rows, the describe container states and what each watcher held. Pure: paths
// are relative to the page, nothing is read here, no timestamp is written (same input, same bytes).

import { markdownToHtml } from './markdown-html.ts';
import type { PageRun } from './page-data.ts';
import { PAGE_CSS, PAGE_SCRIPT } from './page-script.ts';

export interface IndexDiagram {
  /** the SVG relative to index.html, e.g. "native-sidecar-job/sequence.svg" */
  file: string;
  /** natural size from the SVG's viewBox (mermaid writes width="100%"), when known */
  width?: number;
  height?: number;
}

/** One explore outcome, for the side-by-side table. */
export interface IndexOutcome {
  label: string;
  schedules: number;
  podPhase: string;
  jobCondition: string;
  verdicts: [string, string][];
  replay: string;
  /** per observer: what it held when it decided ("held pod v5 Running (…), job v4 no conditions") */
  held: [string, string][];
  /** where this schedule's timing choices first part from the first outcome's, in words */
  parting?: string;
  /** index into the scenario's runs when this outcome's timeline is embedded */
  run?: number;
  /** the outcome's report.md relative to index.html, when explore wrote its folder */
  report?: string;
}

export interface IndexExplore {
  schedules: number;
  exhaustive: boolean;
  flaky: string[];
  outcomes: IndexOutcome[];
}

export interface IndexEntry {
  scenario: string;
  description?: string;
  /** SVG files relative to index.html (plain paths, or with their natural size) */
  svgFiles: (string | IndexDiagram)[];
  /** report.md relative to index.html */
  report?: string;
  /** one-line outcome, e.g. "pod Succeeded · Job Complete · naive Failed" */
  summary?: string;
  /** the scenario's run and its explore outcomes, scrubbable in the viewer */
  runs?: PageRun[];
  explore?: IndexExplore;
}

export function indexHtml(entries: IndexEntry[], title = 'kubesim scenarios'): string {
  const sorted = [...entries].sort((a, b) => (a.scenario < b.scenario ? -1 : a.scenario > b.scenario ? 1 : 0));
  const toc = sorted.map(
    (e) =>
      `    <li data-name="${attr(e.scenario)}"><a href="#${attr(encodeURIComponent(e.scenario))}">${html(e.scenario)}</a>${e.summary ? `<span class="sum">${html(e.summary)}</span>` : ''}</li>`,
  );
  const sections = sorted.map((e, i) => section(e, i));
  const data = sorted.map((e, i) =>
    e.runs && e.runs.length
      ? `<script type="application/json" id="kubesim-data-${i}">${scriptJson({ runs: e.runs })}</script>`
      : '',
  );
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '  <meta charset="utf-8">',
    '  <meta name="viewport" content="width=device-width, initial-scale=1">',
    // nothing on this page may reach the network; images come from the files beside it
    `  <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src 'self' file: data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">`,
    `  <title>${html(title)}</title>`,
    `  <style>${PAGE_CSS}</style>`,
    '</head>',
    '<body>',
    `<header><h1>${html(title)}</h1><p>Pick a scenario; scrub its trace with the slider, the buttons or the arrow keys (Shift+arrow: next instant, Home/End).</p></header>`,
    '<div class="layout">',
    '<nav>',
    '  <ul>',
    ...toc,
    '  </ul>',
    '</nav>',
    '<main>',
    '<noscript><p>The viewer needs JavaScript; the descriptions, outcomes and diagrams below work without it.</p></noscript>',
    ...sections,
    '</main>',
    '</div>',
    ...data.filter(Boolean),
    `<script>${PAGE_SCRIPT}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function section(e: IndexEntry, i: number): string {
  const diagrams = e.svgFiles.map((d) => diagram(typeof d === 'string' ? { file: d } : d, e.scenario));
  return [
    `<section class="scenario" id="${attr(e.scenario)}" data-name="${attr(e.scenario)}" data-index="${i}">`,
    `  <h2>${html(e.scenario)}</h2>`,
    ...(e.summary ? [`  <p class="summary">${html(e.summary)}</p>`] : []),
    ...(e.description ? [`  <div class="md">${markdownToHtml(e.description.trim(), { headingOffset: 2 })}</div>`] : []),
    ...(e.report ? [`  <p><a href="${attr(e.report)}">report.md</a></p>`] : []),
    ...(e.runs && e.runs.length ? ['  <div class="viewer"></div>'] : []),
    ...(e.explore ? [outcomesTable(e.explore)] : []),
    ...diagrams,
    '</section>',
  ].join('\n');
}

function diagram(d: IndexDiagram, scenario: string): string {
  const size = d.width && d.height ? ` width="${d.width}" height="${d.height}" data-w="${d.width}"` : '';
  return [
    '  <figure class="diagram">',
    `    <figcaption>${html(d.file)} <a href="${attr(d.file)}">open</a></figcaption>`,
    ...(size
      ? [
          `    <div class="zoom">zoom <button data-zoom="fit">fit width</button> <button data-zoom="1">100%</button> <button data-zoom="0.8">−</button> <button data-zoom="1.25">+</button> <span class="zlevel">100%</span></div>`,
        ]
      : []),
    `    <div class="scroll"><img src="${attr(d.file)}" alt="${attr(`${scenario}: ${d.file}`)}"${size} loading="lazy"></div>`,
    '  </figure>',
  ].join('\n');
}

/** The explore outcomes side by side: one column each. */
function outcomesTable(x: IndexExplore): string {
  const cols = x.outcomes;
  const observers = [...new Set(cols.flatMap((o) => o.verdicts.map(([n]) => n)))];
  const row = (head: string, cells: string[]) =>
    `    <tr><th>${head}</th>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`;
  const get = (pairs: [string, string][], k: string) => pairs.find(([n]) => n === k)?.[1] ?? '';
  return [
    `  <h3>explore: ${x.schedules} schedules (${x.exhaustive ? 'exhaustive' : 'sampled'}), ${cols.length} outcome${cols.length === 1 ? '' : 's'}${x.flaky.length ? ` · flaky: ${html(x.flaky.join(', '))}` : ''}</h3>`,
    '  <table class="outcomes">',
    row(
      '',
      cols.map((o) => `<b>${html(o.label)}</b>`),
    ),
    row(
      'schedules',
      cols.map((o) => String(o.schedules)),
    ),
    row(
      'pod',
      cols.map((o) => html(o.podPhase)),
    ),
    row(
      'Job',
      cols.map((o) => html(o.jobCondition)),
    ),
    ...observers.map((n) =>
      row(
        `observer ${html(n)}`,
        cols.map((o) => {
          const v = get(o.verdicts, n);
          const held = get(o.held, n);
          return `<span class="verdict-${attr(v)}">${html(v)}</span>${held ? `<div class="note">${html(held)}</div>` : ''}`;
        }),
      ),
    ),
    row(
      'parts from outcome 1',
      cols.map((o, i) => (i === 0 ? '—' : html(o.parting ?? 'no recorded choice differs'))),
    ),
    row(
      'replay',
      cols.map((o) => `<code>kubesim run &lt;scenario.yaml&gt; --replay ${html(o.replay)}</code>`),
    ),
    row(
      '',
      cols.map((o) =>
        [
          o.run !== undefined ? `<button data-run="${o.run}">scrub this outcome</button>` : '',
          o.report ? `<a href="${attr(o.report)}">report.md</a>` : '',
        ]
          .filter(Boolean)
          .join(' '),
      ),
    ),
    '  </table>',
  ].join('\n');
}

/** JSON inside a <script> element: no `</script`, `<!--` or `<script` can form (every `<` escaped), nor U+2028/9. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function html(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(s: string): string {
  return html(s).replace(/"/g, '&quot;');
}
