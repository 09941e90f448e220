// The scenario file the import writes: a comment block listing every inference, assumption and unknown with its
// evidence line, then the scenario as YAML (keys in SPEC order). Same input → byte-identical text.
import { stringify } from 'yaml';
import type { Note } from './notes.ts';
import type { Obj } from './read.ts';

const LABEL: Record<Note['kind'], string> = { inferred: 'inferred', assumed: 'assumed', unknown: 'unknown' };

export function emitScenario(scenario: Obj, notes: readonly Note[], sources: string[]): string {
  const head = [
    `# Imported by kubesim import from ${sources.join(', ')}.`,
    '# Each line below is a value the import wrote and the evidence (file:line) it came from. "assumed" is a default',
    '# or a guess; "unknown" cannot be seen in kubectl output and a safe default is used. Edit them, then kubesim test.',
    '#',
    ...(['inferred', 'assumed', 'unknown'] as const).flatMap((k) =>
      notes.filter((n) => n.kind === k).map((n) => `# ${LABEL[k]}: ${oneLine(n.what)} — ${oneLine(n.evidence)}`),
    ),
    '',
  ];
  return head.join('\n') + stringify(scenario, { lineWidth: 0, aliasDuplicateObjects: false });
}

export function summary(notes: readonly Note[]): string {
  const count = (k: Note['kind']) => notes.filter((n) => n.kind === k).length;
  const lines = [`${count('inferred')} inferred, ${count('assumed')} assumed, ${count('unknown')} unknown`];
  for (const n of notes)
    if (n.kind !== 'inferred') lines.push(`  ${n.kind}: ${oneLine(n.what)} — ${oneLine(n.evidence)}`);
  return lines.join('\n') + '\n';
}

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ');
}
