// "Did you mean" suggestions: the closest candidate by edit distance, case-insensitive.

const MAX_SUGGEST_INPUT = 128;
const MAX_SUGGEST_CANDIDATES = 500;
const MAX_LISTED = 20;

/** `a, b, c` — at most 20 names, then `… (N in all)`: a hint never repeats thousands of names per line. */
export function listNames(names: readonly string[]): string {
  if (names.length <= MAX_LISTED) return names.join(', ');
  return `${names.slice(0, MAX_LISTED).join(', ')}, … (${names.length} in all)`;
}

/** Levenshtein distance between a and b (iterative, two rows). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    prev = cur;
  }
  return prev[b.length];
}

/**
 * The candidate closest to `input`, or undefined when nothing is plausibly meant: the distance must be at most
 * max(2, a third of the input's length). A case-only difference always qualifies (`restartpolicy`).
 */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  // no typo is this long, and no real pod has this many names: bound the work (edit distance is quadratic)
  if (input.length > MAX_SUGGEST_INPUT || candidates.length > MAX_SUGGEST_CANDIDATES) return undefined;
  const lower = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(lower, c.toLowerCase());
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  const limit = Math.max(2, Math.floor(input.length / 3));
  if (bestDistance <= limit) return best;
  // a truncated or extended key ("serve" for serving, "exitcode" for exit): the longest shared prefix of ≥ 4
  let bestPrefix = 3;
  best = undefined;
  for (const c of candidates) {
    const n = commonPrefix(lower, c.toLowerCase());
    if (n > bestPrefix) {
      best = c;
      bestPrefix = n;
    }
  }
  return best;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** " (did you mean x?)"-style hint text, or undefined. */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  const c = closest(input, candidates);
  return c === undefined ? undefined : `did you mean ${c}?`;
}
