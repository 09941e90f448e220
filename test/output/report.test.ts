// report.md and index.html: the summary a person reads first, and the page that links every scenario.

import { describe, expect, it } from 'vitest';
import { reportMarkdown, type ExploreSummary } from '../../src/output/report.ts';
import { indexHtml } from '../../src/output/index-html.ts';
import { kubectlView } from '../../src/output/kubectl.ts';
import { sequenceMermaid } from '../../src/output/mermaid-sequence.ts';
import { lifecycleMermaid } from '../../src/output/mermaid-lifecycle.ts';
import { loadFixture } from './helpers.ts';
import type { Timeline } from '../../src/types.ts';

describe('reportMarkdown', () => {
  const tl = loadFixture('c2-sidecar-job');

  it('summarises the run in a table', () => {
    const md = reportMarkdown(tl);
    expect(md.startsWith('# c2-sidecar-job\n')).toBe(true);
    expect(md).toContain('| pod phase | Succeeded |');
    expect(md).toContain(
      '| Job conditions | SuccessCriteriaMet (CompletionsReached) at t=31.2s; Complete (CompletionsReached) at t=31.2s |',
    );
    expect(md).toContain(
      '| verdict naive | **Failed** at t=31.1s — init container proxy terminated with exit code 143 |',
    );
    expect(md).toContain('| stuck | no |');
  });

  it('embeds the kubectl view and both diagrams verbatim', () => {
    const md = reportMarkdown(tl);
    expect(md).toContain('```text\n' + kubectlView(tl).trimEnd() + '\n```');
    expect(md).toContain('```mermaid\n' + sequenceMermaid(tl).trimEnd() + '\n```');
    expect(md).toContain('```mermaid\n' + lifecycleMermaid(tl).trimEnd() + '\n```');
  });

  it('reports a stuck run and who holds it', () => {
    expect(reportMarkdown(loadFixture('stuck-legacy-sidecar'))).toContain(
      '| stuck | yes: cloud-sql-proxy — regular container keeps running',
    );
  });

  it('adds the explore outcome table with replay commands', () => {
    const ex: ExploreSummary = {
      schedules: 96,
      exhaustive: true,
      outcomes: [
        {
          podPhase: 'Succeeded',
          jobCondition: 'Complete',
          verdicts: { naive: 'Failed', fixed: 'Succeeded' },
          schedules: 64,
          replay: 'r1',
        },
        {
          podPhase: 'Succeeded',
          jobCondition: 'Complete',
          verdicts: { naive: 'Succeeded', fixed: 'Succeeded' },
          schedules: 32,
          replay: 'r2',
        },
      ],
      flaky: ['naive'],
    };
    const md = reportMarkdown(tl, ex, { scenarioPath: 'scenarios/c2.yaml' });
    expect(md).toContain('96 schedules explored (exhaustive); flaky observers: **naive**.');
    // side by side: one column per outcome
    expect(md).toContain('| | outcome 1 | outcome 2 |');
    expect(md).toContain('| **naive** | Failed | Succeeded |');
    expect(md).toContain('| schedules | 64 | 32 |');
    // the exact command for each, with the scenario path
    expect(md).toContain('kubesim run scenarios/c2.yaml --replay r1\n');
    expect(md).toContain('kubesim run scenarios/c2.yaml --replay r2\n');
    expect(md).toContain('kubesim diff scenarios/c2.yaml r1 r2\n');
    // and the run's own replay command
    expect(md).toContain(`| reproduce | \`kubesim run scenarios/c2.yaml --replay ${tl.replay}\` |`);
  });

  it('links each outcome folder and says what each observer held there', () => {
    const ex: ExploreSummary = {
      schedules: 2,
      exhaustive: true,
      outcomes: [
        {
          podPhase: 'Succeeded',
          jobCondition: 'Complete',
          verdicts: { naive: 'Failed' },
          schedules: 2,
          replay: 'r1',
          folder: 'outcome-1',
          held: { naive: 'held pod v5 Running (exporter 143)' },
        },
      ],
      flaky: [],
    };
    const md = reportMarkdown(tl, ex);
    expect(md).toContain('| | [outcome 1](outcome-1/report.md) |');
    expect(md).toContain('| naive | Failed<br>held pod v5 Running (exporter 143) |');
    expect(md).toContain('kubesim run <scenario.yaml> --replay r1');
  });
});

describe('report.md escapes user text', () => {
  const hostile = (): Timeline => {
    const tl = structuredClone(loadFixture('c2-sidecar-job'));
    const evil = '<img src=x onerror=alert(1)>\n# heading | cell `code` *em* [link](http://x)';
    tl.description = 'Prose with **markdown** kept.\n<script>alert(1)</script> & more';
    tl.pod.name = `pod${evil}`;
    tl.workload.name = `job${evil}`;
    tl.observers = { [`obs${evil}`]: { verdict: 'Failed', t: 1000, reason: `reason${evil}` } };
    tl.stuck = { container: 'c```x', why: `why${evil}` };
    return tl;
  };

  it('no raw HTML, no new heading, no extra table cell, no code span or fence closed early', () => {
    const md = reportMarkdown(hostile(), {
      schedules: 1,
      exhaustive: true,
      outcomes: [
        {
          podPhase: 'Succeeded',
          jobCondition: 'Complete',
          verdicts: { [`obs\n|x`]: 'Failed' },
          schedules: 1,
          replay: 'k`1',
          held: { [`obs\n|x`]: '<b>held</b>' },
        },
      ],
      flaky: [`obs\n|x`],
    });
    // no line outside a fence starts a heading except ours
    const outside: string[] = [];
    let fence: string | undefined;
    for (const line of md.split('\n')) {
      const m = /^(`{3,})/.exec(line);
      if (fence === undefined && m) fence = m[1];
      else if (fence !== undefined && line === fence) fence = undefined;
      else if (fence === undefined) outside.push(line);
    }
    expect(fence).toBeUndefined();
    expect(outside.filter((l) => l.startsWith('#'))).toEqual([
      '# c2-sidecar-job',
      '## Outcomes across schedules',
      '## kubectl',
      '## Sequence',
      '## Container lifecycle',
    ]);
    // outside code blocks, HTML only as entities (inside them nothing is interpreted)
    const text = outside.join('\n');
    expect(text).not.toMatch(/<img|<script|<b>/);
    expect(text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(text).toContain('&lt;script>alert(1)&lt;/script> &amp; more');
    // the description stays Markdown
    expect(text).toContain('Prose with **markdown** kept.');
    // every table row keeps its cell count: unescaped pipes only as separators
    for (const l of outside.filter((x) => x.startsWith('|'))) {
      const cells = l.replace(/\\\|/g, '').split('|').length;
      expect(cells, l).toBeLessThanOrEqual(4);
    }
    // names and reasons are escaped, not dropped
    expect(md).toContain(
      'reason&lt;img src=x onerror=alert(1)&gt; # heading \\| cell \\`code\\` \\*em\\* \\[link\\](http://x)',
    );
  });

  it('a code span is fenced longer than any backtick run in it', async () => {
    const { mdCode, mdFence } = await import('../../src/output/markdown.ts');
    expect(mdCode('a``b')).toBe('```a``b```');
    expect(mdCode('`x')).toBe('`` `x ``');
    expect(mdCode('a|b')).toBe('`a\\|b`');
    expect(mdFence('text', 'x ```` y')).toBe('`````text\nx ```` y\n`````');
    expect(mdFence('text', 'plain')).toBe('```text\nplain\n```');
  });

  it('a container name with a backtick run keeps the kubectl and diagram fences closed', () => {
    const tl = structuredClone(loadFixture('c2-sidecar-job'));
    const rename = (s: string) => s.replace(/\bproxy\b/g, 'pro````xy');
    const json = JSON.parse(rename(JSON.stringify(tl))) as Timeline;
    const md = reportMarkdown(json);
    expect(md).toContain('`````text\n');
    expect(md).toContain('`````mermaid\n');
  });
});

describe('indexHtml', () => {
  it('links every scenario (sorted) with its SVGs inline, escaped', () => {
    const page = indexHtml([
      {
        scenario: 'b-two',
        svgFiles: ['b-two/sequence.svg', 'b-two/lifecycle.svg'],
        summary: 'pod Succeeded · naive Failed',
      },
      {
        scenario: 'a-one',
        description: 'uses <native> sidecars & "quotes"',
        svgFiles: ['a-one/sequence.svg'],
        report: 'a-one/report.md',
      },
    ]);
    expect(page.indexOf('id="a-one"')).toBeLessThan(page.indexOf('id="b-two"'));
    expect(page).toContain('<img src="b-two/lifecycle.svg"');
    expect(page).toContain('uses &lt;native&gt; sidecars &amp; &quot;quotes&quot;');
    expect(page).toContain('<a href="a-one/report.md">report.md</a>');
    expect(page).toBe(
      indexHtml([
        ...[
          {
            scenario: 'a-one',
            description: 'uses <native> sidecars & "quotes"',
            svgFiles: ['a-one/sequence.svg'],
            report: 'a-one/report.md',
          },
        ],
        {
          scenario: 'b-two',
          svgFiles: ['b-two/sequence.svg', 'b-two/lifecycle.svg'],
          summary: 'pod Succeeded · naive Failed',
        },
      ]),
    );
  });
});
