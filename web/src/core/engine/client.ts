// The page's side of the engine worker: one run at a time in one worker. A newer run
// supersedes an older one, and Cancel stops one: either ends the worker, which stops the
// run even inside a long slice, and a new worker is started for the next run.
import type { RunProgress, RunResult } from './run.ts';
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

/** The run was stopped by cancel(), or by a newer run; its result will never come. */
export class RunStopped extends RunError {
  constructor(readonly reason: 'cancelled' | 'superseded') {
    super(reason === 'cancelled' ? 'the run was cancelled' : 'superseded by a newer run', false);
    this.name = 'RunStopped';
  }
}

export type Progress = RunProgress;

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
      p.progress?.({ nowUs: msg.nowUs, durationUs: msg.durationUs, frames: msg.frames });
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
    this.stop('superseded');
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, progress });
      const req: WorkerRequest = { type: 'run', id, json, sliceUs };
      this.ensure().postMessage(req);
    });
  }

  /** Stops the run going on, if any (its promise rejects with RunStopped); false if none was. */
  cancel(): boolean {
    return this.stop('cancelled');
  }

  private stop(why: RunStopped['reason']): boolean {
    if (this.pending.size === 0) return false;
    for (const p of this.pending.values()) p.reject(new RunStopped(why));
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
    this.ensure();
    return true;
  }
}
