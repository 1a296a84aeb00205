// A broken lesson file: each problem names its field, with the line and column of the text
// the teacher wrote.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatLessonErrors, parseLesson } from './index.ts';
import { locateJsonPath } from './json_locate.ts';
import { lessonSchema } from './validate.ts';
import { ANSWER_KINDS } from './types.ts';

const GOOD = readFileSync(fileURLToPath(new URL('./shipped/01-retransmission-timer.json', import.meta.url)), 'utf8');

/** The shipped lesson with one edit to its text. */
function broken(from: string, to: string): string {
  expect(GOOD).toContain(from);
  return GOOD.replace(from, to);
}

function errorsOf(text: string) {
  const r = parseLesson(text);
  expect(r.ok).toBe(false);
  return r.ok ? [] : r.errors;
}

function lineOf(text: string, needle: string): number {
  return text.slice(0, text.indexOf(needle)).split('\n').length;
}

describe('bad lessons', () => {
  it('a misspelt anchor field: its path, a hint, its line and column', () => {
    const text = broken('"kind": "tcp.rto.restart", "host": "client"', '"kind": "tcp.rto.restart", "hots": "client"');
    const [e] = errorsOf(text);
    expect(e!.path).toBe('steps[2].at.event.hots');
    expect(e!.message).toBe('unknown field "hots" (did you mean "host"?)');
    expect(e!.at).toEqual({ line: lineOf(text, '"hots"'), column: expect.any(Number) });
  });

  it('a wrong type: the schema says what the field must be', () => {
    const text = broken('"value": 0.04', '"value": [0.04]');
    const [e] = errorsOf(text);
    expect(e!.path).toBe('steps[2].question.choices[0].value');
    expect(e!.message).toBe('must be a string or a number or true or false');
    expect(e!.at!.line).toBe(lineOf(text, '[0.04]'));
    expect(e!.at!.column).toBe(text.split('\n')[e!.at!.line - 1]!.indexOf('[0.04]') + 1);
  });

  it('an answer kind the engine does not compute', () => {
    const [e] = errorsOf(broken('"answer": "segment"', '"answer": "segments"'));
    expect(e!.path).toBe('steps[3].question.answer');
    expect(e!.message).toMatch(/^must be one of: wait_s, rto_s/);
  });

  it('choices of the wrong kind for the answer', () => {
    const [e] = errorsOf(broken('"value": 0.04', '"value": "40 ms"'));
    expect(e).toMatchObject({ path: 'steps[2].question.choices[0].value', message: 'must be a number: the answer "wait_s" is one' });
  });

  it('an anchor with both kinds, or none', () => {
    const text = broken('"at": { "event": { "kind": "tcp.rto.expire", "host": "client" } }', '"at": {}');
    expect(errorsOf(text)[0]).toMatchObject({ path: 'steps[3].at', message: 'must have exactly one of "event" and "frame"' });
  });

  it('`after` naming a step that is not before it', () => {
    const text = broken('"kind": "tcp.rto.restart", "host": "client"', '"kind": "tcp.rto.restart", "host": "client", "after": "expire"');
    expect(errorsOf(text)[0]).toMatchObject({ path: 'steps[2].at.event.after', message: 'names "expire", which is not the id of this or an earlier step' });
  });

  it('a caption quoting a value that does not exist', () => {
    const [e] = errorsOf(broken('Seq={seq}, {len} bytes', 'Seq={seq}, {length} bytes'));
    expect(e!.path).toBe('steps[0].caption');
    expect(e!.message).toMatch(/^\{length\} is not a value a caption can quote \(time, since, /);
  });

  it('a lesson without a question', () => {
    const doc = JSON.parse(GOOD) as { steps: { question?: unknown }[] };
    for (const s of doc.steps) delete s.question;
    expect(errorsOf(JSON.stringify(doc))).toMatchObject([{ path: 'steps', message: 'must ask at least one question (a step with "question")' }]);
  });

  it('not JSON: the line and column of the syntax error', () => {
    const [e] = errorsOf(broken('"version": 1,', '"version": 1,,'));
    expect(e!.path).toBe('');
    expect(e!.message).toMatch(/^is not valid JSON: .*line 2 column \d+/);
  });

  it('one line per error for the command line', () => {
    const text = broken('"hosts"', '"hostz"');
    const r = parseLesson(text);
    expect(r.ok).toBe(true); // the scenario is checked when it is resolved, not here
    const bad = errorsOf(broken('"caption": "Segment {segment}', '"caption": 7, "note": "Segment {segment}'));
    expect(formatLessonErrors(bad, 'l.json').split('\n')[1]).toMatch(/^l\.json: steps\[1\]\.caption: must be a non-empty string \(line \d+ column \d+\)$/);
  });
});

describe('locateJsonPath', () => {
  it('finds nested values, array elements, and stops at the deepest existing part', () => {
    const text = '{\n  "a": [1, {"b": "x"}],\n  "c": 2\n}';
    expect(locateJsonPath(text, ['a', 1, 'b'])).toEqual({ line: 2, column: 18 });
    expect(locateJsonPath(text, ['c'])).toEqual({ line: 3, column: 8 });
    expect(locateJsonPath(text, ['a', 1, 'zz'])).toEqual({ line: 2, column: 12 });
  });
});

it("the schema's answer kinds are the ones the engine computes", () => {
  const defs = lessonSchema.$defs as Record<string, { properties: Record<string, { enum?: string[] }> }>;
  expect(defs.question!.properties.answer!.enum).toEqual([...ANSWER_KINDS]);
});
