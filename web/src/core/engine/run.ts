// A run in one call: streamed to sinks slice by slice (the command line's run, which writes
// its files as it goes, and the page's worker, which reports progress after each slice), or
// kept whole (the tests, replays and lessons).
import { Engine, type AppCheck } from './engine.ts';
import type { EngineModule } from './engine_module.ts';
import { APP_OFF, RecordType, Trace, forEachRecord } from './trace_reader.ts';
import type { WorldDescription } from './trace_types.ts';
import { concatBytes } from '../util/concat_bytes.ts';

export interface RunResult {
  world: WorldDescription;
  trace: Trace;
  hash: string;
  pcapng: Uint8Array;
  virtualUs: number;
  /** Every record of the run, as the engine wrote them (the --trace file). */
  traceBytes: Uint8Array;
  /** At the end of the run, by app index: what each app that checks the bytes it
   *  receives found (absent for the apps that check nothing). runScenario asks the
   *  engine; a run assembled elsewhere (the page's worker, a live session) has none. */
  checks?: Map<number, AppCheck>;
  /** The run as far as it had gone, not to its end: while it goes on, or cancelled. It has
   *  no hash (a hash names a whole run); its capture file is the capture so far. */
  partial?: true;
}

/** How far a run has gone, after each slice. */
export interface RunProgress {
  /** virtual time reached */
  nowUs: number;
  /** the scenario's duration (duration_ms): the run ends there, or sooner once its apps are done */
  durationUs: number;
  /** frames sent so far, on every link */
  frames: number;
}

/** Where a streamed run's output goes, slice by slice, in order. */
export interface RunSinks {
  /** The world, before the first slice (links, names of kinds and reasons). */
  start?(world: WorldDescription): void;
  /** Each batch of trace records, as the engine wrote them. */
  trace(batch: Uint8Array): void;
  /** Each piece of the pcapng file; without this sink the engine keeps the whole file and
   *  the run's `pcapng` is all of it. */
  pcapng?(bytes: Uint8Array): void;
  /** false: no pcapng file is built at all (the run's `pcapng` is empty), for a caller
   *  that takes only the trace; the trace and its hash are the same. Default true. */
  capture?: boolean;
  /** After each slice, once its output has gone to the other sinks. */
  progress?(p: RunProgress): void;
}

/** What a streamed run leaves once its records have gone to the sinks. */
export type StreamedRun = Omit<RunResult, 'trace' | 'traceBytes'> & { checks: Map<number, AppCheck> };

/** The output of one slice above which the next slice is shorter (and below an eighth of
 *  which it is longer, up to the first slice's length): memory stays near this, whatever
 *  the links' rates. */
const SLICE_OUTPUT_BYTES = 4 << 20;
const MIN_SLICE_US = 1000;
/** Wall time between two turns of the event loop during a run, so that a signal (^C) is
 *  handled while a long run goes on, not after it. */
const YIELD_MS = 50;

/**
 * Runs the scenario (JSON text) to its end in slices of virtual time, handing each slice's
 * trace records (and pcapng bytes, if asked) to the sinks and dropping them from the
 * engine, so the run holds one slice in memory however long it is. The slices do not
 * change the run: its hash is the same for any cut.
 */
export async function streamScenario(json: string, sinks: RunSinks, mod?: EngineModule, sliceUs = 1_000_000): Promise<StreamedRun> {
  const engine = await Engine.create(json, mod, { capture: sinks.capture });
  try {
    sinks.start?.(engine.describe());
    const apps = new Set<number>();
    let frames = 0;
    let step = sliceUs;
    let done = false;
    let turn = performance.now();
    while (!done) {
      if (performance.now() - turn > YIELD_MS) {
        await new Promise((resume) => setTimeout(resume, 0));
        turn = performance.now();
      }
      done = engine.run(engine.nowUs + step);
      const batch = engine.takeTrace();
      forEachRecord(batch, (type, view, off) => {
        if (type === RecordType.App) apps.add(view.getUint8(off + APP_OFF.app));
        else if (type === RecordType.Frame) frames++;
      });
      sinks.trace(batch);
      let out = batch.length;
      if (sinks.pcapng) {
        const bytes = engine.takePcapng();
        out += bytes.length;
        sinks.pcapng(bytes);
      }
      sinks.progress?.({ nowUs: engine.nowUs, durationUs: engine.durationUs, frames });
      if (out > SLICE_OUTPUT_BYTES) step = Math.max(MIN_SLICE_US, Math.floor(step / 2));
      else if (out < SLICE_OUTPUT_BYTES / 8) step = Math.min(sliceUs, step * 2);
    }
    const checks = new Map<number, AppCheck>();
    for (const app of apps) {
      const check = engine.appCheck(app);
      if (check) checks.set(app, check);
    }
    return { world: engine.describe(), hash: engine.hash(), pcapng: sinks.pcapng ? new Uint8Array(0) : engine.pcapng(), virtualUs: engine.nowUs, checks };
  } finally {
    engine.destroy();
  }
}

/** Runs the scenario (JSON text) to its end and keeps all of it: the trace read, the
 *  records and the pcapng file, for the page's tests and the commands that need the whole
 *  run (streamScenario is the way for a long one). */
export async function runScenario(json: string, mod?: EngineModule, sliceUs = 1_000_000): Promise<RunResult> {
  let trace = new Trace();
  const batches: Uint8Array[] = [];
  const run = await streamScenario(
    json,
    {
      start: (world) => {
        trace = new Trace(world.links);
      },
      trace: (batch) => {
        batches.push(batch);
        trace.append(batch);
      },
    },
    mod,
    sliceUs,
  );
  return { ...run, trace, traceBytes: concatBytes(batches) };
}
