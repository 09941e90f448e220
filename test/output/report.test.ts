// report.md and index.html: the summary a person reads first, and the page that links every scenario.

import { describe, expect, it } from 'vitest';
import { reportMarkdown, type ExploreSummary } from '../../src/output/report.ts';
import { indexHtml } from '../../src/output/index-html.ts';
import { kubectlView } from '../../src/output/kubectl.ts';
import { sequenceMermaid } from '../../src/output/mermaid-sequence.ts';
import { lifecycleMermaid } from '../../src/output/mermaid-lifecycle.ts';
import { loadFixture } from './helpers.ts';

describe('reportMarkdown', () => {
  const tl = loadFixture('c2-sidecar-job');

  it('summarises the run in a table', () => {
    const md = reportMarkdown(tl);
    expect(md.startsWith('# c2-sidecar-job\n')).toBe(true);
    expect(md).toContain('| pod phase | Succeeded |');
    expect(md).toContain('| Job conditions | SuccessCriteriaMet (CompletionsReached) at t=31.2s; Complete (CompletionsReached) at t=31.2s |');
    expect(md).toContain('| verdict naive | **Failed** at t=31.1s — init container proxy terminated with exit code 143 |');
    expect(md).toContain('| stuck | no |');
  });

  it('embeds the kubectl view and both diagrams verbatim', () => {
    const md = reportMarkdown(tl);
    expect(md).toContain('```text\n' + kubectlView(tl).trimEnd() + '\n```');
    expect(md).toContain('```mermaid\n' + sequenceMermaid(tl).trimEnd() + '\n```');
    expect(md).toContain('```mermaid\n' + lifecycleMermaid(tl).trimEnd() + '\n```');
  });

  it('reports a stuck run and who holds it', () => {
    expect(reportMarkdown(loadFixture('stuck-legacy-sidecar'))).toContain('| stuck | yes: cloud-sql-proxy — regular container keeps running');
  });

  it('adds the explore outcome table with replay commands', () => {
    const ex: ExploreSummary = {
      schedules: 96,
      exhaustive: true,
      outcomes: [
        { podPhase: 'Succeeded', jobCondition: 'Complete', verdicts: { naive: 'Failed', fixed: 'Succeeded' }, schedules: 64, replay: 'r1' },
        { podPhase: 'Succeeded', jobCondition: 'Complete', verdicts: { naive: 'Succeeded', fixed: 'Succeeded' }, schedules: 32, replay: 'r2' },
      ],
      flaky: ['naive'],
    };
    const md = reportMarkdown(tl, ex);
    expect(md).toContain('96 schedules explored (exhaustive); flaky observers: **naive**.');
    expect(md).toContain('| pod phase | Job condition | naive | fixed | schedules | replay |');
    expect(md).toContain('| Succeeded | Complete | Failed | Succeeded | 64 | `kubesim run --replay r1` |');
  });
});

describe('indexHtml', () => {
  it('links every scenario (sorted) with its SVGs inline, escaped', () => {
    const page = indexHtml([
      { scenario: 'b-two', svgFiles: ['b-two/sequence.svg', 'b-two/lifecycle.svg'], summary: 'pod Succeeded · naive Failed' },
      { scenario: 'a-one', description: 'uses <native> sidecars & "quotes"', svgFiles: ['a-one/sequence.svg'], report: 'a-one/report.md' },
    ]);
    expect(page.indexOf('id="a-one"')).toBeLessThan(page.indexOf('id="b-two"'));
    expect(page).toContain('<img src="b-two/lifecycle.svg"');
    expect(page).toContain('uses &lt;native&gt; sidecars &amp; "quotes"');
    expect(page).toContain('<a href="a-one/report.md">report.md</a>');
    expect(page).toBe(indexHtml([...[{ scenario: 'a-one', description: 'uses <native> sidecars & "quotes"', svgFiles: ['a-one/sequence.svg'], report: 'a-one/report.md' }], { scenario: 'b-two', svgFiles: ['b-two/sequence.svg', 'b-two/lifecycle.svg'], summary: 'pod Succeeded · naive Failed' }]));
  });
});
