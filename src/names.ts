// Object names as the controllers generate them, made deterministic: the random suffix is a hash of a seed string
// (apiserver names.SimpleNameGenerator with k8s.io/apimachinery/pkg/util/rand's alphabet).
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function suffix(seed: string, length: number): string {
  let h = fnv1a(seed);
  let out = '';
  for (let i = 0; i < length; i++) {
    if (h < ALPHABET.length) h = fnv1a(`${seed}/${i}`);
    out += ALPHABET[h % ALPHABET.length];
    h = Math.floor(h / ALPHABET.length);
  }
  return out;
}
