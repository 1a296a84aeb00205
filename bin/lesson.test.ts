// stackscope lesson: the list, a lesson played with the run's values and answers, and the one
// clear line (exit status 2) when a lesson names something the run has not.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from './cli_capture.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const LESSON = join(ROOT, 'web/src/core/lessons/shipped/01-retransmission-timer.json');
const dir = mkdtempSync(join(tmpdir(), 'stackscope-lesson-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function variant(name: string, from: string, to: string): string {
  const text = readFileSync(LESSON, 'utf8');
  expect(text).toContain(from);
  const file = join(dir, name);
  writeFileSync(file, text.replace(from, to));
  return file;
}

describe('stackscope lesson', () => {
  it('with no argument lists the shipped lessons with their titles', async () => {
    const r = await cli('lesson');
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^retransmission-timer +The retransmission timer/m);
    expect(r.out).toMatch(/^fast-retransmit +Fast retransmit/m);
    expect(r.out.split('\n').length).toBeGreaterThanOrEqual(5);
  });

  it("prints the steps, captions filled from the run, and each question's computed answer", async () => {
    const r = await cli('lesson', 'retransmission-timer');
    expect(r.code).toBe(0);
    // (ARP's request and reply take the first round trip and rows 1 and 2)
    expect(r.out).toMatch(/^1\. \[80\.3 ms, eth No\. 6 \(client\)\] The client sends its first segment: Seq=1, 1460 bytes\./m);
    expect(r.out).toContain('[1.122 s, client tcp.rto.expire] The RTO of 1.000 s expires');
    expect(r.out).toMatch(/^ {6}\* b\) after 1 s, the RTO$/m);
    expect(r.out).toMatch(/^ {3}A: b\) the run says 1\.000 s \[1\.122 s, client tcp\.rto\.expire\]$/m);
    expect(r.out).toMatch(/^ {3}A: b\) the run says 2 \[1\.122 s, eth No\. 12 \(client\)\]$/m);
  });

  it('--set changes the run, and the captions with it', async () => {
    const r = await cli('lesson', 'exponential-backoff', '--set', 'hosts.client.stack.tcp_rto_min_ms=500');
    expect(r.code).toBe(0);
    expect(r.out).toContain('The timer of 500.0 ms expires');
  });

  it('an anchor the run lacks: exit status 2, one line naming the field, its line and column', async () => {
    const file = variant('missing.json', '"kind": "tcp.rto.restart", "host": "client"', '"kind": "tcp.rto.restart", "host": "client", "nth": 5');
    const r = await cli('lesson', file);
    expect(r.code).toBe(2);
    expect(r.err.split('\n')).toHaveLength(1);
    expect(r.err).toMatch(/missing\.json: steps\[2\]\.at\.event: not found: the run has 1 such event, the lesson wants number 5 \(line \d+ column \d+\)$/);
  });

  it('a bad lesson file: the field and the reason, status 2', async () => {
    const file = variant('bad.json', '"fate": "dropped"', '"fate": "lost"');
    const r = await cli('lesson', file);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.json: steps\[1\]\.at\.frame\.fate: must be one of: delivered, dropped \(line \d+ column \d+\)/);
  });

  it('an unknown lesson name is status 2', async () => {
    const r = await cli('lesson', 'no-such-lesson');
    expect(r.code).toBe(2);
    expect(r.err).toContain('no-such-lesson: no such lesson (');
  });

  it('a real process exits with status 2 on a missing anchor', () => {
    const file = variant('missing2.json', '"kind": "tcp.rto.restart", "host": "client"', '"kind": "tcp.rto.restart", "host": "server"');
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/stackscope.mjs'), 'lesson', file], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('steps[2].at.event: not found: the run has 0 such events');
  });
});
