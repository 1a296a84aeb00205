// `stackscope run` writes its files as the run goes (the engine hands out each slice's
// records and capture bytes, then forgets them): what it writes is what a run kept whole
// gives, byte for byte, natively and in wasm, and a run of half a million frames gives a
// pcapng that holds every one of them (a capture kept whole in the engine's memory was cut
// at 512 MiB).
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runScenario, streamScenario } from '../web/src/core/engine/run.ts';
import { cli } from './cli_capture.ts';
import { readScenarioInput } from './scenario_input.ts';
import { shippedScenarios } from './shipped.ts';
import { linkRows } from './table.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NATIVE = join(ROOT, 'build/native/stackscope-engine');
const dir = mkdtempSync(join(tmpdir(), 'stackscope-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function concat(parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}

/** The frames of a classic pcap file (draft-ietf-opsawg-pcap): each record's bytes. */
function pcapPackets(file: Uint8Array): Uint8Array[] {
  const v = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const out: Uint8Array[] = [];
  for (let off = 24; off < file.length; off += 16 + v.getUint32(off + 8, true)) out.push(file.subarray(off + 16, off + 16 + v.getUint32(off + 8, true)));
  return out;
}

describe('outputs streamed as the run goes', () => {
  for (const s of shippedScenarios()) {
    it(`${s.name}: the streamed pcapng is the one written whole, from the command, the native engine and any slicing`, async () => {
      const input = readScenarioInput(s.name, [], undefined);
      const whole = await runScenario(input.json);
      expect(whole.pcapng.length).toBeGreaterThan(1000);

      const file = join(dir, `${s.name}.pcapng`);
      const r = await cli('run', s.name, '--pcapng', file);
      expect(r.code, r.err).toBe(0);
      expect(Buffer.compare(readFileSync(file), whole.pcapng)).toBe(0);

      const scenario = join(dir, `${s.name}.json`);
      writeFileSync(scenario, input.json);
      const nativeFile = join(dir, `${s.name}.native.pcapng`);
      execFileSync(NATIVE, ['--pcapng', nativeFile, scenario]);
      expect(Buffer.compare(readFileSync(nativeFile), whole.pcapng)).toBe(0);

      // Slices of 37 ms, not 1 s: the cut changes neither the file nor the trace.
      const pieces: Uint8Array[] = [];
      const traces: Uint8Array[] = [];
      const sliced = await streamScenario(input.json, { trace: (b) => traces.push(b), pcapng: (b) => pieces.push(b) }, undefined, 37_000);
      expect(pieces.length).toBeGreaterThan(5);
      expect(Buffer.compare(concat(pieces), whole.pcapng)).toBe(0);
      expect(Buffer.compare(concat(traces), whole.traceBytes)).toBe(0);
      expect(sliced.hash).toBe(whole.hash);
    });
  }

  it('capture: false (stackscope run without --pcapng) builds no pcapng, and the trace is the same', async () => {
    const input = readScenarioInput('ethernet-bulk-lossy', [], undefined);
    const whole = await runScenario(input.json);
    const traces: Uint8Array[] = [];
    const bare = await streamScenario(input.json, { trace: (b) => traces.push(b), capture: false });
    expect(whole.pcapng.length).toBeGreaterThan(1000);
    expect(bare.pcapng.length).toBe(0);
    expect(Buffer.compare(concat(traces), whole.traceBytes)).toBe(0);
    expect(bare.hash).toBe(whole.hash);
  });

  it('on a fast link the slices shorten, so one slice never holds seconds of traffic', async () => {
    // 100 Mbit/s, a 1 ms round trip and no loss: the transfer fills the link, and a 1 s
    // slice of it is some 25 MB of records and capture; the budget is 4 MiB a slice (run.ts).
    const sets = ['apps.0.bytes=50000000', 'links.0.rate_bps=100000000', 'links.0.delay_us=500', 'links.0.faults=[]', 'duration_ms=5000'];
    const input = readScenarioInput('ethernet-bulk-lossy', sets, undefined);
    const slices: number[] = [];
    const run = await streamScenario(input.json, {
      trace: (b) => slices.push(b.length),
      pcapng: (b) => (slices[slices.length - 1]! += b.length),
    });
    expect(slices[0]).toBeGreaterThan(8 << 20);
    // Once it has adapted (the second half of the run), no slice is twice the budget.
    const later = slices.slice(slices.length / 2);
    expect(later.length).toBeGreaterThan(4);
    expect(Math.max(...later)).toBeLessThan(8 << 20);
    expect(run.hash).toBe((await runScenario(input.json)).hash);
  });

  it('--trace, --pcap and --table-json, written as the run goes, are what the whole run gives', async () => {
    const whole = await runScenario(readScenarioInput('ethernet-bulk-lossy', [], undefined).json);
    const [trace, pcap, json] = ['a.trace', 'a.pcap', 'a.json'].map((f) => join(dir, f));
    const r = await cli('run', 'ethernet-bulk-lossy', '--trace', trace!, '--pcap', pcap!, '--table-json', json!);
    expect(r.code, r.err).toBe(0);
    expect(Buffer.compare(readFileSync(trace!), whole.traceBytes)).toBe(0);
    expect(readFileSync(json!, 'utf8')).toBe(JSON.stringify(linkRows(whole, 0), null, 1) + '\n');
    const packets = pcapPackets(new Uint8Array(readFileSync(pcap!)));
    const frames = whole.trace.frames.filter((f) => f.link === 0);
    expect(packets.length).toBe(frames.length);
    packets.forEach((p, i) => expect(Buffer.compare(p, frames[i]!.bytes), `packet ${i + 1}`).toBe(0));
  });
});

// About 540 000 frames (500 MB over 10 Mbit/s with 1 % loss) and a 600 MB pcapng: about 20 s
// on this machine (2 shared cores), capinfos included. In a child process, as people run it.
describe('a long run', () => {
  it('the pcapng of a run of more than 500 000 frames holds every frame', () => {
    const file = join(dir, 'long.pcapng');
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'bin/stackscope.mjs'),
        'run',
        'ethernet-bulk-lossy',
        '--set',
        'apps.0.bytes=500000000',
        '--set',
        'links.0.faults.0.p=0.01',
        '--set',
        'duration_ms=2000000',
        '--pcapng',
        file,
      ],
      { encoding: 'utf8' },
    );
    expect(run.status, run.stderr).toBe(0);
    const frames = Number(/^link eth .*: (\d+) frames/m.exec(run.stdout)?.[1]);
    expect(frames).toBeGreaterThan(500_000);
    const count = /Number of packets:\s+(\d+)/.exec(execFileSync('capinfos', ['-c', '-M', file], { encoding: 'utf8' }))?.[1];
    rmSync(file);
    expect(Number(count)).toBe(frames);
  }, 300_000);
});

describe('a long run stopped', () => {
  it('^C while the files are being written: status 130, no summary, no file left', async () => {
    const out = join(dir, 'interrupted');
    mkdirSync(out);
    const args = ['run', 'ethernet-bulk-lossy', '--set', 'apps.0.bytes=500000000', '--set', 'links.0.faults.0.p=0.01', '--set', 'duration_ms=2000000'];
    const child = spawn(process.execPath, [join(ROOT, 'bin/stackscope.mjs'), ...args, '--pcapng', join(out, 'a.pcapng')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    const closed = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
    // The signal goes once the temporary has grown past its first megabytes: mid-run.
    const growing = () => readdirSync(out).some((f) => f.endsWith('.tmp') && statSync(join(out, f)).size > 4 << 20);
    while (!growing()) await new Promise((r) => setTimeout(r, 20));
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(stdout).not.toContain('trace hash');
    expect(readdirSync(out)).toEqual([]);
  }, 120_000);
});
