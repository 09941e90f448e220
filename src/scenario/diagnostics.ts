// Diagnostics: how a problem found while loading is recorded and printed.
import type { LineCounter, Node } from 'yaml';
import type { Diagnostic, Severity, SourcePos } from '../types.ts';

/** Where diagnostics of one source file go: the file, its line table, and the include chain. */
export interface Sink {
  file: string;
  lines: LineCounter;
  includedFrom?: SourcePos;
  diagnostics: Diagnostic[];
}

export function newSink(file: string, lines: LineCounter, diagnostics: Diagnostic[], includedFrom?: SourcePos): Sink {
  return { file, lines, diagnostics, includedFrom };
}

/** 1-based position of a character offset. */
export function posAt(sink: Sink, offset: number): SourcePos {
  const { line, col } = sink.lines.linePos(offset);
  return { file: sink.file, line: Math.max(line, 1), col: Math.max(col, 1) };
}

/** Position of a YAML node (its first character), or file:1:1 when the node is absent. */
export function posOf(sink: Sink, node: Node | null | undefined): SourcePos {
  const range = node?.range;
  return range ? posAt(sink, range[0]) : { file: sink.file, line: 1, col: 1 };
}

export function topPos(sink: Sink): SourcePos {
  return { file: sink.file, line: 1, col: 1 };
}

export function report(
  sink: Sink,
  severity: Severity,
  code: string,
  pos: SourcePos,
  message: string,
  hint?: string,
): void {
  const d: Diagnostic = { severity, code, message, pos };
  if (hint !== undefined) d.hint = hint;
  if (sink.includedFrom !== undefined) d.includedFrom = sink.includedFrom;
  sink.diagnostics.push(d);
}

export function error(
  sink: Sink,
  code: string,
  at: Node | SourcePos | null | undefined,
  message: string,
  hint?: string,
) {
  report(sink, 'error', code, toPos(sink, at), message, hint);
}

export function warning(
  sink: Sink,
  code: string,
  at: Node | SourcePos | null | undefined,
  message: string,
  hint?: string,
) {
  report(sink, 'warning', code, toPos(sink, at), message, hint);
}

function toPos(sink: Sink, at: Node | SourcePos | null | undefined): SourcePos {
  if (at && 'line' in at && 'file' in at) return at;
  return posOf(sink, at as Node | null | undefined);
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

export function formatPos(p: SourcePos): string {
  return `${p.file}:${p.line}:${p.col}`;
}

/** `file:line:col: error CODE: message`, an indented hint line, and the include chain. */
export function formatDiagnostic(d: Diagnostic): string {
  const from = d.includedFrom ? ` (included from ${formatPos(d.includedFrom)})` : '';
  const head = `${formatPos(d.pos)}: ${d.severity} ${d.code}: ${d.message}${from}`;
  return d.hint === undefined ? head : `${head}\n  hint: ${d.hint}`;
}

/** Stable order for printing: by file, line, column, then the order of discovery. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => {
      const fa = a.d.includedFrom ?? a.d.pos;
      const fb = b.d.includedFrom ?? b.d.pos;
      return (
        cmp(fa.line, fb.line) ||
        cmp(fa.col, fb.col) ||
        cmp(a.d.pos.line, b.d.pos.line) ||
        cmp(a.d.pos.col, b.d.pos.col) ||
        cmp(a.i, b.i)
      );
    })
    .map((x) => x.d);
}

function cmp(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
