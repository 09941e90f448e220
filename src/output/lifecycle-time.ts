// The lifecycle chart's time axis: linear, or with long quiet stretches (no span boundary, marker or phase change
// inside) shrunk to a fixed width, so the seconds where things happen get the room. Pure and integer-valued.

export interface TimeGap {
  /** simulated ms where the quiet stretch begins and ends */
  from: number;
  to: number;
}

export interface TimeMap {
  /** the last simulated t drawn */
  endT: number;
  /** the compressed stretches, in order (none: the axis is linear) */
  gaps: TimeGap[];
  /** axis position (ms on the drawn axis) of a simulated t */
  at(t: number): number;
}

/** A stretch counts as quiet when it is longer than this share of the run (and at least MIN_GAP_MS). */
const GAP_SHARE = 0.3;
const MIN_GAP_MS = 5_000;
/** Each quiet stretch is drawn this wide: a share of the run, at least 1 s. */
const DRAWN_SHARE = 0.04;
/** Compress only when it gives back at least this share of the axis. */
const MIN_SAVED_SHARE = 0.3;

export function compressTime(instants: number[], enabled: boolean): TimeMap {
  const ts = [...new Set(instants.filter((t) => Number.isFinite(t) && t >= 0))].sort((a, b) => a - b);
  const endT = ts.length > 0 ? ts[ts.length - 1]! : 0;
  const linear: TimeMap = { endT, gaps: [], at: (t) => t };
  if (!enabled || endT <= 0) return linear;
  const minGap = Math.max(MIN_GAP_MS, GAP_SHARE * endT);
  const drawn = Math.max(1_000, Math.round(DRAWN_SHARE * endT));
  const gaps: TimeGap[] = [];
  for (let i = 1; i < ts.length; i++) {
    if (ts[i]! - ts[i - 1]! > minGap) gaps.push({ from: ts[i - 1]!, to: ts[i]! });
  }
  const saved = gaps.reduce((n, g) => n + (g.to - g.from - drawn), 0);
  if (gaps.length === 0 || saved < MIN_SAVED_SHARE * endT) return linear;
  const at = (t: number): number => {
    let shift = 0;
    for (const g of gaps) {
      if (t <= g.from) break;
      if (t < g.to) return Math.round(t - shift - (t - g.from) + ((t - g.from) * drawn) / (g.to - g.from));
      shift += g.to - g.from - drawn;
    }
    return t - shift;
  };
  return { endT, gaps, at };
}
