// Messages between the page and the engine's Web Worker (worker.ts, client.ts). A run is
// cancelled by ending the worker (client.ts), which stops it even inside a long slice.
import type { RunProgress } from './run.ts';
import type { WorldDescription } from './trace_types.ts';

export type WorkerRequest = { type: 'run'; id: number; json: string; sliceUs: number };

export type WorkerReply =
  | ({ type: 'progress'; id: number } & RunProgress)
  | {
      type: 'done';
      id: number;
      /** every record of the run (docs/trace-format.md) */
      trace: Uint8Array;
      pcapng: Uint8Array;
      world: WorldDescription;
      hash: string;
      virtualUs: number;
    }
  | { type: 'error'; id: number; message: string; invalidScenario: boolean };
