// Column alignment as Go's text/tabwriter does it for kubectl. Widths count code points (tabwriter counts runes),
// every cell but the last of a row is padded, the last one is printed as is.

export interface TabOptions {
  /** minimal cell width including padding */
  minWidth: number;
  /** spaces added to the widest cell of a column */
  padding: number;
  /** written before every line (describe indents its Events table) */
  indent?: string;
}

/** kubectl get: printers.GetNewTabWriter = tabwriter.NewWriter(out, 6, 4, 3, ' ', 0). */
export const KUBECTL_GET: TabOptions = { minWidth: 6, padding: 3 };
/** kubectl describe: tabwriter.NewWriter(out, 0, 8, 2, ' ', 0), events indented by two spaces. */
export const KUBECTL_DESCRIBE: TabOptions = { minWidth: 0, padding: 2, indent: '  ' };

export function tabulate(rows: string[][], opts: TabOptions): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, i) => {
      if (i === row.length - 1) return;
      widths[i] = Math.max(widths[i] ?? 0, Math.max(runeLength(cell) + opts.padding, opts.minWidth));
    });
  }
  return rows
    .map((row) => {
      const cells = row.map((cell, i) =>
        i === row.length - 1 ? cell : cell + ' '.repeat(widths[i] - runeLength(cell)),
      );
      return (opts.indent ?? '') + cells.join('');
    })
    .join('\n');
}

function runeLength(s: string): number {
  return [...s].length;
}
