// json_text.ts is the engine's JSON reader (wasm/api/json.c) in TypeScript. So that the two
// never drift, this runs every error case of the C reader's own unit test
// (wasm/tests/test_json.c: the source, its message, its line and column; the path of the
// value being read) through the TypeScript one, from the same bytes.
import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { lineColumn, locatePath, readJson, readJsonBytes } from './json_text.ts';

const C_TEST = readFileSync(new URL('../../../../wasm/tests/test_json.c', import.meta.url), 'utf8');

/** The bytes of a C string literal's body (the escapes test_json.c uses). */
function cBytes(body: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\') {
      out.push(...new TextEncoder().encode(c));
      continue;
    }
    const e = body[++i]!;
    if (e === 'x') {
      let hex = '';
      while (/[0-9A-Fa-f]/.test(body[i + 1] ?? '')) hex += body[++i];
      out.push(parseInt(hex, 16));
    } else {
      out.push(({ n: 10, t: 9, r: 13, f: 12, v: 11, b: 8, a: 7, '0': 0, '"': 34, '\\': 92, "'": 39 } as Record<string, number>)[e]!);
    }
  }
  return out;
}

const LITERAL = /"((?:[^"\\]|\\.)*)"/;
// one string, possibly written as adjacent literals ("\xC2\xA0" "1"), across lines
const LITERALS = /"(?:[^"\\]|\\.)*"(?:\s*"(?:[^"\\]|\\.)*")*/.source;
/** The bytes of adjacent C literals: each decoded on its own (a \x escape ends with its literal). */
function literalsBytes(text: string): number[] {
  return [...text.matchAll(new RegExp(LITERAL.source, 'g'))].flatMap((m) => cBytes(m[1]!));
}
// static const char name[] = "..."; messages the test names by variable
const named = new Map([...C_TEST.matchAll(new RegExp(`static const char (\\w+)\\[\\] =\\s*(${LITERALS});`, 'g'))].map((m) => [m[1]!, literalsBytes(m[2]!)]));
const errCases = [...C_TEST.matchAll(new RegExp(`^\\s*ERR\\(\\s*(${LITERALS}),\\s*(?:(${LITERALS})|(\\w+)),\\s*\\d+,\\s*(\\d+),\\s*(\\d+)\\);`, 'gm'))].map(
  (m) => ({
    source: m[1]!.replace(/"\s+"/g, ''),
    bytes: literalsBytes(m[1]!),
    message: new TextDecoder().decode(Uint8Array.from(m[2] !== undefined ? literalsBytes(m[2]) : named.get(m[3]!)!)),
    line: Number(m[4]),
    column: Number(m[5]),
  }),
);
const pathCases = [...C_TEST.matchAll(new RegExp(`expect_path\\(\\s*(${LITERALS}),\\s*(${LITERALS})\\)\\)`, 'g'))].map((m) => ({
  source: m[1]!.replace(/"\s+"/g, ''),
  bytes: literalsBytes(m[1]!),
  path: new TextDecoder().decode(Uint8Array.from(literalsBytes(m[2]!))),
}));

describe('every error case of the C reader, read by the TypeScript one', () => {
  it('found them in test_json.c', () => {
    expect(errCases.length).toBeGreaterThan(100);
    expect(pathCases.length).toBeGreaterThan(10);
  });

  it.each(errCases)('$source: $message at $line:$column', (c) => {
    const r = readJsonBytes(Uint8Array.from(c.bytes));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect({ message: r.error.message, line: r.error.line, column: r.error.column }).toEqual({ message: c.message, line: c.line, column: c.column });
  });

  it.each(pathCases)('$source: the path is "$path"', (c) => {
    const r = readJsonBytes(Uint8Array.from(c.bytes));
    expect(r.ok ? null : r.error.path).toBe(c.path);
  });
});

describe('text the page hands over (already decoded)', () => {
  it('a BOM kept by the decoder, a NUL and a lone surrogate are named where they are', () => {
    expect(readJson('\ufeff{}')).toMatchObject({ ok: false, error: { message: 'byte order mark is not allowed', line: 1, column: 1 } });
    expect(readJson('{\n "a": "x\u0000"}')).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^NUL byte/), line: 2, column: 9 } });
    expect(readJson('["\ud800"]')).toMatchObject({ ok: false, error: { message: 'invalid UTF-8', line: 1, column: 3 } });
  });

  it('counts a character outside the BMP as one column, as the C reader counts a UTF-8 sequence', () => {
    expect(lineColumn('"😀" x', 5)).toEqual({ line: 1, column: 5 });
    expect(readJson('["😀", x]')).toMatchObject({ ok: false, error: { message: 'invalid literal', column: 7 } });
  });

  it('caps the values and keys as the engine does', () => {
    expect(readJson('[1,2,3]', 4).ok).toBe(true);
    expect(readJson('[1,2,3]', 3)).toMatchObject({ ok: false, error: { message: 'too many tokens', path: '[2]', column: 6 } });
  });
});

describe('locatePath: where a field is', () => {
  const text = '{\n  "a": [1, {"b": "x"}],\n  "c": 2\n}';
  const doc = (): Parameters<typeof locatePath>[0] => {
    const r = readJson(text);
    if (!r.ok) throw new Error(r.error.message);
    return r.doc;
  };

  it("a value's first character, a string's quote", () => {
    expect(locatePath(doc(), 'a[1].b')).toEqual({ line: 2, column: 18 });
    expect(locatePath(doc(), 'c')).toEqual({ line: 3, column: 8 });
    expect(locatePath(doc(), '')).toEqual({ line: 1, column: 1 });
  });

  it('a missing field: the object or array that lacks it; an index past the end: the array', () => {
    expect(locatePath(doc(), 'a[1].zz')).toEqual({ line: 2, column: 12 });
    expect(locatePath(doc(), 'a[5]')).toEqual({ line: 2, column: 8 });
    expect(locatePath(doc(), 'c.d')).toEqual({ line: 3, column: 8 });
  });
});
