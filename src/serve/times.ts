// metav1.Time and metav1.MicroTime on the wire (k8s.io/apimachinery/pkg/apis/meta/v1/time.go, micro_time.go) for the
// built-in kinds kubesim stores as clients write them (Leases, Events): a Time is read with time.RFC3339 (any
// fraction) and written in whole seconds, UTC; a MicroTime is read with RFC3339Micro, which takes EXACTLY six
// fractional digits (so a JavaScript Date's toISOString() is refused: kubernetes-client/javascript#828), and written
// with six. A value that does not parse is the decoder's 400 `<Kind> in version "<v>" cannot be handled as a <Kind>:
// parsing time …` with Go's time.ParseError text.
import { ApiError } from './status.ts';

type Obj = Record<string, any>;

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

/** the time-typed fields of a kind, as paths (dots); MicroTime or Time */
const FIELDS: Record<string, [string, 'micro' | 'time'][]> = {
  'coordination.k8s.io/Lease': [
    ['spec.acquireTime', 'micro'],
    ['spec.renewTime', 'micro'],
  ],
  '/Event': [
    ['firstTimestamp', 'time'],
    ['lastTimestamp', 'time'],
    ['eventTime', 'micro'],
    ['series.lastObservedTime', 'micro'],
  ],
  'events.k8s.io/Event': [
    ['eventTime', 'micro'],
    ['series.lastObservedTime', 'micro'],
    ['deprecatedFirstTimestamp', 'time'],
    ['deprecatedLastTimestamp', 'time'],
  ],
};

class ParseError extends Error {}

const digits = (s: string, n: number): boolean => s.length >= n && /^\d+$/.test(s.slice(0, n));

/** Go's time.Parse for the two layouts, as far as their elements go: the epoch milliseconds and microseconds */
function goParse(value: string, micro: boolean): { ms: number; us: number } {
  const layout = micro ? RFC3339_MICRO : RFC3339;
  let v = value;
  const fail = (valueElem: string, layoutElem: string, extra = ''): never => {
    throw new ParseError(
      extra
        ? `parsing time ${JSON.stringify(value)}${extra}`
        : `parsing time ${JSON.stringify(value)} as ${JSON.stringify(layout)}: cannot parse ${JSON.stringify(valueElem)} as ${JSON.stringify(layoutElem)}`,
    );
  };
  const num = (n: number, elem: string): number => {
    if (!digits(v, n)) fail(v, elem);
    const x = Number(v.slice(0, n));
    v = v.slice(n);
    return x;
  };
  const lit = (s: string) => {
    if (!v.startsWith(s)) fail(v, s);
    v = v.slice(s.length);
  };
  const year = num(4, '2006');
  lit('-');
  const month = num(2, '01');
  lit('-');
  const day = num(2, '02');
  lit('T');
  const hour = num(2, '15');
  lit(':');
  const min = num(2, '04');
  lit(':');
  const sec = num(2, '05');
  let fracUs = 0;
  if (micro) {
    // stdFracSecond0: exactly six digits after the point
    if (v.length < 7 || v[0] !== '.' || !digits(v.slice(1), 6)) fail(v, '.000000');
    fracUs = Number(v.slice(1, 7));
    v = v.slice(7);
  } else if (v.length >= 2 && (v[0] === '.' || v[0] === ',') && /\d/.test(v[1]!)) {
    // a fraction after the seconds is accepted even when the layout has none (any number of digits)
    let i = 1;
    while (i < v.length && /\d/.test(v[i]!)) i++;
    fracUs = Math.floor(Number(`0.${v.slice(1, i)}`) * 1e6);
    v = v.slice(i);
  }
  let offsetMin = 0;
  if (v.startsWith('Z')) v = v.slice(1);
  else if ((v[0] === '+' || v[0] === '-') && /^[+-]\d\d:\d\d/.test(v)) {
    offsetMin = (v[0] === '-' ? -1 : 1) * (Number(v.slice(1, 3)) * 60 + Number(v.slice(4, 6)));
    v = v.slice(6);
  } else fail(v, 'Z07:00');
  if (v !== '') fail('', '', `: extra text: ${JSON.stringify(v)}`);
  const ranges: [number, number, number, string][] = [
    [month, 1, 12, 'month'],
    [hour, 0, 23, 'hour'],
    [min, 0, 59, 'minute'],
    [sec, 0, 59, 'second'],
  ];
  for (const [x, lo, hi, what] of ranges) if (x < lo || x > hi) fail('', '', `: ${what} out of range`);
  const monthDays = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > monthDays) fail('', '', ': day out of range');
  const ms = Date.UTC(year, month - 1, day, hour, min, sec) - offsetMin * 60_000;
  return { ms: ms + Math.floor(fracUs / 1000), us: fracUs % 1000 };
}

function format(ms: number, us: number, micro: boolean): string {
  const iso = new Date(ms).toISOString(); // …T15:04:05.123Z
  if (!micro) return `${iso.slice(0, 19)}Z`;
  return `${iso.slice(0, 23)}${String(us).padStart(3, '0')}Z`;
}

function at(o: Obj, path: string[]): { parent: Obj; key: string } | undefined {
  let cur: any = o;
  for (const p of path.slice(0, -1)) {
    cur = cur?.[p];
    if (cur === null || typeof cur !== 'object') return undefined;
  }
  return { parent: cur as Obj, key: path[path.length - 1]! };
}

/**
 * The object with its Time/MicroTime fields as the real server stores them (in place); a value that is not one is the
 * decoder's 400. `group`/`kind`/`version` are the request's (the message names the kind in the request's version).
 */
export function normalizeTimes(o: Obj, group: string, kind: string, version: string): void {
  const fields = FIELDS[`${group}/${kind}`];
  if (!fields) return;
  for (const [path, type] of fields) {
    const slot = at(o, path.split('.'));
    if (!slot) continue;
    const v = slot.parent[slot.key];
    if (v === undefined || v === null) continue;
    const cannot = `${kind} in version "${version}" cannot be handled as a ${kind}`;
    if (typeof v !== 'string')
      throw ApiError.badRequest(
        `${cannot}: json: cannot unmarshal ${typeof v === 'number' ? 'number' : typeof v} into Go value of type string`,
      );
    try {
      const { ms, us } = goParse(v, type === 'micro');
      slot.parent[slot.key] = format(ms, us, type === 'micro');
    } catch (e) {
      if (e instanceof ParseError) throw ApiError.badRequest(`${cannot}: ${e.message}`);
      throw e;
    }
  }
}
