// The page's side of the engine worker: one worker for the page's life, one run at a time
// (a newer run supersedes an older one, whose result is dropped).
import type { RunResult } from './run.ts';
import { Trace } from './trace_reader.ts';
import type { WorkerReply, WorkerRequest } from './worker_protocol.ts';

export class RunError extends Error {
  constructor(
    message: string,
    readonly invalidScenario: boolean,
  ) {
    super(message);
    this.name = 'RunError';
  }
}

export interface Progress {
  nowUs: number;
  durationUs: number;
}

export class EngineClient {
  private worker: Worker | null = null;
  private nextId = 1;
  private pending = new Map<number, { resolve: (r: RunResult) => void; reject: (e: Error) => void; progress?: (p: Progress) => void }>();

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'stackscope-engine' });
    w.onmessage = (e: MessageEvent<WorkerReply>) => this.onReply(e.data);
    w.onerror = (e) => {
      for (const p of this.pending.values()) p.reject(new RunError(`the engine worker failed: ${e.message}`, false));
      this.pending.clear();
      this.worker = null;
    };
    this.worker = w;
    return w;
  }

  private onReply(msg: WorkerReply): void {
    const p = this.pending.get(msg.id);
    if (!p) return;
    if (msg.type === 'progress') {
      p.progress?.({ nowUs: msg.nowUs, durationUs: msg.durationUs });
      return;
    }
    this.pending.delete(msg.id);
    if (msg.type === 'error') {
      p.reject(new RunError(msg.message, msg.invalidScenario));
      return;
    }
    const trace = new Trace(msg.world.links);
    trace.append(msg.trace);
    p.resolve({ world: msg.world, trace, hash: msg.hash, pcapng: msg.pcapng, virtualUs: msg.virtualUs, traceBytes: msg.trace });
  }

  /** Runs the scenario (validated JSON text) to its end in the worker. */
  run(json: string, progress?: (p: Progress) => void, sliceUs = 1_000_000): Promise<RunResult> {
    const id = this.nextId++;
    for (const [oldId, p] of this.pending) {
      p.reject(new RunError('superseded by a newer run', false));
      this.pending.delete(oldId);
    }
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, progress });
      const req: WorkerRequest = { type: 'run', id, json, sliceUs };
      this.ensure().postMessage(req);
    });
  }
}
