// A scenario file's text read as the engine reads it (wasm/api/json.c): RFC 8259 and
// nothing more, the same refusals in the same words at the same line and column, with the
// path of the value being read. JSON.parse alone would take what the engine refuses (a key
// written twice, a lone \ud800), and says where it stopped in words that change with the
// version of V8, without the field. The positions of every value are kept, so a field's
// error names its place in the file (locatePath).

import { formatPath, type PathSegment } from './errors.ts';

/** json.h's JSON_MAX_DEPTH and JSON_MAX_MEMBERS. */
export const JSON_MAX_DEPTH = 64;
export const JSON_MAX_MEMBERS = 256;

export interface TextPosition {
  line: number;
  column: number;
}

/** Where the reader stopped: the path of the value it was reading ("" for the document). */
export interface JsonFailure extends TextPosition {
  path: string;
  message: string;
}

/** A value's place in the text: its first character (a string's opening quote), and, for
 *  an object or an array, its members or elements. */
export interface JsonNode {
  at: number;
  kids: Map<PathSegment, JsonNode> | null;
  array: boolean;
}

/** A text that reads: its value and where each part of it is. */
export interface JsonDoc {
  text: string;
  value: unknown;
  root: JsonNode;
}

export type JsonRead = { ok: true; doc: JsonDoc } | { ok: false; error: JsonFailure };

const NON_FINITE = 'NaN and Infinity are not numbers in JSON';
const NUL = 'NUL byte (UTF-16 text?); JSON text is UTF-8';

class Stop extends Error {}

interface Frame {
  node: JsonNode;
  /** its place in the enclosing container; null for the document */
  seg: PathSegment | null;
  keys: Set<string>;
  size: number;
}

type State = 'value' | 'after' | 'key';

/** Reads `text` (a string: already decoded; see readJsonBytes for a file's bytes). At most
 *  `maxTokens` values and keys, as the engine's token array holds. */
export function readJson(text: string, maxTokens = Infinity): JsonRead {
  const encoding = textEncodingProblem(text);
  if (encoding) return { ok: false, error: { path: '', message: encoding.message, ...lineColumn(text, encoding.at) } };
  const r = new Reader(text, maxTokens);
  try {
    return { ok: true, doc: { text, value: r.read(), root: r.root! } };
  } catch (e) {
    if (e instanceof Stop) return { ok: false, error: r.failure! };
    throw e;
  }
}

/** Reads a file's bytes: the encoding first, byte by byte as json.c's check_encoding() does
 *  (RFC 8259 8.1: a UTF-16 file or a byte order mark is named, not misread), then the text. */
export function readJsonBytes(bytes: Uint8Array, maxTokens = Infinity): JsonRead {
  const problem = byteEncodingProblem(bytes);
  if (problem) return { ok: false, error: { path: '', message: problem.message, ...byteLineColumn(bytes, problem.at) } };
  return readJson(new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes), maxTokens);
}

function byteEncodingProblem(b: Uint8Array): { at: number; message: string } | null {
  if (b.length >= 2 && ((b[0] === 0xff && b[1] === 0xfe) || (b[0] === 0xfe && b[1] === 0xff)))
    return { at: 0, message: 'UTF-16 text (it starts with a UTF-16 byte order mark); JSON text is UTF-8' };
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return { at: 0, message: 'byte order mark is not allowed' };
  for (let i = 0; i < b.length;) {
    if (b[i] === 0) return { at: i, message: NUL };
    const n = b[i]! < 0x80 ? 1 : utf8Length(b, i);
    if (n === 0) return { at: i, message: 'invalid UTF-8' };
    i += n;
  }
  return null;
}

// RFC 3629 section 4's table, as json.c's utf8_len(): the length of the well-formed
// sequence at b[i], or 0.
function utf8Length(b: Uint8Array, i: number): number {
  const c = b[i]!;
  const n = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
  if (n === 0 || i + n > b.length) return 0;
  const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80;
  const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf;
  if (b[i + 1]! < lo || b[i + 1]! > hi) return 0;
  for (let k = 2; k < n; k++) if (b[i + k]! < 0x80 || b[i + k]! > 0xbf) return 0;
  return n;
}

// The same rules on a decoded string (the page hands text): a BOM kept by the decoder, a
// NUL, a lone surrogate (which no UTF-8 can encode).
function textEncodingProblem(t: string): { at: number; message: string } | null {
  if (t.charCodeAt(0) === 0xfeff) return { at: 0, message: 'byte order mark is not allowed' };
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 0) return { at: i, message: NUL };
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < t.length && isLow(t.charCodeAt(i + 1))) i++;
    else if (c >= 0xd800 && c <= 0xdfff) return { at: i, message: 'invalid UTF-8' };
  }
  return null;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/** Line and column of a string offset, 1-based; a character outside the BMP is one column,
 *  as json_line_col() counts a UTF-8 sequence once. */
export function lineColumn(text: string, offset: number): TextPosition {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      line++;
      column = 1;
    } else if (!(isLow(c) && i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff)) {
      column++;
    }
  }
  return { line, column };
}

// json_line_col() itself, on bytes: every byte but a continuation byte starts a column.
function byteLineColumn(b: Uint8Array, offset: number): TextPosition {
  let line = 1;
  let column = 1;
  for (let i = 0; i < offset; i++) {
    if (b[i] === 0x0a) {
      line++;
      column = 1;
    } else if ((b[i]! & 0xc0) !== 0x80) {
      column++;
    }
  }
  return { line, column };
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isAlnum = (c: string | undefined): boolean => c !== undefined && /^[0-9A-Za-z]$/.test(c);

// json_parse() in TypeScript: the same states, checks and messages in the same order.
class Reader {
  private pos = 0;
  private st: State = 'value';
  private readonly stack: Frame[] = [];
  private key: string | null = null; // the member whose value is being read, once its key is
  private index = 0; // the element being read
  private tokens = 0;
  root: JsonNode | null = null;
  failure: JsonFailure | null = null;

  constructor(
    private readonly s: string,
    private readonly maxTokens: number,
  ) {}

  read(): unknown {
    let comma = -1; // where the ',' before the due element is
    this.skipWs();
    for (;;) {
      const top = this.stack[this.stack.length - 1];
      const obj = top !== undefined && !top.node.array;
      if (this.st === 'value') {
        if (comma >= 0 && this.s[this.pos] === ']') {
          this.st = 'after'; // the array is at fault, not an element
          this.fail(comma, 'trailing comma');
        }
        comma = -1;
        if (top && !obj) this.index = top.size;
        this.scanValue();
        this.skipWs();
      } else if (this.st === 'key') {
        if (comma >= 0 && this.s[this.pos] === '}') this.fail(comma, 'trailing comma');
        if (this.s[this.pos] === "'") this.fail(this.pos, 'strings use double quotes');
        if (this.s[this.pos] !== '"') this.failUnexpected(comma >= 0 ? 'expected a string key' : "expected a string key or '}'");
        comma = -1;
        this.scanKey(top!);
        this.skipWs();
        this.st = 'value';
        if (this.s[this.pos] !== ':') this.failUnexpected("expected ':'");
        this.pos++;
        this.skipWs();
      } else if (top === undefined) {
        if (this.pos < this.s.length) this.failUnexpected('trailing characters after the value');
        return JSON.parse(this.s);
      } else if (this.s[this.pos] === ',') {
        comma = this.pos++;
        this.skipWs();
        this.st = obj ? 'key' : 'value';
      } else if (this.s[this.pos] === (obj ? '}' : ']')) {
        this.stack.pop();
        this.pos++;
        this.valueDone();
        this.skipWs();
      } else {
        this.failUnexpected(obj ? "expected ',' or '}'" : "expected ',' or ']'");
      }
    }
  }

  private fail(at: number, message: string): never {
    const segs = this.stack.flatMap((f) => (f.seg === null ? [] : [f.seg]));
    const top = this.stack[this.stack.length - 1];
    if (top && !top.node.array && this.key !== null) segs.push(this.key);
    else if (top && top.node.array && this.st === 'value') segs.push(this.index);
    this.failure = { path: formatPath(segs), message, ...lineColumn(this.s, at) };
    throw new Stop();
  }

  // A '/' where something else was due is most likely a comment: say so.
  private failUnexpected(message: string): never {
    this.fail(this.pos, this.s[this.pos] === '/' ? 'comments are not allowed' : message);
  }

  private skipWs(): void {
    while (this.pos < this.s.length && ' \t\n\r'.includes(this.s[this.pos]!)) this.pos++;
  }

  private valueDone(): void {
    this.st = 'after';
    this.key = null;
  }

  // A new value's node, counted as the engine counts its tokens, in its container.
  private newNode(container: boolean, array: boolean): JsonNode {
    this.token();
    const node: JsonNode = { at: this.pos, kids: container ? new Map() : null, array };
    const top = this.stack[this.stack.length - 1];
    if (top === undefined) this.root = node;
    else if (top.node.array) top.node.kids!.set(top.size++, node);
    else top.node.kids!.set(this.key!, node);
    return node;
  }

  private token(): void {
    if (this.tokens >= this.maxTokens) this.fail(this.pos, 'too many tokens');
    this.tokens++;
  }

  private scanValue(): void {
    const c = this.s[this.pos];
    if (c === undefined) this.fail(this.pos, 'expected a value');
    if (c === "'") this.fail(this.pos, 'strings use double quotes');
    if (c === '+' || c === '.') this.fail(this.pos, 'invalid number');
    if (c !== '[' && c !== '{' && c !== '"' && c !== '-' && !isAlnum(c)) this.failUnexpected('expected a value');
    const container = c === '[' || c === '{';
    if (container && this.stack.length >= JSON_MAX_DEPTH) this.fail(this.pos, 'too deeply nested');
    const top = this.stack[this.stack.length - 1];
    const seg: PathSegment | null = top === undefined ? null : top.node.array ? top.size : this.key!;
    const node = this.newNode(container, c === '[');
    if (!container) {
      if (c === '"') this.scanString();
      else if (c === '-' || isDigit(c)) this.scanNumber();
      else this.scanLiteral();
      this.valueDone();
      return;
    }
    this.pos++;
    this.skipWs();
    if (this.s[this.pos] === (c === '[' ? ']' : '}')) {
      this.pos++;
      this.valueDone();
      return;
    }
    this.stack.push({ node, seg, keys: new Set(), size: 0 });
    this.key = null;
    this.st = c === '[' ? 'value' : 'key';
  }

  private scanKey(obj: Frame): void {
    if (obj.keys.size >= JSON_MAX_MEMBERS) this.fail(this.pos, 'too many members in an object');
    this.token();
    const quote = this.pos;
    this.scanString();
    const key = JSON.parse(this.s.slice(quote, this.pos)) as string;
    this.key = key;
    // RFC 8259 section 4 leaves duplicate names to the reader; here one is a mistake.
    if (obj.keys.has(key)) this.fail(quote, 'duplicate key');
    obj.keys.add(key);
  }

  private scanString(): void {
    const quote = this.pos;
    let i = quote + 1;
    for (;;) {
      if (i >= this.s.length) this.fail(quote, 'unterminated string');
      const c = this.s.charCodeAt(i);
      if (c === 0x22) break;
      // RFC 8259 section 7: control characters must be escaped.
      if (c < 0x20) this.fail(i, 'control character in string');
      if (c === 0x5c) i += this.escape(i, quote);
      else i++;
    }
    this.pos = i + 1;
  }

  // The escape at s[i] == '\\': the characters it takes (json.c's esc_decode()).
  private escape(i: number, quote: number): number {
    const s = this.s;
    if (i + 1 >= s.length) this.fail(quote, 'unterminated string');
    if ('"\\/bfnrt'.includes(s[i + 1]!)) return 2;
    if (s[i + 1] !== 'u') this.fail(i, 'invalid escape');
    const cp = this.hex4(i + 2, quote, i);
    if (cp >= 0xdc00 && cp <= 0xdfff) this.fail(i, 'unpaired surrogate in \\u escape');
    if (cp < 0xd800 || cp > 0xdbff) return 6;
    // A character outside the BMP is a high-low pair; a lone half has no UTF-8 form.
    const low = s[i + 6] === '\\' && s[i + 7] === 'u' && /^[0-9A-Fa-f]{4}$/.test(s.slice(i + 8, i + 12)) ? parseInt(s.slice(i + 8, i + 12), 16) : -1;
    if (!(low >= 0xdc00 && low <= 0xdfff)) this.fail(i, 'unpaired surrogate in \\u escape');
    return 12;
  }

  private hex4(at: number, quote: number, backslash: number): number {
    for (let j = 0; j < 4; j++) {
      if (at + j >= this.s.length) this.fail(quote, 'unterminated string');
      if (!/[0-9A-Fa-f]/.test(this.s[at + j]!)) this.fail(backslash, 'invalid escape');
    }
    return parseInt(this.s.slice(at, at + 4), 16);
  }

  // RFC 8259 section 6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
  private scanNumber(): void {
    const s = this.s;
    let i = this.pos;
    if (s[i] === '-') i++;
    if (s.startsWith('NaN', i) || s.startsWith('Infinity', i)) this.fail(this.pos, NON_FINITE);
    if (!isDigit(s[i])) this.fail(i, 'invalid number');
    if (s[i] === '0') {
      i++;
      if (isDigit(s[i])) this.fail(i, 'leading zeros are not allowed');
    } else {
      while (isDigit(s[i])) i++;
    }
    if (s[i] === '.') {
      i++;
      if (!isDigit(s[i])) this.fail(i, 'invalid number');
      while (isDigit(s[i])) i++;
    }
    if (s[i] === 'e' || s[i] === 'E') {
      i++;
      if (s[i] === '+' || s[i] === '-') i++;
      if (!isDigit(s[i])) this.fail(i, 'invalid number');
      while (isDigit(s[i])) i++;
    }
    // "1x", "1.2.3", "0x10", "1-2": say "number" rather than "expected ','".
    if (isAlnum(s[i]) || s[i] === '.' || s[i] === '+' || s[i] === '-') this.fail(i, 'invalid number');
    this.pos = i;
  }

  private scanLiteral(): void {
    for (const word of ['null', 'false', 'true']) {
      if (this.s.startsWith(word, this.pos) && !isAlnum(this.s[this.pos + word.length])) {
        this.pos += word.length;
        return;
      }
    }
    if (this.s.startsWith('NaN', this.pos) || this.s.startsWith('Infinity', this.pos)) this.fail(this.pos, NON_FINITE);
    this.fail(this.pos, 'invalid literal');
  }
}

/**
 * Where the field at `path` ("links[0].faults[1].p") is: the first character of its value,
 * or, for a field the file does not have, of the object or array that lacks it (the deepest
 * part of the path there is). The rule of sr_find() in wasm/api/scenario_read.c.
 */
export function locatePath(doc: JsonDoc, path: string): TextPosition {
  let node = doc.root;
  for (const seg of pathSegments(path)) {
    const next = node.kids !== null && (typeof seg === 'number') === node.array ? node.kids.get(seg) : undefined;
    if (next === undefined) break;
    node = next;
  }
  return lineColumn(doc.text, node.at);
}

/** "links[0].faults[1].p" -> ['links', 0, 'faults', 1, 'p'], as sr_find() reads a path. */
export function pathSegments(path: string): PathSegment[] {
  const out: PathSegment[] = [];
  for (const m of path.matchAll(/\[(\d+)\]|([^.[]+)/g)) out.push(m[1] !== undefined ? Number(m[1]) : m[2]!);
  return out;
}
