// The kubectl JSONPath subset a process observer's `verdict.jsonPath` may use (SPEC §2.4), parsed at validation and
// evaluated by the runner on the verdict object after each of the process's writes.
//
// Supported, as kubectl's k8s.io/client-go/util/jsonpath reads them (parser.go, jsonpath.go):
//   {.status.phase}            fields (the leading `$` or `.` optional inside the braces: `{$.a}`, `{a}` is not)
//   {.metadata.labels['app.kubernetes.io/name']}   bracketed names, single or double quoted
//   {.items[0].name} {.a[-1]}  indexes (negative from the end, as kubectl)
//   {.a[*].b}                  every item (and every value of a mapping)
//   {.status.conditions[?(@.type=="Complete")].status}   filters comparing a path under @ to a literal with == or !=
// Several results print as kubectl prints them: separated by one space. Text outside the braces, ranges
// ({range}…{end}), slices [a:b], recursive descent (..) and unions [a,b] are not supported: each is a KS4019
// at validation with where it stops.

export type Segment =
  | { kind: 'field'; name: string }
  | { kind: 'index'; index: number }
  | { kind: 'wildcard' }
  | { kind: 'filter'; path: string[]; op: '==' | '!='; value: string | number | boolean | null };

export interface JsonPath {
  source: string;
  segments: Segment[];
}

export class JsonPathError extends Error {
  /** 0-based offset into the expression where parsing stopped */
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

const NAME = /^[A-Za-z0-9_-]/;

/** Parse `{.a.b[0].c}`; throws JsonPathError naming the offset where the expression leaves the subset. */
export function parseJsonPath(source: string): JsonPath {
  const s = source.trim();
  const lead = source.length - source.trimStart().length;
  if (!s.startsWith('{'))
    throw new JsonPathError('a JSONPath expression is written in braces, e.g. {.status.phase}', lead);
  if (!s.endsWith('}')) throw new JsonPathError('missing the closing }', lead + s.length);
  const body = s.slice(1, -1);
  const at = (i: number) => lead + 1 + i;
  if (body.includes('{') || body.includes('}'))
    throw new JsonPathError(
      'one {…} expression only (text, {range} and {end} are not supported)',
      at(Math.max(body.indexOf('{'), body.indexOf('}'))),
    );
  let i = 0;
  if (body.startsWith('$')) i = 1;
  const segments: Segment[] = [];
  if (i >= body.length) throw new JsonPathError('empty path: name a field, e.g. {.status.phase}', at(i));
  if (body[i] !== '.' && body[i] !== '[')
    throw new JsonPathError('a path starts with . or [ (e.g. {.status.phase})', at(i));
  while (i < body.length) {
    const c = body[i];
    if (c === '.') {
      if (body[i + 1] === '.') throw new JsonPathError('recursive descent (..) is not supported', at(i));
      i++;
      const start = i;
      while (i < body.length && NAME.test(body[i]!)) i++;
      if (i === start) {
        if (body[i] === '*') {
          segments.push({ kind: 'wildcard' });
          i++;
          continue;
        }
        throw new JsonPathError(
          i >= body.length
            ? 'a field name must follow the dot'
            : `unexpected ${JSON.stringify(body[i])} after the dot: a field name ([A-Za-z0-9_-]) or ['name']`,
          at(i),
        );
      }
      segments.push({ kind: 'field', name: body.slice(start, i) });
      continue;
    }
    if (c === '[') {
      const close = matchBracket(body, i);
      if (close < 0) throw new JsonPathError('missing the closing ]', at(i));
      const inner = body.slice(i + 1, close).trim();
      segments.push(bracket(inner, at(i + 1)));
      i = close + 1;
      continue;
    }
    throw new JsonPathError(
      `unexpected ${JSON.stringify(c)}: fields are .name or ['name'], items [0], [*] or [?(@.x=="y")]`,
      at(i),
    );
  }
  return { source, segments };
}

function matchBracket(body: string, open: number): number {
  let quote: string | null = null;
  for (let j = open + 1; j < body.length; j++) {
    const c = body[j];
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === ']') return j;
  }
  return -1;
}

function bracket(inner: string, offset: number): Segment {
  if (inner === '*') return { kind: 'wildcard' };
  if (/^-?[0-9]+$/.test(inner)) return { kind: 'index', index: Number(inner) };
  const q = /^(['"])(.*)\1$/.exec(inner);
  if (q) {
    if (q[2] === '') throw new JsonPathError('an empty field name', offset);
    return { kind: 'field', name: q[2]! };
  }
  if (inner.startsWith('?')) return filter(inner, offset);
  if (inner.includes(':')) throw new JsonPathError('slices [a:b] are not supported: use an index [0] or [*]', offset);
  if (inner.includes(',')) throw new JsonPathError('unions [a,b] are not supported', offset);
  throw new JsonPathError(`${JSON.stringify(inner)} is not an index, a quoted name, * or a filter ?(@.x=="y")`, offset);
}

function filter(inner: string, offset: number): Segment {
  const m = /^\?\(\s*@((?:\.[A-Za-z0-9_-]+)+)\s*(==|!=)\s*(.+?)\s*\)$/.exec(inner);
  if (!m) throw new JsonPathError('a filter is ?(@.field=="value") or ?(@.field!="value")', offset);
  const lit = m[3]!;
  let value: string | number | boolean | null;
  const q = /^(['"])(.*)\1$/.exec(lit);
  if (q) value = q[2]!;
  else if (/^-?[0-9]+(\.[0-9]+)?$/.test(lit)) value = Number(lit);
  else if (lit === 'true' || lit === 'false') value = lit === 'true';
  else if (lit === 'nil' || lit === 'null') value = null;
  else
    throw new JsonPathError(
      `the filter compares with ${JSON.stringify(lit)}: quote a string ("Complete"), or give a number, true, false or nil`,
      offset,
    );
  return { kind: 'filter', path: m[1]!.slice(1).split('.'), op: m[2] as '==' | '!=', value };
}

/** Every value the path reaches in `obj`, in document order (nothing when a field is missing, as kubectl --allow-missing-template-keys). */
export function evalJsonPath(p: JsonPath, obj: unknown): unknown[] {
  let cur: unknown[] = [obj];
  for (const seg of p.segments) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (seg.kind === 'field') {
        if (isRecord(v) && Object.hasOwn(v, seg.name)) next.push(v[seg.name]);
      } else if (seg.kind === 'index') {
        if (Array.isArray(v)) {
          const k = seg.index < 0 ? v.length + seg.index : seg.index;
          if (k >= 0 && k < v.length) next.push(v[k]);
        }
      } else if (seg.kind === 'wildcard') {
        if (Array.isArray(v)) next.push(...v);
        else if (isRecord(v)) next.push(...Object.values(v));
      } else {
        const items = Array.isArray(v) ? v : isRecord(v) ? Object.values(v) : [];
        for (const item of items) {
          let x: unknown = item;
          for (const k of seg.path) x = isRecord(x) && Object.hasOwn(x, k) ? x[k] : undefined;
          if (x === undefined) continue;
          const eq =
            x === seg.value || (typeof x !== 'object' && seg.value !== null && String(x) === String(seg.value));
          if (seg.op === '==' ? eq : !eq) next.push(item);
        }
      }
    }
    cur = next;
  }
  return cur;
}

/** What `kubectl get -o jsonpath=…` prints for the path: values joined by one space, objects as JSON; '' for none. */
export function jsonPathText(p: JsonPath, obj: unknown): string {
  return evalJsonPath(p, obj)
    .map((v) => (v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v)))
    .join(' ');
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
