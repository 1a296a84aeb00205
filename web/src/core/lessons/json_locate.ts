// Where a field is in a JSON file, as line and column: a bad lesson's message points at the
// text the teacher wrote, not only at its path. JSON.parse keeps no positions, so this walks
// the (already parsed, hence valid) text once.

import type { PathSegment } from '../scenarios/errors.ts';

export interface TextPosition {
  line: number;
  column: number;
}

/** The position of the value at `path` (['steps', 2, 'at']), or of the deepest part of the
 *  path that exists (a missing field: its object). Null if the text is not JSON. */
export function locateJsonPath(text: string, path: readonly PathSegment[]): TextPosition | null {
  const at = { i: 0 };
  try {
    return position(text, find(text, at, path));
  } catch {
    return null;
  }
}

function find(text: string, at: { i: number }, path: readonly PathSegment[]): number {
  skipSpace(text, at);
  const start = at.i;
  if (path.length === 0) return start;
  const [want, ...rest] = path;
  const open = text[at.i];
  if (open !== '{' && open !== '[') return start;
  at.i++;
  for (let index = 0; ; index++) {
    skipSpace(text, at);
    if (text[at.i] === '}' || text[at.i] === ']') return start;
    let key: PathSegment = index;
    if (open === '{') {
      key = readString(text, at);
      skipSpace(text, at);
      at.i++; // ':'
    }
    if (key === want) return find(text, at, rest);
    skipValue(text, at);
    skipSpace(text, at);
    if (text[at.i] === ',') at.i++;
  }
}

function skipSpace(text: string, at: { i: number }): void {
  while (at.i < text.length && ' \t\r\n'.includes(text[at.i]!)) at.i++;
}

function readString(text: string, at: { i: number }): string {
  const start = at.i;
  for (at.i++; at.i < text.length && text[at.i] !== '"'; at.i++) if (text[at.i] === '\\') at.i++;
  at.i++;
  return JSON.parse(text.slice(start, at.i)) as string;
}

function skipValue(text: string, at: { i: number }): void {
  skipSpace(text, at);
  const c = text[at.i];
  if (c === '"') {
    readString(text, at);
  } else if (c === '{' || c === '[') {
    let depth = 0;
    do {
      const d = text[at.i];
      if (d === '"') {
        readString(text, at);
        continue;
      }
      if (d === '{' || d === '[') depth++;
      if (d === '}' || d === ']') depth--;
      at.i++;
    } while (depth > 0);
  } else {
    while (at.i < text.length && !',}] \t\r\n'.includes(text[at.i]!)) at.i++;
  }
  if (at.i > text.length) throw new Error('unterminated');
}

function position(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}
