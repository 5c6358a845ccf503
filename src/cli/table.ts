// A plain text table for the terminal: every cell made safe (one line, no escapes) and cut to a readable width,
// columns padded by display width (CJK and emoji take two columns).

import { terminalLine } from './terminal-text.js';
import { displayWidth, fitWidth, padWidth } from './terminal-width.js';

/** Widest a cell may be before it is cut with "…". */
const CELL_WIDTH = 60;

export function renderTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = rows.map((row) => row.map((cell) => fitWidth(terminalLine(cell), CELL_WIDTH)));
  const widths = header.map((name, i) =>
    Math.max(displayWidth(name), ...cells.map((row) => displayWidth(row[i] ?? ''))),
  );
  const line = (row: readonly string[]): string =>
    row
      .map((cell, i) => padWidth(cell, widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...cells.map(line)].join('\n');
}
