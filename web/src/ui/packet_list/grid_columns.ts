// The packet list's columns, Wireshark's plus the stack's, and which of them fit the pane.
// On a projector (17 px type in a 660 px pane) not all eight fit: rather than scroll the
// list sideways and push "Stack says" off the screen, columns give way in a fixed order
// that keeps No., Info and Stack says, the three a class reads.

export const COLUMNS = ['No.', 'Time', 'Source', 'Destination', 'Protocol', 'Length', 'Info', 'Stack says'] as const;
export type Column = (typeof COLUMNS)[number];

/** Which columns give way first when the pane is narrow; the others always stay. Protocol
 *  stays long: an Info of "Request" means little without "ECHO" beside it; Time stays
 *  longest, the class asks "when will the timer fire?". */
export const GIVE_WAY: readonly Column[] = ['Length', 'Destination', 'Source', 'Protocol', 'Time'];

/** Width of a digit in the list's proportional type with tabular figures, in em, and the
 *  cell's padding (5 px each side at 13 px type). */
const DIGIT_EM = 0.64;
const PAD_EM = 0.8;

export interface ColumnFit {
  columns: Column[];
  /** grid-template-columns for the columns shown */
  template: string;
  /** the columns that did not fit */
  hidden: Column[];
}

/** Minimum widths in em; Info and Stack says take what is left, in proportion. */
function widthsEm(noDigits: number, timeDigits: number): Record<Column, number> {
  return {
    'No.': noDigits * DIGIT_EM + PAD_EM,
    Time: timeDigits * DIGIT_EM + PAD_EM,
    Source: 8,
    Destination: 8,
    Protocol: 5.4,
    Length: 4.6,
    Info: 12,
    'Stack says': 12,
  };
}

const GROW: Partial<Record<Column, string>> = { Info: '1fr', 'Stack says': '0.8fr' };

/** The columns that fit `widthPx` at `fontPx` type, and the grid template for them.
 *  `noDigits` and `timeDigits` are the lengths of the longest No. and Time texts. */
export function fitColumns(widthPx: number, fontPx: number, noDigits: number, timeDigits: number): ColumnFit {
  const em = widthsEm(Math.max(3, noDigits), Math.max(4, timeDigits));
  const shown = new Set<Column>(COLUMNS);
  const total = () => [...shown].reduce((sum, c) => sum + em[c], 0) * fontPx;
  const hidden: Column[] = [];
  for (const c of GIVE_WAY) {
    if (total() <= widthPx) break;
    shown.delete(c);
    hidden.push(c);
  }
  const columns = COLUMNS.filter((c) => shown.has(c));
  const template = columns.map((c) => (GROW[c] ? `minmax(${em[c]}em, ${GROW[c]})` : `${em[c]}em`)).join(' ');
  return { columns, template, hidden };
}
