// Messages between the page and the engine's Web Worker (worker.ts, client.ts). A run is
// cancelled by ending the worker (client.ts), which stops it even inside a long slice.
import type { RunProgress } from './run.ts';
import type { WorldDescription } from './trace_types.ts';

export type WorkerRequest = { type: 'run'; id: number; json: string; sliceUs: number };

export type WorkerReply =
  /** before the first slice: the links and the names the trace's numbers stand for */
  | { type: 'start'; id: number; world: WorldDescription }
  /** after each slice: how far the run has gone, that slice's trace records
   *  (docs/trace-format.md), so the page can show the run while it goes on, and the
   *  capture file's bytes written meanwhile (the engine keeps none of it past the slice) */
  | ({ type: 'slice'; id: number; trace: Uint8Array; pcapng: Uint8Array } & RunProgress)
  | {
      type: 'done';
      id: number;
      world: WorldDescription;
      hash: string;
      virtualUs: number;
    }
  | { type: 'error'; id: number; message: string; invalidScenario: boolean };
