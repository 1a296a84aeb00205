// The bad-input suite (test/bad-input, written by make_scenarios.ts): every file is a valid
// base scenario with one fault, and the manifest says which field the refusal must name and
// where in the file it must point. Both readers get each file as it is on disk: the
// command's (readScenarioInput, what `stackscope run FILE` does) and the native engine's
// (build/native/stackscope-engine FILE, which reads the scenario in C). Both must refuse it,
// name the same field and give the same line and column; the messages must be the same.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readScenarioInput, ScenarioInputError } from './scenario_input.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SUITE = join(ROOT, 'test/bad-input');
const NATIVE = join(ROOT, 'build/native/stackscope-engine');

interface Case {
  file: string;
  base: string;
  path: string;
  line?: number;
  column?: number;
  fault: string;
}

const cases = JSON.parse(readFileSync(join(SUITE, 'manifest.json'), 'utf8')) as Case[];

/** The command's refusal, without the file name it starts with; one line per error. */
function command(file: string): string[] {
  try {
    readScenarioInput(file, [], undefined);
  } catch (e) {
    if (!(e instanceof ScenarioInputError)) throw e;
    return e.message.split('\n').map((l) => unprefixed(l, file));
  }
  return [];
}

/** The engine's refusal (exit status 2), without the file name; null if it took the file. */
function engine(file: string): string | null {
  const r = spawnSync(NATIVE, [file], { encoding: 'utf8' });
  if (r.status === 0) return null;
  expect(r.status, r.stderr).toBe(2);
  return unprefixed(r.stderr.trimEnd(), file);
}

function unprefixed(line: string, file: string): string {
  expect(line.startsWith(`${file}: `), line).toBe(true);
  return line.slice(file.length + 2);
}

/** What a refusal must start with: the position, when there is one, then the field. */
function head(c: Case): string {
  const where = c.line === undefined ? '' : `line ${c.line}, column ${c.column}: `;
  return where + (c.path === '' ? '' : `${c.path}: `);
}

it('the native engine is built (make native): the suite runs it, it is not skipped', () => {
  expect(existsSync(NATIVE)).toBe(true);
});

it('has at least 100 bad files, each in the manifest, over valid bases', () => {
  expect(cases.length).toBeGreaterThanOrEqual(100);
  for (const base of new Set(cases.map((c) => c.base))) {
    const file = join(SUITE, 'bases', base);
    expect(command(file), base).toEqual([]);
    expect(engine(file), base).toBeNull();
  }
});

describe('each file: both refuse it, naming the same field at the same place, in the same words', () => {
  it.each(cases)('$file: $fault', (c) => {
    const file = join(SUITE, 'scenarios', c.file);
    const ts = command(file);
    const c99 = engine(file);
    expect(ts.length, 'the command must refuse it').toBeGreaterThan(0);
    expect(c99, 'the engine must refuse it').not.toBeNull();
    expect(ts[0]!.startsWith(head(c)), `command: ${ts[0]}\nwanted: ${head(c)}...`).toBe(true);
    expect(c99!.startsWith(head(c)), `engine: ${c99}\nwanted: ${head(c)}...`).toBe(true);
    if (c.line === undefined) expect(c99).not.toMatch(/^line /);
    expect(ts, 'one fault, one message').toHaveLength(1);
    expect(c99).toBe(ts[0]);
  });
});

describe('--set: a value is held to the file reader, and a field it changed is named by it', () => {
  const base = join(SUITE, 'bases', 'serial.json');
  const refusal = (set: string): string => {
    try {
      readScenarioInput(base, [set], undefined);
    } catch (e) {
      if (e instanceof ScenarioInputError) return e.message;
      throw e;
    }
    return 'accepted';
  };

  it('a key written twice in the value is refused, as in a file', () => {
    const set = 'links.serial.faults=[{"action":"drop","p":0.1,"p":0.2}]';
    expect(refusal(set)).toBe(`${base}: --set "${set}": the value, at column 27: [0].p: duplicate key`);
  });

  it('a lone surrogate in the value is refused, as in a file', () => {
    const set = 'title="a \\ud800 b"';
    expect(refusal(set)).toBe(`${base}: --set "${set}": the value, at column 4: unpaired surrogate in \\u escape`);
  });

  it('an error in a field a --set changed names the --set, not a place in the file', () => {
    expect(refusal('links.serial.baud=5')).toBe(`${base}: links[0].baud: must be an integer between 50 and 4000000 (set by --set links.serial.baud=5)`);
    // a field the --set did not touch keeps its place in the file
    expect(refusal('hosts.pc.stack.tcp_timer_tick_ms=100')).toMatch(
      /: line \d+, column \d+: hosts\[0\]\.stack\.tcp_timer_phase_ms: must be less than tcp_timer_tick_ms \(100\)$/,
    );
  });
});
