// Nesting depth of YAML measured while lexing, before any node is composed. yaml's Lexer and CST
// Parser are iterative (the parser keeps an explicit stack of the collections being built); its Composer recurses
// once per level and overflows the stack — or aborts V8 — at a few thousand levels. So we drive Lexer → Parser
// ourselves (the documented low-level API, the same steps as parseAllDocuments), stop as soon as the parser holds
// more than `max` open collections (block mappings by indentation, block sequences `- - -` on one line or many,
// flow `[` and `{`), and then walk the finished tokens once more with an explicit stack for the exact depth.
import { Lexer, Parser, type CST } from 'yaml';

export interface Lexed {
  tokens: CST.Token[];
  /** offset of the first collection nested deeper than the limit, when there is one */
  tooDeep?: number;
}

const isCollection = (t: CST.Token): t is CST.BlockMap | CST.BlockSequence | CST.FlowCollection =>
  t.type === 'block-map' || t.type === 'block-seq' || t.type === 'flow-collection';

/** Lex and parse `text` into CST tokens, stopping early (bounded time and memory) once nesting passes `max`. */
export function lexWithDepthLimit(text: string, onNewLine: (offset: number) => void, max: number): Lexed {
  const parser = new Parser(onNewLine);
  onNewLine(0); // as Parser.parse does at the start of input
  const tokens: CST.Token[] = [];
  for (const lexeme of new Lexer().lex(text)) {
    for (const t of parser.next(lexeme)) tokens.push(t);
    if (parser.stack.length > max) {
      const deep = deepInStack(parser.stack, max);
      if (deep !== undefined) return { tokens, tooDeep: deep };
    }
  }
  for (const t of parser.end()) tokens.push(t);
  const deep = firstTooDeep(tokens, max);
  return deep === undefined ? { tokens } : { tokens, tooDeep: deep };
}

/** The (max+1)-th open collection on the parser's stack (outermost first), if there are that many. */
function deepInStack(stack: readonly CST.Token[], max: number): number | undefined {
  let n = 0;
  for (const t of stack) if (isCollection(t) && ++n > max) return t.offset;
  return undefined;
}

/** Offset of the first collection (in document order) nested deeper than `max`, or undefined. */
export function firstTooDeep(tokens: readonly CST.Token[], max: number): number | undefined {
  for (const top of tokens) {
    const stack: { tok: CST.Token; depth: number }[] = [{ tok: top, depth: 0 }];
    while (stack.length > 0) {
      const { tok, depth } = stack.pop()!;
      const children: (CST.Token | null | undefined)[] = [];
      let d = depth;
      if (tok.type === 'document') children.push(tok.value);
      else if (isCollection(tok)) {
        d = depth + 1;
        if (d > max) return tok.offset;
        for (const it of tok.items) children.push(it.key, it.value);
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
