// The bad-command-line suite (test/bad-input/commands/manifest.json): every command line
// there runs through the real command as a child process and must be refused with its
// exit status, one line on stderr naming the argument at fault, no stack trace, and no
// file left behind. Where the native engine takes the same input it runs too and must
// give the same verdict. The native engine must be built: a missing binary fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'bin/stackscope.mjs');
const NATIVE = join(ROOT, 'build/native/stackscope-engine');
const SUITE = join(ROOT, 'test/bad-input/commands');
const SCENARIO = join(ROOT, 'web/src/core/scenarios/shipped/arduino-slip.json');

interface Case {
  id: string;
  args: string[];
  exit: number;
  names: string;
  why: string;
  native?: string[];
}

const CASES = (JSON.parse(readFileSync(join(SUITE, 'manifest.json'), 'utf8')) as { cases: Case[] }).cases;
const root = mkdtempSync(join(tmpdir(), 'stackscope-bad-commands-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[]): Promise<Outcome> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** A fresh directory for the case with a-dir and a-file in it, and the placeholders. */
function caseDir(id: string): { dir: string; fill: (s: string) => string } {
  const dir = join(root, id);
  mkdirSync(join(dir, 'a-dir'), { recursive: true });
  writeFileSync(join(dir, 'a-file'), 'x');
  const values: Record<string, string> = {
    '{tmp}': dir,
    '{dir}': join(dir, 'a-dir'),
    '{file}': join(dir, 'a-file'),
    '{missing}': join(dir, 'no-such-dir'),
    '{scenario}': SCENARIO,
    '{fixtures}': SUITE,
  };
  return { dir, fill: (s) => s.replace(/\{[a-z]+\}/g, (p) => values[p] ?? p) };
}

/** Exit status, one line naming `names`, no stack trace. */
function expectRefused(o: Outcome, c: Case, names: string, who: string): void {
  const err = o.stderr.trimEnd();
  expect(o.code, `${who} exit status; stderr: ${err}`).toBe(c.exit);
  expect(err, `${who} prints one line`).not.toContain('\n');
  expect(err, `${who} names the argument`).toContain(names);
  expect(err).not.toMatch(/^\s+at |node:internal|Node\.js v/m);
}

/** Nothing written: the case's directory holds what it was given, unchanged. */
function expectNothingLeft(dir: string): void {
  expect(readdirSync(dir).sort()).toEqual(['a-dir', 'a-file']);
  expect(readdirSync(join(dir, 'a-dir'))).toEqual([]);
  expect(readFileSync(join(dir, 'a-file'), 'utf8')).toBe('x');
}

describe('bad command lines', () => {
  it('has the suite: at least 40 cases, the native engine built', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(40);
    expect(existsSync(NATIVE), `${NATIVE}: build it with make native`).toBe(true);
  });

  describe.concurrent.each(CASES)('$id', (c) => {
    it(`stackscope ${c.args.join(' ')}: ${c.why}`, async () => {
      const { dir, fill } = caseDir(c.id);
      const names = fill(c.names);
      expectRefused(await run(process.execPath, [CLI, ...c.args.map(fill)]), c, names, 'stackscope');
      expectNothingLeft(dir);
      if (!c.native) return;
      expectRefused(await run(NATIVE, c.native.map(fill)), c, names, 'stackscope-engine');
      expectNothingLeft(dir);
    });
  });
});

// A full disk, not the full device: a 64 KB tmpfs (mounting needs root) and a trace of
// 1.2 MB. Both refuse after the run, with status 1, and leave nothing on the disk.
describe.runIf(process.getuid?.() === 0)('a full disk', () => {
  it('stackscope run and the native engine: one line, status 1, no partial file', async () => {
    const disk = mkdtempSync(join(tmpdir(), 'stackscope-full-'));
    const mount = await run('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', disk]);
    expect(mount.code, mount.stderr).toBe(0);
    try {
      const bulk = join(ROOT, 'web/src/core/scenarios/shipped/ethernet-bulk-lossy.json');
      const c: Case = { id: 'full-disk', args: [], exit: 1, names: '', why: '' };
      const cli = await run(process.execPath, [CLI, 'run', bulk, '--trace', join(disk, 'a.trace')]);
      expectRefused(cli, c, `${join(disk, 'a.trace')}: cannot write: no space left on the device`, 'stackscope');
      expect(readdirSync(disk)).toEqual([]);
      const native = await run(NATIVE, [bulk, '--trace', join(disk, 'b.trace')]);
      expectRefused(native, c, `${join(disk, 'b.trace')}: cannot write: no space left on the device`, 'stackscope-engine');
      expect(readdirSync(disk)).toEqual([]);
    } finally {
      await run('umount', [disk]);
      rmSync(disk, { recursive: true, force: true });
    }
  });
});
