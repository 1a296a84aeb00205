/// <reference lib="webworker" />
// The engine's Web Worker (worker_run.ts says what it does with a run). The page cancels a
// run by ending this worker (client.ts).
import { loadEngineModule, type EngineModule } from './engine_module.ts';
import { workerRun } from './worker_run.ts';
import type { WorkerRequest } from './worker_protocol.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
let mod: Promise<EngineModule> | null = null;

scope.onmessage = (e: MessageEvent<WorkerRequest>) => {
  mod ??= loadEngineModule();
  void workerRun(e.data, (msg, transfer = []) => scope.postMessage(msg, transfer), mod);
};
