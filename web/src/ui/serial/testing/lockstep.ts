// The page's host and the emulated board on one clock, for tests: the engine (real-time
// mode, its external link) and the board advance together in steps of stepUs, every byte
// the board sends reaching the engine at the instant its stop bit ends, and the engine's
// bytes entering the board's pin at the end of the step they were sent in (50 us: a third
// of a character at 57600 baud). Nothing depends
// on the machine's speed, so the RTTs and byte counts it gives are exact and repeatable.
import { Engine } from '../../../core/engine/engine.ts';
import { EmulatedBoard } from '../emulated_board.ts';

const PORT_LINK = 0;

export class Lockstep {
  bytesToBoard = 0;
  bytesFromBoard = 0;
  /** bytes the board has started sending whose stop bit has not ended yet */
  private onTheLine: { byte: number; atUs: number }[] = [];

  constructor(
    readonly engine: Engine,
    readonly board: EmulatedBoard,
    /** how far the board runs alone; the page's worker runs it in slices of a few ms */
    readonly stepUs = 50,
  ) {}

  get nowUs(): number {
    return this.board.timeUs;
  }

  /** Runs both to `us`. */
  runUntil(us: number): void {
    while (this.board.timeUs < us) {
      const next = Math.min(us, this.board.timeUs + this.stepUs);
      this.board.runUntilUs(next);
      this.onTheLine.push(...this.board.takeTransmitted());
      while (this.onTheLine.length && this.onTheLine[0]!.atUs <= next) {
        const { byte, atUs } = this.onTheLine.shift()!;
        this.engine.run(Math.max(this.engine.nowUs, Math.round(atUs)));
        this.engine.portWrite(PORT_LINK, Uint8Array.of(byte));
        this.bytesFromBoard++;
      }
      this.engine.run(Math.round(next));
      const out = this.engine.portRead(PORT_LINK);
      if (out.length) {
        this.bytesToBoard += out.length;
        this.board.receive(out);
      }
    }
  }

  /** Runs until `done()` holds, checking every `everyUs`; false if `limitUs` passed first. */
  runUntilDone(done: () => boolean, limitUs: number, everyUs = 10_000): boolean {
    while (!done()) {
      if (this.nowUs >= limitUs) return false;
      this.runUntil(Math.min(limitUs, this.nowUs + everyUs));
    }
    return true;
  }
}
