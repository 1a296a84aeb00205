/// <reference lib="webworker" />
// The engine's Web Worker: runs a scenario in slices of virtual time, reports progress
// after each, and hands the whole trace back in one transfer (no per-event messages).
import { Engine, EngineScenarioError } from './engine.ts';
import { loadEngineModule, type EngineModule } from './engine_module.ts';
import type { WorkerReply, WorkerRequest } from './worker_protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let mod: Promise<EngineModule> | null = null;

function post(msg: WorkerReply, transfer: Transferable[] = []): void {
  scope.postMessage(msg, transfer);
}

async function run(req: WorkerRequest): Promise<void> {
  mod ??= loadEngineModule();
  const engine = await Engine.create(req.json, await mod);
  try {
    const parts: Uint8Array[] = [];
    let size = 0;
    let done = false;
    while (!done) {
      done = engine.run(engine.nowUs + req.sliceUs);
      const batch = engine.takeTrace();
      parts.push(batch);
      size += batch.length;
      post({ type: 'progress', id: req.id, nowUs: engine.nowUs, durationUs: engine.durationUs });
    }
    const trace = new Uint8Array(size);
    let off = 0;
    for (const p of parts) {
      trace.set(p, off);
      off += p.length;
    }
    const pcapng = engine.pcapng();
    post({ type: 'done', id: req.id, trace, pcapng, world: engine.describe(), hash: engine.hash(), virtualUs: engine.nowUs }, [trace.buffer, pcapng.buffer]);
  } finally {
    engine.destroy();
  }
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
