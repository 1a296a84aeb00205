/// <reference lib="webworker" />
// The engine's Web Worker: runs a scenario in slices of virtual time (run.ts streamScenario),
// reports progress after each, and hands the whole trace back in one transfer (no
// per-event messages). The page cancels a run by ending this worker (client.ts).
import { EngineScenarioError } from './engine.ts';
import { loadEngineModule, type EngineModule } from './engine_module.ts';
import { streamScenario } from './run.ts';
import type { WorkerReply, WorkerRequest } from './worker_protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let mod: Promise<EngineModule> | null = null;

function post(msg: WorkerReply, transfer: Transferable[] = []): void {
  scope.postMessage(msg, transfer);
}

async function run(req: WorkerRequest): Promise<void> {
  mod ??= loadEngineModule();
  const parts: Uint8Array[] = [];
  let size = 0;
  const done = await streamScenario(
    req.json,
    {
      trace: (batch) => {
        parts.push(batch);
        size += batch.length;
      },
      progress: (p) => post({ type: 'progress', id: req.id, ...p }),
    },
    await mod,
    req.sliceUs,
  );
  const trace = new Uint8Array(size);
  let off = 0;
  for (const p of parts) {
    trace.set(p, off);
    off += p.length;
  }
  post({ type: 'done', id: req.id, trace, pcapng: done.pcapng, world: done.world, hash: done.hash, virtualUs: done.virtualUs }, [
    trace.buffer,
    done.pcapng.buffer,
  ]);
}

scope.onmessage = (e: MessageEvent<WorkerRequest>) => {
  run(e.data).catch((err: unknown) => {
    post({
      type: 'error',
      id: e.data.id,
      message: err instanceof Error ? err.message : String(err),
      invalidScenario: err instanceof EngineScenarioError,
    });
  });
};
