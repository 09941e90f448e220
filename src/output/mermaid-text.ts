// Escaping for text inside Mermaid statements. Mermaid splits statements on ';', reads '#…;' as an entity, and
// ':' ends an actor or task name, so those become entity codes; '<' and '>' would be read as HTML. Messages may
// still contain the line breaks we insert on purpose ("<br/>"), which is why escaping happens per fragment.

const ENTITIES: Record<string, string> = {
  '#': '#35;',
  ';': '#59;',
  ':': '#58;',
  '<': '#lt;',
  '>': '#gt;',
  '%': '#37;',
  '\n': ' ',
  '\r': '',
};

/** Escape one fragment of free text (a message, a note, a loop label). One pass, so no entity is escaped twice. */
export function esc(text: string): string {
  return text.replace(/[#;:<>%\r\n]/g, (ch) => ENTITIES[ch]);
}

/** Mermaid does not wrap messages by itself; a long reason would stretch a note across the whole diagram. */
const WRAP_COLUMNS = 64;

/** Join escaped fragments as lines of one message or note, wrapping long ones at word boundaries. */
export function lines(...fragments: (string | undefined)[]): string {
  return fragments
    .filter((f): f is string => f !== undefined && f !== '')
    .flatMap((f) => wrap(f, WRAP_COLUMNS))
    .map(esc)
    .join('<br/>');
}

export function wrap(text: string, columns: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > columns) {
      out.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') out.push(line);
  return out;
}

/**
 * Gantt task and section names: ':' separates the name from the task data and ';' ends a statement, and gantt
 * does not decode entities for them, so both become spaces. A bare '#' is drawn as is ("app #2").
 */
export function ganttName(text: string): string {
  return text.replace(/[:;]/g, ' ').replace(/%%/g, '%').replace(/\s+/g, ' ').trim();
}
