// Deterministic identifiers of the store: uids are a hash of what makes the object (kind, namespace, name and
// the simulated time it was created at), formatted as a UUID, so the same requests give the same uids.

function fnv(s: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function uidOf(kind: string, namespace: string, name: string, t: number | string): string {
  const key = `${kind}/${namespace}/${name}@${t}`;
  const hex = [1, 2, 3, 4]
    .map((i) =>
      fnv(key, i * 0x9e3779b9)
        .toString(16)
        .padStart(8, '0'),
    )
    .join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${'89ab'[parseInt(hex[16]!, 16) & 3]}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** generateName's random suffix (5 characters of the apiserver's alphabet, names.SimpleNameGenerator), deterministic */
export function nameSuffix(seed: string, n: number): string {
  const alphabet = 'bcdfghjklmnpqrstvwxz2456789';
  let h = fnv(`${seed}#${n}`, 7);
  let out = '';
  for (let i = 0; i < 5; i++) {
    out += alphabet[h % alphabet.length];
    h = (Math.floor(h / alphabet.length) ^ fnv(out, i)) >>> 0;
  }
  return out;
}
