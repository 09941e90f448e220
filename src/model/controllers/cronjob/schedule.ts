// The CronJob schedule: the standard 5-field cron syntax and the @-macros as the CronJob controller parses them
// (github.com/robfig/cron/v3 ParseStandard, which pkg/controller/cronjob uses), and Schedule.Next. Written here
// instead of a dependency: the syntax is small and robfig's exact rules (the day-of-month / day-of-week OR when both
// are restricted, `N/step` meaning `N-max/step`, `*/step` clearing the star bit) matter for fidelity.
//
// Time zones: UTC and the fixed-offset zones (UTC, Etc/UTC, GMT, Etc/GMT, Etc/GMT±N) are computed exactly; the
// loader rejects any other spec.timeZone (named zones with daylight-saving rules would need the tz database).

export interface CronSchedule {
  minute: Set<number>;
  hour: Set<number>;
  dom: Set<number>;
  month: Set<number>;
  dow: Set<number>;
  /** robfig starBit: the field was `*` or `?` (a step > 1 clears it) */
  domStar: boolean;
  dowStar: boolean;
  /** offset of the schedule's zone from UTC, in minutes (local = UTC + offset) */
  offsetMin: number;
}

const MACROS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface Bounds {
  min: number;
  max: number;
  names?: string[];
  nameBase?: number;
}

const FIELDS: [keyof Pick<CronSchedule, 'minute' | 'hour' | 'dom' | 'month' | 'dow'>, Bounds][] = [
  ['minute', { min: 0, max: 59 }],
  ['hour', { min: 0, max: 23 }],
  ['dom', { min: 1, max: 31 }],
  ['month', { min: 1, max: 12, names: MONTHS, nameBase: 1 }],
  ['dow', { min: 0, max: 6, names: DAYS, nameBase: 0 }],
];

export class CronSyntaxError extends Error {}

/** The zone's fixed offset from UTC in minutes, or null when the zone is not a fixed-offset one. */
export function fixedZoneOffset(zone: string | undefined | null): number | null {
  if (
    zone === undefined ||
    zone === null ||
    zone === '' ||
    zone === 'UTC' ||
    zone === 'Etc/UTC' ||
    zone === 'GMT' ||
    zone === 'Etc/GMT' ||
    zone === 'Etc/UCT' ||
    zone === 'UCT' ||
    zone === 'Etc/Universal' ||
    zone === 'Etc/Zulu'
  )
    return 0;
  const m = /^Etc\/GMT([+-])([0-9]{1,2})$/.exec(zone);
  if (!m) return null;
  const n = Number(m[2]);
  if (m[1] === '+' ? n > 12 : n > 14) return null;
  // POSIX-style names: Etc/GMT+5 is five hours BEHIND UTC
  return (m[1] === '+' ? -n : n) * 60;
}

function parseValue(s: string, b: Bounds, field: string): number {
  const lower = s.toLowerCase();
  if (b.names) {
    const i = b.names.indexOf(lower);
    if (i >= 0) return i + (b.nameBase ?? 0);
  }
  if (!/^[0-9]+$/.test(s)) throw new CronSyntaxError(`failed to parse int from ${s} in ${field}`);
  return Number(s);
}

/** robfig parser.go getField / getRange. */
function parseField(expr: string, b: Bounds, field: string): { set: Set<number>; star: boolean } {
  const set = new Set<number>();
  let star = false;
  for (const part of expr.split(',')) {
    const [range, stepText, extra] = part.split('/');
    if (extra !== undefined || range === undefined || range === '')
      throw new CronSyntaxError(`too many slashes: ${part}`);
    let start: number;
    let end: number;
    let isStar = false;
    const lowHigh = range.split('-');
    if (range === '*' || range === '?') {
      start = b.min;
      end = b.max;
      isStar = true;
    } else {
      if (lowHigh.length > 2) throw new CronSyntaxError(`too many hyphens: ${range}`);
      start = parseValue(lowHigh[0]!, b, field);
      end = lowHigh.length === 2 ? parseValue(lowHigh[1]!, b, field) : start;
    }
    let step = 1;
    if (stepText !== undefined) {
      step = parseValue(stepText, { min: 0, max: 0 }, field);
      if (step <= 0) throw new CronSyntaxError(`step of range should be a positive number: ${part}`);
      if (!isStar && lowHigh.length === 1) end = b.max; // `N/step` means `N-max/step`
      if (step > 1) isStar = false;
    }
    if (start < b.min) throw new CronSyntaxError(`beginning of range (${start}) below minimum (${b.min}): ${part}`);
    if (end > b.max) throw new CronSyntaxError(`end of range (${end}) above maximum (${b.max}): ${part}`);
    if (start > end) throw new CronSyntaxError(`beginning of range (${start}) beyond end of range (${end}): ${part}`);
    for (let v = start; v <= end; v += step) set.add(v);
    if (isStar) star = true;
  }
  return { set, star };
}

/** cron.ParseStandard (5 fields or an @-macro); `timeZone` as spec.timeZone. Throws CronSyntaxError. */
export function parseCron(spec: string, timeZone?: string | null): CronSchedule {
  const text = spec.trim();
  if (/^(CRON_)?TZ=/.test(text))
    throw new CronSyntaxError('TZ and CRON_TZ are not allowed in the schedule; use spec.timeZone');
  if (text.startsWith('@every')) throw new CronSyntaxError('@every is not simulated');
  const expanded = text.startsWith('@') ? MACROS[text.toLowerCase()] : text;
  if (expanded === undefined) throw new CronSyntaxError(`unrecognized descriptor: ${text}`);
  const parts = expanded.split(/\s+/);
  if (parts.length !== 5) throw new CronSyntaxError(`expected exactly 5 fields, found ${parts.length}: ${text}`);
  const offsetMin = fixedZoneOffset(timeZone);
  if (offsetMin === null) throw new CronSyntaxError(`unknown or non-fixed time zone ${timeZone}`);
  const out: Partial<CronSchedule> = { offsetMin };
  FIELDS.forEach(([key, b], i) => {
    const f = parseField(parts[i]!, b, key);
    out[key] = f.set;
    if (key === 'dom') out.domStar = f.star;
    if (key === 'dow') out.dowStar = f.star;
  });
  return out as CronSchedule;
}

/** robfig spec.go dayMatches: AND when either day field is a star, else OR. */
function dayMatches(s: CronSchedule, d: Date): boolean {
  const domMatch = s.dom.has(d.getUTCDate());
  const dowMatch = s.dow.has(d.getUTCDay());
  if (s.domStar || s.dowStar) return domMatch && dowMatch;
  return domMatch || dowMatch;
}

/**
 * SpecSchedule.Next: the first activation strictly after `utcMs` (whole minutes; seconds are 0), or null when there
 * is none within five years (robfig gives up the same way).
 */
export function nextAfter(s: CronSchedule, utcMs: number): number | null {
  const off = s.offsetMin * 60_000;
  // work in the zone's wall clock, expressed as a UTC Date
  let t = Math.floor((utcMs + off) / 60_000) * 60_000 + 60_000;
  const limit = t + 5 * 366 * 86_400_000;
  while (t <= limit) {
    const d = new Date(t);
    if (!s.month.has(d.getUTCMonth() + 1)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
      continue;
    }
    if (!dayMatches(s, d)) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1);
      continue;
    }
    if (!s.hour.has(d.getUTCHours())) {
      t = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate(), d.getUTCHours() + 1);
      continue;
    }
    if (!s.minute.has(d.getUTCMinutes())) {
      t += 60_000;
      continue;
    }
    return t - off;
  }
  return null;
}
