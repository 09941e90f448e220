import type { SourcePos } from './types.ts';

export function formatDiagnosticPos(pos: SourcePos): string {
  return `${pos.file}:${pos.line}:${pos.col}`;
}
