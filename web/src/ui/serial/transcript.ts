// A connection's output as a terminal transcript marks it (curl -v's convention): "> " what
// was sent, "< " what came back, "* " what the connection did. The mark is part of the text,
// so it reads the same on a projector, in a copied transcript and to a screen reader;
// the colour (serial.css) only repeats it.

export const MARK_SENT = '> ';
export const MARK_RECEIVED = '< ';
export const MARK_INFO = '* ';

export const TRANSCRIPT_KEY = '> sent, < received, * the connection';

/** The CSS class of a transcript line, by its mark. */
export function markClass(line: string): string | null {
  if (line.startsWith(MARK_SENT)) return 'line-sent';
  if (line.startsWith(MARK_RECEIVED)) return 'line-received';
  if (line.startsWith(MARK_INFO)) return 'line-info';
  return null;
}

export interface Transcript {
  lines: string[];
  /** the last line is received text whose newline has not come yet: more text continues it */
  open: boolean;
}

/** Adds a line that is not received text (sent, or about the connection). */
export function addLine(t: Transcript, line: string): Transcript {
  return { lines: [...t.lines, line], open: false };
}

/** Adds received text: one "< " line per line of it, "\r\n" or "\n" ending each; the text
 *  after the last newline stays open, and the next received text goes on with it (a line
 *  may come in several segments, or several lines in one). */
export function addReceived(t: Transcript, text: string): Transcript {
  if (text === '') return t;
  const parts = text.split(/\r?\n/);
  const lines = [...t.lines];
  const first = parts.shift()!;
  if (t.open) lines[lines.length - 1] += first;
  else lines.push(MARK_RECEIVED + first);
  for (const p of parts) lines.push(MARK_RECEIVED + p);
  const open = parts.length === 0 || parts[parts.length - 1] !== '';
  if (!open) lines.pop(); // the text ended with its newline: no line begun after it
  return { lines, open };
}
