// Messages between the page's emulated serial port (emulated_port.ts) and the worker that
// runs the emulated Arduino (board_worker.ts).

export type BoardRequest =
  | { type: 'open'; baud: number }
  /** `sentAt`: when the page wrote them (ms, performance.timeOrigin + now(): one clock for both threads) */
  | { type: 'write'; bytes: Uint8Array; sentAt: number }
  | { type: 'close' };

export type BoardReply =
  | { type: 'opened' }
  /** bytes the board sent, handed over once the last one's stop bit ended at `lastAt` (same clock as sentAt) */
  | { type: 'data'; bytes: Uint8Array; lastAt: number }
  /** page bytes entered the board's pin `delayMs` after the page wrote them */
  | { type: 'received'; delayMs: number }
  /** how fast the emulation runs: board time over wall time in the last second (1 = real time) */
  | { type: 'speed'; ratio: number }
  | { type: 'failed'; message: string };
