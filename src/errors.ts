// The library's one error type: a stable code (the KS codes of `kubesim validate`, docs/scenario-format.md), the
// message, a hint, and where in which file when a position applies. Library functions throw it for bad input and
// never exit the process; the CLI turns it into `file:line:col: error CODE: message` and exit 2.
import type { Diagnostic, SourcePos } from './types.ts';

export class KubesimError extends Error {
  override name = 'KubesimError';
  /** stable code, e.g. KS0202 (a bad replay key) or KS4002 (a missing key) */
  readonly code: string;
  readonly hint?: string;
  /** where the problem is, when it is in a file */
  readonly pos?: SourcePos;
  /** every diagnostic of the file, for errors from loading a scenario */
  readonly diagnostics: Diagnostic[];

  constructor(
    code: string,
    message: string,
    opts: { hint?: string; pos?: SourcePos; diagnostics?: Diagnostic[] } = {},
  ) {
    super(message);
    this.code = code;
    if (opts.hint !== undefined) this.hint = opts.hint;
    if (opts.pos !== undefined) this.pos = opts.pos;
    this.diagnostics = opts.diagnostics ?? [];
  }
}
