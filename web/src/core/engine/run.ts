// A whole run in one call: what the command line and the tests use (the page's worker
// runs in slices instead, to stream the trace while it plays).
import { Engine, type AppCheck } from './engine.ts';
import type { EngineModule } from './engine_module.ts';
import { Trace } from './trace_reader.ts';
import type { WorldDescription } from './trace_types.ts';

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
}

/** Runs the scenario (JSON text) to its end, taking the trace in slices of `sliceUs`. */
export async function runScenario(json: string, mod?: EngineModule, sliceUs = 1_000_000): Promise<RunResult> {
  const engine = await Engine.create(json, mod);
  try {
    const world = engine.describe();
    const trace = new Trace(world.links);
    const batches: Uint8Array[] = [];
    let done = false;
    while (!done) {
      done = engine.run(engine.nowUs + sliceUs);
      const batch = engine.takeTrace();
      batches.push(batch);
      trace.append(batch);
    }
    const checks = new Map<number, AppCheck>();
    for (const app of new Set(trace.apps.map((a) => a.app))) {
      const check = engine.appCheck(app);
      if (check) checks.set(app, check);
    }
    return {
      world,
      trace,
      hash: engine.hash(),
      pcapng: engine.pcapng(),
      virtualUs: engine.nowUs,
      traceBytes: concat(batches),
      checks,
    };
  } finally {
    engine.destroy();
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
