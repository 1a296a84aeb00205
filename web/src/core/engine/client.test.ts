// The page's engine client with the real worker code and the real engine, in this thread:
// the run comes slice by slice, the run so far can be read at any time, Cancel keeps it,
// and a run past the page's limit is stopped with an error that says where and why.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EngineClient, RunError, RunStopped, type EngineWorker } from './client.ts';
import { loadEngineModule } from './engine_module.ts';
import { runScenario, type RunResult } from './run.ts';
import { workerRun } from './worker_run.ts';
import type { WorkerReply, WorkerRequest } from './worker_protocol.ts';

const mod = loadEngineModule();
const BULK = readFileSync(new URL('../scenarios/shipped/ethernet-bulk-lossy.json', import.meta.url), 'utf8');
/** short slices: many of them in a run of a few seconds */
const SLICE_US = 100_000;

/** worker_run.ts in this thread; its replies come as tasks, as a worker's messages do, and
 *  none after terminate(). */
function inThread(): EngineWorker {
  let ended = false;
  const w: EngineWorker = {
    onmessage: null,
    onerror: null,
    postMessage(req: WorkerRequest) {
      const post = (msg: WorkerReply) =>
        setTimeout(() => {
          if (!ended) w.onmessage?.call(w as Worker, { data: msg } as MessageEvent<WorkerReply>);
        });
      void workerRun(req, post, mod);
    },
    terminate() {
      ended = true;
    },
  };
  return w;
}

async function rejection(p: Promise<RunResult>): Promise<RunError> {
  const e: unknown = await p.then(
    () => null,
    (err: unknown) => err,
  );
  if (!(e instanceof RunError)) throw new Error(`expected a RunError, got ${String(e)}`);
  return e;
}

describe('EngineClient', () => {
  it('a run slice by slice ends as the run in one call: the same records, hash and capture file; the run so far grows', async () => {
    const whole = await runScenario(BULK, await mod, SLICE_US);
    const seen: { frames: number; virtualUs: number; nowUs: number; partial: boolean }[] = [];
    const client = new EngineClient(undefined, inThread);
    const run = await client.run(
      BULK,
      (p, going) => {
        going.trace(); // every slice that came
        const r = going.soFar();
        seen.push({ frames: r.trace.frames.length, virtualUs: r.virtualUs, nowUs: p.nowUs, partial: r.partial === true });
      },
      SLICE_US,
    );
    expect(seen.length).toBeGreaterThan(10);
    expect(seen.every((s) => s.partial && s.virtualUs === s.nowUs)).toBe(true);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.frames).toBeGreaterThanOrEqual(seen[i - 1]!.frames);
    expect(seen[0]!.frames).toBeLessThan(whole.trace.frames.length);
    expect(run.partial).toBeUndefined();
    expect(run.hash).toBe(whole.hash);
    expect(run.virtualUs).toBe(whole.virtualUs);
    expect(run.trace.frames.length).toBe(whole.trace.frames.length);
    expect(Buffer.from(run.traceBytes).equals(Buffer.from(whole.traceBytes))).toBe(true);
    expect(Buffer.from(run.pcapng).equals(Buffer.from(whole.pcapng))).toBe(true);
  });

  it('reading the slices under a budget reads one at least, oldest first; the run so far ends where the slices read end', async () => {
    const client = new EngineClient(undefined, inThread);
    const seen: { frames: number; virtualUs: number }[] = [];
    let last = -1;
    const run = await client.run(
      BULK,
      (_, going) => {
        const frames = going.trace(0).frames.length; // one slice, however many came
        const r = going.soFar();
        seen.push({ frames, virtualUs: r.virtualUs });
        expect(r.trace.frames.length).toBe(frames);
        expect(r.virtualUs).toBeGreaterThan(last);
        last = r.virtualUs;
      },
      SLICE_US,
    );
    // one slice read per slice that came: the run so far kept up, slice for slice
    expect(seen[seen.length - 1]!.virtualUs).toBe(run.virtualUs);
    expect(seen[seen.length - 1]!.frames).toBe(run.trace.frames.length);
  });

  it('a run past the page limit stops with an error naming where it stopped and how much it held, and keeps what it ran', async () => {
    const client = new EngineClient(200_000, inThread);
    const e = await rejection(client.run(BULK, undefined, SLICE_US));
    expect(e).not.toBeInstanceOf(RunStopped);
    expect(e.message).toMatch(
      /^the run was stopped at \d+ frames, \d+\.\d{3} s: its records and capture file hold 0\.\d MB, more than the page keeps \(0\.2 MB\); the command line \(stackscope run\) writes a run of any length to files$/,
    );
    const frames = Number(/at (\d+) frames/.exec(e.message)![1]);
    expect(e.soFar?.partial).toBe(true);
    expect(e.soFar?.trace.frames.length).toBe(frames);
    // its capture so far is a pcapng file: a section header block first
    expect(new DataView(e.soFar!.pcapng.buffer).getUint32(0, true)).toBe(0x0a0d0d0a);
  });

  it('Cancel keeps what the run ran; a run superseded by a newer one keeps nothing, and the newer one ends', async () => {
    const client = new EngineClient(undefined, inThread);
    let cancelled = false;
    const first = client.run(
      BULK,
      (p) => {
        if (!cancelled && p.frames > 100) cancelled = client.cancel();
      },
      SLICE_US,
    );
    const e = await rejection(first);
    expect(e).toBeInstanceOf(RunStopped);
    expect((e as RunStopped).reason).toBe('cancelled');
    expect(e.soFar?.trace.frames.length).toBeGreaterThan(100);
    expect(client.cancel()).toBe(false); // nothing going on any more

    const older = client.run(BULK, undefined, SLICE_US);
    const newer = client.run(BULK, undefined, SLICE_US);
    const superseded = await rejection(older);
    expect((superseded as RunStopped).reason).toBe('superseded');
    expect(superseded.soFar).toBeUndefined();
    expect((await newer).trace.frames.length).toBeGreaterThan(0);
  });
});
