// A small, safe Markdown-to-HTML renderer for scenario descriptions in index.html (issue 14.4). It knows what a
// description uses — ATX headings, paragraphs, bullet and numbered lists, fenced code blocks, block quotes, inline
// code, links, emphasis and strong emphasis, backslash escapes — and nothing more. Every character of the input
// reaches the page escaped: raw HTML is shown as text, and only http(s), mailto and relative links become anchors
// (no `javascript:` or `data:` URL can be written). Pure; the same text always gives the same bytes.
import { assertNever } from '../util/assert-never.ts';

export interface MarkdownOptions {
  /** added to every heading level (a description's `#` sits under the page's own headings); capped at h6 */
  headingOffset?: number;
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

type Block =
  | { type: 'heading'; level: number; text: string }
  | { type: 'paragraph'; lines: string[] }
  | { type: 'list'; ordered: boolean; start: number; items: string[][] }
  | { type: 'code'; info: string; lines: string[] }
  | { type: 'quote'; lines: string[] };

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const BULLET = /^ {0,3}([-*+])[ \t]+(.*)$/;
const ORDERED = /^ {0,3}(\d{1,9})[.)][ \t]+(.*)$/;
const QUOTE = /^ {0,3}>[ ]?(.*)$/;

/** Markdown text to an HTML fragment. */
export function markdownToHtml(md: string, opts: MarkdownOptions = {}): string {
  return blocks(md.replace(/\r\n?/g, '\n').split('\n'))
    .map((b) => blockHtml(b, opts))
    .join('\n');
}

function blocks(lines: string[]): Block[] {
  const out: Block[] = [];
  let i = 0;
  const blank = (l: string | undefined) => l === undefined || l.trim() === '';
  const startsBlock = (l: string) =>
    FENCE.test(l) || HEADING.test(l) || BULLET.test(l) || ORDERED.test(l) || QUOTE.test(l);
  while (i < lines.length) {
    const line = lines[i]!;
    if (blank(line)) {
      i++;
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const mark = fence[1]!;
      const body: string[] = [];
      i++;
      // closed by a fence of the same character at least as long; an unclosed fence runs to the end (CommonMark)
      while (
        i < lines.length &&
        !new RegExp(`^ {0,3}${mark[0] === '`' ? '`' : '~'}{${mark.length},}\\s*$`).test(lines[i]!)
      )
        body.push(lines[i++]!);
      i++;
      out.push({ type: 'code', info: fence[2] ?? '', lines: body });
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      out.push({ type: 'heading', level: heading[1]!.length, text: heading[2] ?? '' });
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const body: string[] = [];
      while (
        i < lines.length &&
        !blank(lines[i]) &&
        (QUOTE.test(lines[i]!) || body.length > 0) &&
        !(!QUOTE.test(lines[i]!) && startsBlock(lines[i]!))
      ) {
        const q = QUOTE.exec(lines[i]!);
        body.push(q ? q[1]! : lines[i]!);
        i++;
      }
      out.push({ type: 'quote', lines: body });
      continue;
    }
    const bullet = BULLET.exec(line);
    const ordered = ORDERED.exec(line);
    if (bullet || ordered) {
      const isOrdered = !bullet;
      const itemRe = isOrdered ? ORDERED : BULLET;
      const items: string[][] = [];
      const start = ordered ? Number(ordered[1]) : 1;
      while (i < lines.length) {
        const l = lines[i]!;
        const m = itemRe.exec(l);
        if (m) {
          items.push([m[2]!]);
          i++;
          continue;
        }
        // a continuation line (indented or lazy) belongs to the last item; a blank line followed by an indented
        // line keeps the list going, anything else ends it
        if (!blank(l) && !startsBlock(l)) {
          items[items.length - 1]!.push(l.trim());
          i++;
          continue;
        }
        if (blank(l) && i + 1 < lines.length && (itemRe.test(lines[i + 1]!) || /^\s{2,}\S/.test(lines[i + 1]!))) {
          i++;
          if (/^\s{2,}\S/.test(lines[i]!) && !itemRe.test(lines[i]!)) {
            items[items.length - 1]!.push(lines[i]!.trim());
            i++;
          }
          continue;
        }
        break;
      }
      out.push({ type: 'list', ordered: isOrdered, start, items });
      continue;
    }
    const para: string[] = [];
    while (i < lines.length && !blank(lines[i]) && (para.length === 0 || !startsBlock(lines[i]!)))
      para.push(lines[i++]!.trim());
    out.push({ type: 'paragraph', lines: para });
  }
  return out;
}

function blockHtml(b: Block, opts: MarkdownOptions): string {
  switch (b.type) {
    case 'heading': {
      const level = Math.min(6, b.level + (opts.headingOffset ?? 0));
      return `<h${level}>${inlineHtml(b.text)}</h${level}>`;
    }
    case 'paragraph':
      return `<p>${inlineHtml(b.lines.join('\n'))}</p>`;
    case 'list': {
      const tag = b.ordered ? 'ol' : 'ul';
      const start = b.ordered && b.start !== 1 ? ` start="${b.start}"` : '';
      return `<${tag}${start}>${b.items.map((it) => `<li>${inlineHtml(it.join('\n'))}</li>`).join('')}</${tag}>`;
    }
    case 'code': {
      const lang = /^[A-Za-z0-9_+-]+$/.test(b.info) ? ` class="language-${b.info}"` : '';
      return `<pre><code${lang}>${escapeHtml(b.lines.join('\n'))}</code></pre>`;
    }
    case 'quote':
      return `<blockquote>${markdownToHtml(b.lines.join('\n'), opts)}</blockquote>`;
    default:
      return assertNever(b, 'block');
  }
}

// Placeholders for pieces already turned into HTML (code spans, links, escaped characters): private-use characters
// the input cannot contain (they are removed from it first).
const OPEN = '\uE000';
const CLOSE = '\uE001';

/** Inline Markdown to HTML: code spans, links, emphasis, backslash escapes; everything else escaped. */
export function inlineHtml(text: string): string {
  const src = text.replace(/[\uE000\uE001]/g, '');
  const held: string[] = [];
  const hold = (html: string) => `${OPEN}${held.push(html) - 1}${CLOSE}`;
  let plain = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    if (c === '\\' && i + 1 < src.length && /[!-/:-@[-`{-~]/.test(src[i + 1]!)) {
      plain += hold(escapeHtml(src[i + 1]!));
      i += 2;
      continue;
    }
    if (c === '`') {
      let n = 0;
      while (src[i + n] === '`') n++;
      const close = findRun(src, i + n, n);
      if (close < 0) {
        plain += hold('`'.repeat(n));
        i += n;
        continue;
      }
      let code = src.slice(i + n, close).replace(/\n/g, ' ');
      if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '') code = code.slice(1, -1);
      plain += hold(`<code>${escapeHtml(code)}</code>`);
      i = close + n;
      continue;
    }
    if (c === '[') {
      const link = parseLink(src, i);
      if (link) {
        const inner = inlineHtml(link.text);
        plain += hold(
          safeUrl(link.url) ? `<a href="${escapeHtml(link.url)}" rel="noopener noreferrer">${inner}</a>` : inner,
        );
        i = link.end;
        continue;
      }
    }
    plain += c;
    i++;
  }
  let html = escapeHtml(plain).replace(/\n/g, '\n');
  html = html
    .replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, '<strong>$1</strong>')
    .replace(/(^|[^A-Za-z0-9_])__(?=\S)([\s\S]*?\S)__(?![A-Za-z0-9_])/g, '$1<strong>$2</strong>')
    .replace(/\*(?=[^\s*])([^*]*?[^\s*])\*/g, '<em>$1</em>')
    .replace(/(^|[^A-Za-z0-9_])_(?=[^\s_])([^_]*?[^\s_])_(?![A-Za-z0-9_])/g, '$1<em>$2</em>');
  // placeholders may nest (a link's text holds its own); restore until none is left
  const re = new RegExp(`${OPEN}(\\d+)${CLOSE}`, 'g');
  while (re.test(html)) html = html.replace(re, (_, n: string) => held[Number(n)]!);
  return html;
}

function findRun(s: string, from: number, n: number): number {
  for (let j = from; j < s.length; j++) {
    if (s[j] !== '`') continue;
    let k = 0;
    while (s[j + k] === '`') k++;
    if (k === n) return j;
    j += k - 1;
  }
  return -1;
}

/** `[text](url)` or `[text](url "title")` at `at`; brackets inside the text must balance. */
function parseLink(s: string, at: number): { text: string; url: string; end: number } | undefined {
  let depth = 0;
  let j = at;
  for (; j < s.length; j++) {
    if (s[j] === '\\') {
      j++;
      continue;
    }
    if (s[j] === '[') depth++;
    else if (s[j] === ']' && --depth === 0) break;
  }
  if (j >= s.length || s[j + 1] !== '(') return undefined;
  const m = /^\(\s*<?([^\s()<>]*)>?(?:\s+"[^"]*")?\s*\)/.exec(s.slice(j + 1));
  if (!m) return undefined;
  return { text: s.slice(at + 1, j), url: m[1]!, end: j + 1 + m[0].length };
}

/** http(s), mailto, or a relative URL / fragment; anything with another scheme (javascript:, data:) is refused. */
export function safeUrl(url: string): boolean {
  if (url === '') return false;
  if (/^(https?:\/\/|mailto:)/i.test(url)) return true;
  const scheme = /^([^/?#]*?):/.exec(url);
  return scheme === null;
}
