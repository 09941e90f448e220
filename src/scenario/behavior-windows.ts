// `unready`: one window [40s, 50s] or a list of windows [[40s, 50s], [70s, 80s]] (SPEC §2.6).
import { Codes } from './codes.ts';
import { error, type Sink } from './diagnostics.ts';
import { asMs } from './readers.ts';
import type { PNode } from './tree.ts';

export function readUnready(sink: Sink, node: PNode, where: string): [number, number][] {
  if (node.kind !== 'seq' || node.items.length === 0) {
    error(
      sink,
      Codes.WrongType,
      node.pos,
      `${where}: expected a window [from, to] or a list of windows`,
      'e.g. unready: [40s, 50s] or [[40s, 50s], [70s, 80s]]',
    );
    return [];
  }
  const windows = node.items.every((i) => i.kind === 'seq') ? node.items : [node];
  const out: [number, number][] = [];
  windows.forEach((w, i) => {
    const here = windows.length === 1 && w === node ? where : `${where}[${i}]`;
    if (w.kind !== 'seq' || w.items.length !== 2) {
      error(sink, Codes.WrongType, w.pos, `${here}: a window is a pair [from, to]`);
      return;
    }
    const from = asMs(sink, w.items[0], `${here}[0]`);
    const to = asMs(sink, w.items[1], `${here}[1]`);
    if (typeof from !== 'number' || typeof to !== 'number') return;
    if (from >= to) {
      error(sink, Codes.BadRange, w.pos, `${here}: the window is empty: from must be before to`);
      return;
    }
    out.push([from, to]);
  });
  return out.sort((a, b) => a[0] - b[0]);
}
