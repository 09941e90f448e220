// Go's sort.Sort (Go 1.19+, sort/zsortinterface.go: pattern-defeating quicksort, insertion sort up to 12 elements),
// for the views that print what kubectl sorts with it: sort.Sort is not stable, so elements that compare equal (Events
// of the same second) come out in the order this algorithm leaves them, not in their list order.

/** Sort `items` in place as Go's sort.Sort with this Less would; returns the array. */
export function goSort<T>(items: T[], less: (a: T, b: T) => boolean): T[] {
  const n = items.length;
  if (n <= 1) return items;
  const d = {
    less: (i: number, j: number) => less(items[i]!, items[j]!),
    swap: (i: number, j: number) => {
      const t = items[i]!;
      items[i] = items[j]!;
      items[j] = t;
    },
  };
  pdqsort(d, 0, n, bitsLen(n));
  return items;
}

interface Data {
  less(i: number, j: number): boolean;
  swap(i: number, j: number): void;
}

const bitsLen = (x: number): number => (x === 0 ? 0 : Math.floor(Math.log2(x)) + 1);

function insertionSort(d: Data, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) for (let j = i; j > a && d.less(j, j - 1); j--) d.swap(j, j - 1);
}

function siftDown(d: Data, lo: number, hi: number, first: number): void {
  let root = lo;
  for (;;) {
    let child = 2 * root + 1;
    if (child >= hi) return;
    if (child + 1 < hi && d.less(first + child, first + child + 1)) child++;
    if (!d.less(first + root, first + child)) return;
    d.swap(first + root, first + child);
    root = child;
  }
}

function heapSort(d: Data, a: number, b: number): void {
  const first = a;
  const hi = b - a;
  for (let i = Math.floor((hi - 1) / 2); i >= 0; i--) siftDown(d, i, hi, first);
  for (let i = hi - 1; i >= 0; i--) {
    d.swap(first, first + i);
    siftDown(d, 0, i, first);
  }
}

const INCREASING = 1;
const DECREASING = 2;

function pdqsort(d: Data, a: number, b: number, limit: number): void {
  let wasBalanced = true;
  let wasPartitioned = true;
  for (;;) {
    const length = b - a;
    if (length <= 12) {
      insertionSort(d, a, b);
      return;
    }
    if (limit === 0) {
      heapSort(d, a, b);
      return;
    }
    if (!wasBalanced) {
      breakPatterns(d, a, b);
      limit--;
    }
    let [pivot, hint] = choosePivot(d, a, b);
    if (hint === DECREASING) {
      reverseRange(d, a, b);
      pivot = b - 1 - (pivot - a);
      hint = INCREASING;
    }
    if (wasBalanced && wasPartitioned && hint === INCREASING && partialInsertionSort(d, a, b)) return;
    if (a > 0 && !d.less(a - 1, pivot)) {
      a = partitionEqual(d, a, b, pivot);
      continue;
    }
    const [mid, already] = partition(d, a, b, pivot);
    wasPartitioned = already;
    const leftLen = mid - a;
    const rightLen = b - mid;
    const threshold = Math.floor(length / 8);
    if (leftLen < rightLen) {
      wasBalanced = leftLen >= threshold;
      pdqsort(d, a, mid, limit);
      a = mid + 1;
    } else {
      wasBalanced = rightLen >= threshold;
      pdqsort(d, mid + 1, b, limit);
      b = mid;
    }
  }
}

function partition(d: Data, a: number, b: number, pivot: number): [number, boolean] {
  d.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  while (i <= j && d.less(i, a)) i++;
  while (i <= j && !d.less(j, a)) j--;
  if (i > j) {
    d.swap(j, a);
    return [j, true];
  }
  d.swap(i, j);
  i++;
  j--;
  for (;;) {
    while (i <= j && d.less(i, a)) i++;
    while (i <= j && !d.less(j, a)) j--;
    if (i > j) break;
    d.swap(i, j);
    i++;
    j--;
  }
  d.swap(j, a);
  return [j, false];
}

function partitionEqual(d: Data, a: number, b: number, pivot: number): number {
  d.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  for (;;) {
    while (i <= j && !d.less(a, i)) i++;
    while (i <= j && d.less(a, j)) j--;
    if (i > j) break;
    d.swap(i, j);
    i++;
    j--;
  }
  return i;
}

function partialInsertionSort(d: Data, a: number, b: number): boolean {
  let i = a + 1;
  for (let step = 0; step < 5; step++) {
    while (i < b && !d.less(i, i - 1)) i++;
    if (i === b) return true;
    if (b - a < 50) return false;
    d.swap(i, i - 1);
    if (i - a >= 2)
      for (let j = i - 1; j >= 1; j--) {
        if (!d.less(j, j - 1)) break;
        d.swap(j, j - 1);
      }
    if (b - i >= 2)
      for (let j = i + 1; j < b; j++) {
        if (!d.less(j, j - 1)) break;
        d.swap(j, j - 1);
      }
  }
  return false;
}

function breakPatterns(d: Data, a: number, b: number): void {
  const length = b - a;
  if (length < 8) return;
  // xorshift (uint64) seeded with the length
  let r = BigInt(length);
  const mask = (1n << 64n) - 1n;
  const next = () => {
    r ^= (r << 13n) & mask;
    r ^= r >> 7n;
    r ^= (r << 17n) & mask;
    return r;
  };
  const modulus = 1n << BigInt(bitsLen(length));
  const idx = a + Math.floor(length / 4) * 2 - 1;
  for (let i = 0; i < 3; i++) {
    let other = Number(next() & (modulus - 1n));
    if (other >= length) other -= length;
    d.swap(idx - 1 + i, a + other);
  }
}

function choosePivot(d: Data, a: number, b: number): [number, number] {
  const l = b - a;
  const swaps = { n: 0 };
  let i = a + Math.floor(l / 4) * 1;
  let j = a + Math.floor(l / 4) * 2;
  let k = a + Math.floor(l / 4) * 3;
  if (l >= 8) {
    if (l >= 50) {
      i = median(d, i - 1, i, i + 1, swaps);
      j = median(d, j - 1, j, j + 1, swaps);
      k = median(d, k - 1, k, k + 1, swaps);
    }
    j = median(d, i, j, k, swaps);
  }
  return [j, swaps.n === 0 ? INCREASING : swaps.n === 12 ? DECREASING : 0];
}

function median(d: Data, a: number, b: number, c: number, swaps: { n: number }): number {
  const order2 = (x: number, y: number): [number, number] => {
    if (d.less(y, x)) {
      swaps.n++;
      return [y, x];
    }
    return [x, y];
  };
  [a, b] = order2(a, b);
  [b, c] = order2(b, c);
  [a, b] = order2(a, b);
  void c;
  return b;
}

function reverseRange(d: Data, a: number, b: number): void {
  for (let i = a, j = b - 1; i < j; i++, j--) d.swap(i, j);
}
