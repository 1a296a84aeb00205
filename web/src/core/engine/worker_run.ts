// What the engine's Web Worker does with a request (worker.ts wires it to the worker's
// messages): runs the scenario in slices of virtual time (run.ts streamScenario) and hands
// each slice's trace records and capture bytes over as the slice ends, in one transfer
// with its progress (no per-event messages, no copy), so the page can fill its views while
// the run goes on, and the engine's memory holds one slice, however long the run.
import { EngineScenarioError } from './engine.ts';
import type { EngineModule } from './engine_module.ts';
import { streamScenario } from './run.ts';
import type { WorkerReply, WorkerRequest } from './worker_protocol.ts';

export type Post = (msg: WorkerReply, transfer?: Transferable[]) => void;

/** Does `req`, telling the page by `post`; a failure is an 'error' reply, never a throw. */
export async function workerRun(req: WorkerRequest, post: Post, mod: Promise<EngineModule>): Promise<void> {
  try {
    await slices(req, post, await mod);
  } catch (err) {
    post({ type: 'error', id: req.id, message: err instanceof Error ? err.message : String(err), invalidScenario: err instanceof EngineScenarioError });
  }
}

async function slices(req: WorkerRequest, post: Post, mod: EngineModule): Promise<void> {
  const empty = (): Uint8Array => new Uint8Array(0);
  let batch = empty();
  let capture = empty();
  const done = await streamScenario(
    req.json,
    {
      start: (world) => post({ type: 'start', id: req.id, world }),
      trace: (b) => {
        batch = b;
      },
      pcapng: (bytes) => {
        capture = bytes;
      },
      progress: (p) => {
        post({ type: 'slice', id: req.id, trace: batch, pcapng: capture, ...p }, [batch.buffer, capture.buffer]);
        batch = empty();
        capture = empty();
      },
    },
    mod,
    req.sliceUs,
  );
  post({ type: 'done', id: req.id, world: done.world, hash: done.hash, virtualUs: done.virtualUs });
}
