// The packet list's display filter: a small part of Wireshark's language, compiled once
// into a predicate so 100 000 rows filter in milliseconds. Never throws: a bad expression
// comes back as a message (Wireshark's wording where it has one) and where it went wrong.
//
//   expr  := or
//   or    := and (("||" | "or") and)*
//   and   := not (("&&" | "and") not)*
//   not   := ("!" | "not") not | "(" expr ")" | test
//   test  := field [op value | "in" "{" value* "}"]     a field alone: is it present?
//   op    := == eq != ne > gt < lt >= ge <= le
//   value := 123 | 0x1f | 1.5 | 10.0.7.1 | 10.0.0.0/8 | true | false
//
// As in Wireshark 4: a comparison with a field the frame lacks is false, "==" matches if
// any occurrence does (ip.addr, tcp.port), "!=" if none does.
import { factsOf, type Facts, type FilterSource } from './filter_facts.ts';
import { FIELDS, type FieldValue, type FilterField } from './filter_fields.ts';

/** Does row i of the capture whose facts are `f` pass? */
export type RowPredicate = (f: Facts, i: number) => boolean;

export type CompiledFilter =
  | { ok: true; /** null: the empty filter, every row */ test: RowPredicate | null }
  | { ok: false; message: string; /** character offset of the problem */ at: number };

interface Token {
  kind: 'word' | 'op' | 'punct' | 'end';
  text: string;
  at: number;
}

const OPS: Record<string, string> = {
  '==': '==',
  eq: '==',
  '===': '==',
  '!=': '!=',
  ne: '!=',
  '!==': '!=',
  '>': '>',
  gt: '>',
  '<': '<',
  lt: '<',
  '>=': '>=',
  ge: '>=',
  '<=': '<=',
  le: '<=',
};

class FilterSyntaxError extends Error {
  constructor(
    message: string,
    readonly at: number,
  ) {
    super(message);
  }
}

function tokenize(s: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const two = s.slice(i, i + 2);
    const three = s.slice(i, i + 3);
    if (three === '===' || three === '!==') {
      out.push({ kind: 'op', text: three, at: i });
      i += 3;
    } else if (['==', '!=', '>=', '<=', '&&', '||'].includes(two)) {
      out.push({ kind: two === '&&' || two === '||' ? 'punct' : 'op', text: two, at: i });
      i += 2;
    } else if (c === '>' || c === '<') {
      out.push({ kind: 'op', text: c, at: i++ });
    } else if ('()!{},'.includes(c)) {
      out.push({ kind: 'punct', text: c, at: i++ });
    } else if (/[A-Za-z0-9_.:/-]/.test(c)) {
      const m = /^[A-Za-z0-9_.:/-]+/.exec(s.slice(i))!;
      out.push({ kind: 'word', text: m[0], at: i });
      i += m[0].length;
    } else {
      throw new FilterSyntaxError(`"${c}" was unexpected in this context.`, i);
    }
  }
  out.push({ kind: 'end', text: '', at: s.length });
  return out;
}

type Matcher = (v: number) => boolean;

function parseNumber(text: string): number | null {
  if (/^0x[0-9a-f]+$/i.test(text)) return parseInt(text, 16);
  if (/^\d+(\.\d+)?$/.test(text) || /^\.\d+$/.test(text)) return Number(text);
  return null;
}

function parseIpv4(text: string): { addr: number; mask: number } | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  const p = m.slice(1, 5).map(Number);
  const bits = m[5] === undefined ? 32 : Number(m[5]);
  if (p.some((x) => x > 255) || bits > 32) return null;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  const addr = ((p[0]! << 24) | (p[1]! << 16) | (p[2]! << 8) | p[3]!) >>> 0;
  return { addr: (addr & mask) >>> 0, mask };
}

/** The value as the field's type reads it: a test of one occurrence for "==". */
function valueMatcher(field: FilterField, name: string, tok: Token): { eq: Matcher; num: number | null } {
  if (field.type === 'ipv4') {
    const a = parseIpv4(tok.text);
    if (!a) throw new FilterSyntaxError(`"${tok.text}" is not a valid hostname or IPv4 address.`, tok.at);
    return { eq: (v) => (v & a.mask) >>> 0 === a.addr, num: a.mask === 0xffffffff ? a.addr : null };
  }
  let n = parseNumber(tok.text);
  if (field.type === 'bool') {
    const t = tok.text.toLowerCase();
    if (t === 'true') n = 1;
    else if (t === 'false') n = 0;
    if (n === null) throw new FilterSyntaxError(`"${tok.text}" is not a valid boolean.`, tok.at);
    const want = n !== 0;
    return { eq: (v) => (v !== 0) === want, num: want ? 1 : 0 };
  }
  if (field.type === 'protocol') throw new FilterSyntaxError(`"${name}" is a protocol and cannot be compared with a value.`, tok.at);
  if (n === null) throw new FilterSyntaxError(`"${tok.text}" is not a valid number.`, tok.at);
  const want = n;
  return { eq: (v) => v === want, num: want };
}

function any(v: FieldValue, m: Matcher): boolean {
  if (v === undefined) return false;
  if (typeof v === 'number') return m(v);
  for (const x of v) if (m(x)) return true;
  return false;
}

class Parser {
  private p = 0;
  constructor(private readonly toks: Token[]) {}

  private peek(): Token {
    return this.toks[this.p]!;
  }
  private next(): Token {
    return this.toks[this.p++]!;
  }
  private isWord(...w: string[]): boolean {
    const t = this.peek();
    return (t.kind === 'punct' || t.kind === 'word') && w.includes(t.text.toLowerCase());
  }

  parse(): RowPredicate {
    const e = this.or();
    const t = this.peek();
    if (t.kind !== 'end') throw new FilterSyntaxError(`"${t.text}" was unexpected in this context.`, t.at);
    return e;
  }

  private or(): RowPredicate {
    let l = this.and();
    while (this.isWord('||', 'or')) {
      this.next();
      const a = l;
      const b = this.and();
      l = (f, i) => a(f, i) || b(f, i);
    }
    return l;
  }

  private and(): RowPredicate {
    let l = this.not();
    while (this.isWord('&&', 'and')) {
      this.next();
      const a = l;
      const b = this.not();
      l = (f, i) => a(f, i) && b(f, i);
    }
    return l;
  }

  private not(): RowPredicate {
    if (this.isWord('!', 'not')) {
      this.next();
      const e = this.not();
      return (f, i) => !e(f, i);
    }
    const t = this.peek();
    if (t.kind === 'punct' && t.text === '(') {
      this.next();
      const e = this.or();
      const c = this.next();
      if (c.kind !== 'punct' || c.text !== ')')
        throw new FilterSyntaxError(
          c.kind === 'end' ? 'Unexpected end of filter string; a ")" is missing.' : `"${c.text}" was unexpected in this context; expected ")".`,
          c.at,
        );
      return e;
    }
    return this.test();
  }

  private test(): RowPredicate {
    const t = this.next();
    if (t.kind === 'end') throw new FilterSyntaxError('Unexpected end of filter string.', t.at);
    if (t.kind !== 'word') throw new FilterSyntaxError(`"${t.text}" was unexpected in this context.`, t.at);
    const name = t.text.toLowerCase();
    const field = FIELDS[name];
    if (!field) throw new FilterSyntaxError(`"${t.text}" is neither a field nor a protocol name.`, t.at);
    const get = field.get;
    const op = this.peek();
    if (op.kind === 'op' || (op.kind === 'word' && OPS[op.text.toLowerCase()])) {
      this.next();
      const v = this.next();
      if (v.kind !== 'word')
        throw new FilterSyntaxError(v.kind === 'end' ? 'Unexpected end of filter string.' : `"${v.text}" was unexpected in this context.`, v.at);
      return comparison(OPS[op.text.toLowerCase()]!, get, valueMatcher(field, name, v), field, name, v);
    }
    if (op.kind === 'word' && op.text.toLowerCase() === 'in') {
      this.next();
      return this.set(field, name);
    }
    return (f, i) => get(f, i) !== undefined;
  }

  private set(field: FilterField, name: string): RowPredicate {
    const open = this.next();
    if (open.text !== '{') throw new FilterSyntaxError('"{" expected after "in".', open.at);
    const ms: Matcher[] = [];
    for (;;) {
      const t = this.next();
      if (t.kind === 'punct' && t.text === '}') break;
      if (t.kind === 'punct' && t.text === ',') continue;
      if (t.kind !== 'word')
        throw new FilterSyntaxError(
          t.kind === 'end' ? 'Unexpected end of filter string; a "}" is missing.' : `"${t.text}" was unexpected in this context.`,
          t.at,
        );
      ms.push(valueMatcher(field, name, t).eq);
    }
    if (!ms.length) throw new FilterSyntaxError('An empty set matches nothing.', open.at);
    const get = field.get;
    return (f, i) => any(get(f, i), (v) => ms.some((m) => m(v)));
  }
}

function comparison(
  op: string,
  get: FilterField['get'],
  value: { eq: Matcher; num: number | null },
  field: FilterField,
  name: string,
  tok: Token,
): RowPredicate {
  const eq = value.eq;
  if (op === '==') return (f, i) => any(get(f, i), eq);
  if (op === '!=') {
    return (f, i) => {
      const v = get(f, i);
      return v !== undefined && !any(v, eq);
    };
  }
  const n = value.num;
  if (n === null || field.type === 'bool') throw new FilterSyntaxError(`"${name}" cannot be ordered: use == or != with "${tok.text}".`, tok.at);
  const m: Matcher = op === '>' ? (v) => v > n : op === '<' ? (v) => v < n : op === '>=' ? (v) => v >= n : (v) => v <= n;
  return (f, i) => any(get(f, i), m);
}

/** Compiles a filter expression. The empty (or blank) expression shows every row. */
export function compileFilter(text: string): CompiledFilter {
  if (!text.trim()) return { ok: true, test: null };
  try {
    return { ok: true, test: new Parser(tokenize(text)).parse() };
  } catch (e) {
    if (e instanceof FilterSyntaxError) return { ok: false, message: e.message, at: e.at };
    return { ok: false, message: String(e), at: 0 };
  }
}

/** The 0-based rows of the capture the predicate keeps, in order. */
export function filterRows(s: FilterSource, test: RowPredicate | null): Int32Array {
  const n = s.rows.length;
  if (!test) return Int32Array.from({ length: n }, (_, i) => i);
  const f = factsOf(s);
  const keep = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) if (test(f, i)) keep[k++] = i;
  return keep.slice(0, k);
}
