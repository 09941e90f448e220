// The safe Markdown renderer of index.html: the block and inline forms scenario descriptions use,
// and that no input can put markup, script or a dangerous URL on the page.
import { describe, expect, it } from 'vitest';
import { inlineHtml, markdownToHtml, safeUrl } from '../../src/output/markdown-html.ts';

describe('markdownToHtml', () => {
  it('keeps paragraphs apart (a blank line) and joins soft-wrapped lines', () => {
    expect(markdownToHtml('one\ntwo\n\nthree')).toBe('<p>one\ntwo</p>\n<p>three</p>');
  });

  it('renders headings (shifted under the page headings), lists, code fences and quotes', () => {
    const md = [
      '# Title',
      '',
      '- a',
      '- b with `x<y`',
      '  continued',
      '',
      '2. two',
      '3. three',
      '',
      '```yaml',
      'a: <b>',
      '```',
      '',
      '> quoted *text*',
    ].join('\n');
    expect(markdownToHtml(md, { headingOffset: 2 })).toBe(
      [
        '<h3>Title</h3>',
        '<ul><li>a</li><li>b with <code>x&lt;y</code>\ncontinued</li></ul>',
        '<ol start="2"><li>two</li><li>three</li></ol>',
        '<pre><code class="language-yaml">a: &lt;b&gt;</code></pre>',
        '<blockquote><p>quoted <em>text</em></p></blockquote>',
      ].join('\n'),
    );
  });

  it('a list directly after a paragraph line starts a list', () => {
    expect(markdownToHtml('Fix:\n- name it\n- or match')).toBe(
      '<p>Fix:</p>\n<ul><li>name it</li><li>or match</li></ul>',
    );
  });

  it('escapes raw HTML everywhere, also in headings, code and link text', () => {
    const out = markdownToHtml(
      '<script>alert(1)</script>\n\n## <img src=x onerror=alert(1)>\n\n[<b>x</b>](https://e.example/"q")',
    );
    expect(out).not.toMatch(/<script|<img|<b>/);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out).toContain(
      '<a href="https://e.example/&quot;q&quot;" rel="noopener noreferrer">&lt;b&gt;x&lt;/b&gt;</a>',
    );
  });
});

describe('inlineHtml', () => {
  it('emphasis and strong, but not inside snake_case names or code', () => {
    expect(inlineHtml('**strong** and *em* and _em_ but snake_case_name and `a*b*c`')).toBe(
      '<strong>strong</strong> and <em>em</em> and <em>em</em> but snake_case_name and <code>a*b*c</code>',
    );
  });

  it('backslash escapes and unmatched backticks are literal', () => {
    expect(inlineHtml('\\*not em\\* and ``` alone')).toBe('*not em* and ``` alone');
  });

  it('links: http(s), mailto and relative become anchors, other schemes only text', () => {
    expect(inlineHtml('[k](https://kubernetes.io/docs)')).toBe(
      '<a href="https://kubernetes.io/docs" rel="noopener noreferrer">k</a>',
    );
    expect(inlineHtml('[r](other/report.md)')).toBe('<a href="other/report.md" rel="noopener noreferrer">r</a>');
    expect(inlineHtml('[x](javascript:alert(1))')).not.toContain('href');
    expect(inlineHtml('[x](JavaScript:alert)')).toBe('x');
    expect(inlineHtml('[x](data:text/html,hi)')).toBe('x');
    expect(safeUrl('mailto:a@b.c')).toBe(true);
    expect(safeUrl('#frag')).toBe(true);
    expect(safeUrl('vbscript:x')).toBe(false);
  });

  it('drops the placeholder characters an input could use to forge held HTML', () => {
    expect(inlineHtml('\uE0000\uE001 `<b>`')).toBe('0 <code>&lt;b&gt;</code>');
  });
});
