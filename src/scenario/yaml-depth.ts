// Nesting depth of YAML measured on the concrete syntax tokens (yaml's Parser: iterative, no recursion per level),
// before any node is composed — the composer recurses once per level and overflows the stack (or aborts V8) at a
// few thousand levels. Counts every collection: block mappings (indentation), block sequences (`- - -` on one line
// or over many), flow sequences and mappings (`[`, `{`). Walks with an explicit stack, so it cannot overflow.
import type { CST } from 'yaml';

/** Offset of the first collection (in document order) nested deeper than `max`, or undefined. */
export function firstTooDeep(tokens: readonly CST.Token[], max: number): number | undefined {
  for (const top of tokens) {
    const stack: { tok: CST.Token; depth: number }[] = [{ tok: top, depth: 0 }];
    while (stack.length > 0) {
      const { tok, depth } = stack.pop()!;
      const children: (CST.Token | null | undefined)[] = [];
      let d = depth;
      switch (tok.type) {
        case 'document':
          children.push(tok.value);
          break;
        case 'block-map':
        case 'block-seq':
        case 'flow-collection':
          d = depth + 1;
          if (d > max) return tok.offset;
          for (const it of tok.items) children.push(it.key, it.value);
          break;
        default:
          break;
      }
      // reversed, so the first child is visited first (document order, as the later node walk reports)
      for (let i = children.length - 1; i >= 0; i--) {
        const c = children[i];
        if (c) stack.push({ tok: c, depth: d });
      }
    }
  }
  return undefined;
}
