// The page's side of the engine worker: one run at a time in one worker. A newer run
// supersedes an older one, and Cancel stops one: either ends the worker, which stops the
// run even inside a long slice, and a new worker is started for the next run. The trace
// comes slice by slice while the run goes on; the run so far can be read at any time.
import type { RunProgress, RunResult } from './run.ts';
import { Trace } from './trace_reader.ts';
import type { WorldDescription } from './trace_types.ts';
import type { WorkerReply, WorkerRequest } from './worker_protocol.ts';
import { concatBytes } from '../util/concat_bytes.ts';

/** The most a run's records and capture file may hold in the page: a longer run is
 *  stopped there, with an error, before the tab runs out of memory (a bulk transfer's frame
 *  takes about 2.2 KB of both, so some 900 000 frames). The command line has no such limit:
 *  it writes its files as the run goes. */
export const PAGE_RUN_MAX_BYTES = 2 * 2 ** 30;

export class RunError extends Error {
  constructor(
    message: string,
    readonly invalidScenario: boolean,
    /** the run as far as it went before it stopped (RunResult.partial), if it had begun */
    readonly soFar?: RunResult,
  ) {
    super(message);
    this.name = 'RunError';
  }
}

/** The run was stopped by cancel(), or by a newer run; its result will never come. */
export class RunStopped extends RunError {
  constructor(
    readonly reason: 'cancelled' | 'superseded',
    soFar?: RunResult,
  ) {
    super(reason === 'cancelled' ? 'the run was cancelled' : 'superseded by a newer run', false, soFar);
    this.name = 'RunStopped';
  }
}

export type Progress = RunProgress;

/** A run going on, as the page reads it after a slice. */
export interface RunGoingOn {
  /** The trace with the slices received read into it, oldest first, for at most
   *  `budgetMs` of wall time (one slice at least; all of them by default): the same object
   *  at each call, grown (what a model that grows with the run reads, core/run/run_model.ts
   *  GrowingRun). */
  trace(budgetMs?: number): Trace;
  /** The run as far as the slices read into the trace (RunResult.partial), unchanged by
   *  what comes after: its capture file is theirs too. */
  soFar(): RunResult;
}

/** Told after each slice: how far the run has gone, and the run itself. */
export type ProgressWatcher = (p: Progress, run: RunGoingOn) => void;

/** One slice of a run, as the worker handed it over. */
interface Slice {
  trace: Uint8Array;
  pcapng: Uint8Array;
  /** virtual time at its end */
  nowUs: number;
}

/** A run the worker is doing: its slices are read into `trace` when someone asks for the
 *  run (so far, or ended); the record batches and the capture file are joined only when
 *  someone asks for them (an export, a test). */
class RunInFlight implements RunGoingOn {
  world: WorldDescription | null = null;
  /** the trace the slices are read into */
  private traceRead = new Trace();
  private readonly slices: Slice[] = [];
  /** how many of `slices` have been read into `trace` */
  private read = 0;
  /** the bytes of `slices` */
  held = 0;

  constructor(
    readonly resolve: (r: RunResult) => void,
    readonly reject: (e: Error) => void,
    readonly progress?: ProgressWatcher,
  ) {}

  start(world: WorldDescription): void {
    this.world = world;
    this.traceRead = new Trace(world.links);
  }

  add(slice: Slice): void {
    this.slices.push(slice);
    this.held += slice.trace.length + slice.pcapng.length;
  }

  trace(budgetMs = Infinity): Trace {
    const t0 = performance.now();
    do {
      if (this.read === this.slices.length) break;
      this.traceRead.append(this.slices[this.read++]!.trace);
    } while (performance.now() - t0 < budgetMs);
    return this.traceRead;
  }

  soFar(): RunResult {
    if (!this.world) throw new Error('the run has not begun: the worker has not described its world');
    return this.result({ world: this.world, hash: '', virtualUs: this.read ? this.slices[this.read - 1]!.nowUs : 0, partial: true });
  }

  /** Every slice received, as a run cut short; undefined before the run began. */
  keptSoFar(): RunResult | undefined {
    if (!this.world) return undefined;
    this.trace();
    return this.soFar();
  }

  /** The run as far as the slices read; the run ended reads them all first. */
  result(end: Omit<RunResult, 'trace' | 'traceBytes' | 'pcapng'>): RunResult {
    if (!end.partial) this.trace();
    // The slices read, as they are now: a run so far keeps its own end.
    const read = this.slices.slice(0, this.read);
    const batches = read.map((sl) => sl.trace);
    const capture = read.map((sl) => sl.pcapng);
    return {
      ...end,
      trace: end.partial ? this.traceRead.prefix() : this.traceRead,
      // Joined only when asked for (a second copy of every byte): the capture file by an
      // export, the records by the tests, never by the views.
      get pcapng() {
        return concatBytes(capture);
      },
      get traceBytes() {
        return concatBytes(batches);
      },
    };
  }
}

/** What the client needs of a worker (a test gives one that runs in its own thread). */
export type EngineWorker = Pick<Worker, 'postMessage' | 'terminate' | 'onmessage' | 'onerror'>;

const engineWorker = (): EngineWorker => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'stackscope-engine' });

export class EngineClient {
  private worker: EngineWorker | null = null;
  private nextId = 1;
  private pending = new Map<number, RunInFlight>();

  constructor(
    private readonly maxBytes = PAGE_RUN_MAX_BYTES,
    private readonly newWorker: () => EngineWorker = engineWorker,
  ) {}

  private ensure(): EngineWorker {
    if (this.worker) return this.worker;
    const w = this.newWorker();
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
    if (msg.type === 'start') {
      p.start(msg.world);
      return;
    }
    if (msg.type === 'slice') {
      p.add({ trace: msg.trace, pcapng: msg.pcapng, nowUs: msg.nowUs });
      if (p.held > this.maxBytes) {
        const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;
        this.end(
          (q) =>
            new RunError(
              `the run was stopped at ${msg.frames} frames, ${(msg.nowUs / 1e6).toFixed(3)} s: its records and capture file hold ${mb(p.held)}, ` +
                `more than the page keeps (${mb(this.maxBytes)}); the command line (stackscope run) writes a run of any length to files`,
              false,
              q.keptSoFar(),
            ),
        );
        return;
      }
      p.progress?.({ nowUs: msg.nowUs, durationUs: msg.durationUs, frames: msg.frames }, p);
      return;
    }
    this.pending.delete(msg.id);
    if (msg.type === 'error') {
      p.reject(new RunError(msg.message, msg.invalidScenario, p.keptSoFar()));
      return;
    }
    p.resolve(p.result({ world: msg.world, hash: msg.hash, virtualUs: msg.virtualUs }));
  }

  /** Runs the scenario (validated JSON text) to its end in the worker. */
  run(json: string, progress?: ProgressWatcher, sliceUs = 1_000_000): Promise<RunResult> {
    const id = this.nextId++;
    this.stop('superseded');
    return new Promise((resolve, reject) => {
      this.pending.set(id, new RunInFlight(resolve, reject, progress));
      const req: WorkerRequest = { type: 'run', id, json, sliceUs };
      this.ensure().postMessage(req);
    });
  }

  /** Stops the run going on, if any (its promise rejects with RunStopped); false if none was. */
  cancel(): boolean {
    return this.stop('cancelled');
  }

  /** A cancelled run keeps what it ran; a superseded one is not read (the newer one is shown). */
  private stop(why: RunStopped['reason']): boolean {
    if (this.pending.size === 0) return false;
    return this.end((p) => new RunStopped(why, why === 'cancelled' ? p.keptSoFar() : undefined));
  }

  /** Ends the worker, and with it the runs going on, each failing with its error. */
  private end(errorOf: (p: RunInFlight) => RunError): boolean {
    for (const p of this.pending.values()) p.reject(errorOf(p));
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
    this.ensure();
    return true;
  }
}
