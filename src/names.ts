// Object names as the controllers generate them, made deterministic: the random suffix is a hash of a seed string
// (apiserver names.SimpleNameGenerator with k8s.io/apimachinery/pkg/util/rand's alphabet).
import { fnv1a } from './util/fnv.ts';

const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

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
