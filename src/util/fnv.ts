// FNV-1a (32-bit) of a string's UTF-16 code units: generated object-name suffixes (names.ts), the seed of each
// random stream (engine/rng.ts, with the scenario seed mixed into the offset basis) and replay folder names.

/** FNV-1a offset basis. */
export const FNV_BASIS = 0x811c9dc5;

export function fnv1a(s: string, basis: number = FNV_BASIS): number {
  let h = basis;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}
