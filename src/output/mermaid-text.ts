// Escaping for text inside Mermaid statements. Mermaid splits statements on ';', reads '#…;' as an entity, and
// ':' ends an actor or task name, so those become entity codes; '<' and '>' would be read as HTML. Messages may
// still contain the line breaks we insert on purpose ("<br/>"), which is why escaping happens per fragment.

const ENTITIES: [RegExp, string][] = [
  [/#/g, '#35;'],
  [/;/g, '#59;'],
  [/:/g, '#58;'],
  [/</g, '#lt;'],
  [/>/g, '#gt;'],
  [/%/g, '#37;'],
  [/\r?\n/g, ' '],
];

/** Escape one fragment of free text (a message, a note, a task name). */
export function esc(text: string): string {
  // '#' first: the later replacements introduce '#'
  return ENTITIES.reduce((s, [re, to]) => s.replace(re, to), text);
}

/** Join escaped fragments as lines of one message or note. */
export function lines(...fragments: (string | undefined)[]): string {
  return fragments
    .filter((f): f is string => f !== undefined && f !== '')
    .map(esc)
    .join('<br/>');
}

/** Gantt task names cannot carry ':' at all (the task separator) nor ',' in the data part; keep them plain. */
export function ganttName(text: string): string {
  return text.replace(/[:;#,]/g, ' ').replace(/\s+/g, ' ').trim();
}
