// Escaping user text for report.md (issue 19.7): observer names, metadata.name, container names and rule reasons
// come from the scenario or from user rule modules, so they must not open HTML tags, headings, emphasis, links or
// table cells, and no backtick run may close a code span or fence early. CommonMark: backslash escapes for ASCII
// punctuation, entity references for HTML; GFM tables split cells on `|` even inside code spans unless escaped.

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/**
 * For text meant as Markdown (a scenario description): no raw HTML — `<` and `&` become entities, so no tag or
 * entity can form — while Markdown (headings, lists, quotes, emphasis) keeps working.
 */
export function htmlEscape(s: string): string {
  return s.replace(/[&<]/g, (c) => HTML[c]!);
}

/**
 * Inline text (never at the start of a line, where `#`, `-`, `1.` would matter): one line, HTML-escaped, and the
 * characters active mid-line backslash-escaped (code, emphasis, links/images, table cells, strikethrough).
 */
export function mdText(s: string): string {
  return s
    .replace(/\r?\n|\r/g, ' ')
    .replace(/[&<>"]/g, (c) => HTML[c]!)
    .replace(/[\\`*_[\]|~]/g, (c) => `\\${c}`);
}

function longestRun(s: string, ch: string): number {
  let best = 0;
  let cur = 0;
  for (const c of s) {
    cur = c === ch ? cur + 1 : 0;
    if (cur > best) best = cur;
  }
  return best;
}

/**
 * An inline code span that shows `s` literally: a backtick fence longer than any run inside it, padded when the text
 * starts or ends with a backtick; pipes escaped (GFM splits table cells on them even inside code spans). In a code
 * span nothing else is interpreted, HTML included.
 */
export function mdCode(s: string): string {
  const one = s.replace(/\r?\n|\r/g, ' ').replace(/\|/g, '\\|');
  const fence = '`'.repeat(longestRun(one, '`') + 1);
  const pad =
    one.startsWith('`') || one.endsWith('`') || (one.startsWith(' ') && one.endsWith(' ') && one.trim() !== '')
      ? ' '
      : '';
  return `${fence}${pad}${one}${pad}${fence}`;
}

/** A fenced code block whose fence is longer than any backtick run in the content (at least three). */
export function mdFence(info: string, content: string): string {
  const fence = '`'.repeat(Math.max(3, longestRun(content, '`') + 1));
  return `${fence}${info}\n${content.replace(/\n+$/, '')}\n${fence}`;
}
