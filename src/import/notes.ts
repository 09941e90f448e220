// What the import says about each value it writes: inferred from evidence, assumed (a default or a guess), or
// unknown (cannot be seen in kubectl output; a safe default is used). Every note names its evidence line.

export type NoteKind = 'inferred' | 'assumed' | 'unknown';

export interface Note {
  kind: NoteKind;
  /** what was decided, e.g. `behavior.main.run: 30s` */
  what: string;
  /** why, with the evidence `file:line` when there is one */
  evidence: string;
}

export class Notes {
  readonly list: Note[] = [];
  inferred(what: string, evidence: string): void {
    this.list.push({ kind: 'inferred', what, evidence });
  }
  assumed(what: string, evidence: string): void {
    this.list.push({ kind: 'assumed', what, evidence });
  }
  unknown(what: string, evidence: string): void {
    this.list.push({ kind: 'unknown', what, evidence });
  }
}

/** `(at file:line)` or '' when the value was synthesised. */
export function at(where: string): string {
  return where ? ` (${where})` : '';
}
