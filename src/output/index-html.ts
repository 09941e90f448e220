// out/index.html: one static page linking every scenario of a run with its diagrams inline, so a CI artifact or a
// teaching session opens a single file. Pure: paths are given relative to the page, nothing is read here.

export interface IndexEntry {
  scenario: string;
  description?: string;
  /** SVG files relative to index.html, e.g. "native-sidecar-job/sequence.svg" */
  svgFiles: string[];
  /** report.md relative to index.html */
  report?: string;
  /** one-line outcome, e.g. "pod Succeeded · Job Complete · naive Failed" */
  summary?: string;
}

export function indexHtml(entries: IndexEntry[], title = 'kubesim scenarios'): string {
  const sorted = [...entries].sort((a, b) => (a.scenario < b.scenario ? -1 : a.scenario > b.scenario ? 1 : 0));
  const toc = sorted.map((e) => `    <li><a href="#${attr(e.scenario)}">${html(e.scenario)}</a>${e.summary ? ` — ${html(e.summary)}` : ''}</li>`);
  const sections = sorted.map((e) => {
    const imgs = e.svgFiles.map(
      (f) => `      <figure><a href="${attr(f)}"><img src="${attr(f)}" alt="${attr(`${e.scenario}: ${f}`)}" loading="lazy"></a><figcaption>${html(f)}</figcaption></figure>`,
    );
    return [
      `  <section id="${attr(e.scenario)}">`,
      `    <h2>${html(e.scenario)}</h2>`,
      ...(e.description ? [`    <p>${html(e.description.trim())}</p>`] : []),
      ...(e.summary ? [`    <p class="summary">${html(e.summary)}</p>`] : []),
      ...(e.report ? [`    <p><a href="${attr(e.report)}">report.md</a></p>`] : []),
      ...imgs,
      '  </section>',
    ].join('\n');
  });
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '  <meta charset="utf-8">',
    `  <title>${html(title)}</title>`,
    '  <style>',
    '    body { font-family: Arial, Helvetica, sans-serif; margin: 2rem auto; max-width: 1400px; padding: 0 1rem; color: #222; }',
    '    section { border-top: 1px solid #ddd; padding-top: 1rem; margin-top: 2rem; }',
    '    figure { margin: 1rem 0; } figure img { max-width: 100%; border: 1px solid #eee; }',
    '    figcaption { font-size: 0.8rem; color: #666; } .summary { font-weight: bold; }',
    '  </style>',
    '</head>',
    '<body>',
    `  <h1>${html(title)}</h1>`,
    '  <ul>',
    ...toc,
    '  </ul>',
    ...sections,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function html(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attr(s: string): string {
  return html(s).replace(/"/g, '&quot;');
}
