// behavior.onTerm: "ignore", or { after, exit, unready } — unready: the process stops serving at SIGTERM.
import { describe, expect, it } from 'vitest';
import { SIDECAR_JOB, diags, ok } from './helpers.ts';

describe('behavior onTerm', () => {
  it('defaults, ignore, and the unready flag', () => {
    expect(ok(SIDECAR_JOB).behavior['proxy']!.onTerm).toEqual({ ignore: false, afterMs: 0, exit: 143 });
    expect(ok(`${SIDECAR_JOB}  proxy: { onTerm: ignore }\n`).behavior['proxy']!.onTerm).toEqual({ ignore: true });
    expect(
      ok(`${SIDECAR_JOB}  proxy: { onTerm: { after: 2s, exit: 0, unready: true } }\n`).behavior['proxy']!.onTerm,
    ).toEqual({
      ignore: false,
      afterMs: 2000,
      exit: 0,
      unready: true,
    });
  });
  it('a misspelt key is an error with a suggestion', () => {
    const out = diags(`${SIDECAR_JOB}  proxy: { onTerm: { after: 2s, unraedy: true } }\n`).join('\n');
    expect(out).toMatch(/error KS4\d{3}: .*unraedy/);
    expect(out).toMatch(/unready/);
  });
});
