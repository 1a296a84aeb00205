// The emulated Arduino as a Web Serial port: the same open / readable / writable / close
// and 'disconnect' a real SerialPort has, so the page talks to it through the very code
// that talks to a USB-attached board (web_serial_line.ts). Behind it a worker runs the
// echo firmware on avr8js (board_worker.ts). unplug() does what pulling the cable does in
// Chromium: the pending read fails with a NetworkError and 'disconnect' fires.
import type { BoardReply, BoardRequest } from './board_protocol.ts';

/** A running mean and maximum, in ms. */
export class DelayStats {
  count = 0;
  sum = 0;
  max = 0;
  add(ms: number): void {
    this.count++;
    this.sum += ms;
    this.max = Math.max(this.max, ms);
  }
  get mean(): number {
    return this.count ? this.sum / this.count : 0;
  }
}

const SLIP_END = 0xc0;
const absNow = () => performance.timeOrigin + performance.now();

export class EmulatedSerialPort extends EventTarget {
  onconnect: ((ev: Event) => void) | null = null;
  ondisconnect: ((ev: Event) => void) | null = null;
  readable: ReadableStream<Uint8Array> | null = null;
  writable: WritableStream<Uint8Array> | null = null;
  connected = true;
  /** board time over wall time in the last second (1: the emulation keeps up) */
  speed = 1;
  /** What the emulation adds to a round trip, measured: from the page's write to the bytes
   * entering the board's pin, and from a frame's last byte leaving the board to the page
   * having it. A real board has its own (the USB-serial bridge's); this is the model's. */
  readonly latency = { toBoard: new DelayStats(), fromBoard: new DelayStats() };
  private worker: Worker | null = null;
  private rx: ReadableStreamDefaultController<Uint8Array> | null = null;
  /** a SLIP frame's bytes have come since the last END */
  private inFrame = false;

  getInfo(): SerialPortInfo {
    return {}; // no USB ids: nothing is plugged in
  }

  async open(options: SerialOptions): Promise<void> {
    if (this.readable) throw new DOMException('The port is already open.', 'InvalidStateError');
    if (!this.connected) throw new DOMException('The device has been lost.', 'NetworkError');
    const worker = new Worker(new URL('./board_worker.ts', import.meta.url), { type: 'module', name: 'emulated-arduino' });
    this.worker = worker;
    const opened = new Promise<void>((resolve, reject) => {
      worker.onmessage = (e: MessageEvent<BoardReply>) => {
        const msg = e.data;
        if (msg.type === 'opened') resolve();
        else if (msg.type === 'data') {
          if (this.endsFrame(msg.bytes)) this.latency.fromBoard.add(absNow() - msg.lastAt);
          this.rx?.enqueue(msg.bytes);
        } else if (msg.type === 'received') this.latency.toBoard.add(msg.delayMs);
        else if (msg.type === 'speed') this.speed = msg.ratio;
        else if (msg.type === 'failed') {
          reject(new Error(msg.message));
          this.rx?.error(new DOMException(`emulated Arduino: ${msg.message}`, 'NetworkError'));
        }
      };
      worker.onerror = (e) => reject(new Error(`emulated Arduino: ${e.message}`));
    });
    this.readable = new ReadableStream<Uint8Array>({
      start: (c) => {
        this.rx = c;
      },
    });
    this.writable = new WritableStream<Uint8Array>({
      write: (chunk) => {
        if (!this.connected) throw new DOMException('The device has been lost.', 'NetworkError');
        const bytes = chunk.slice();
        this.send({ type: 'write', bytes, sentAt: absNow() }, [bytes.buffer]);
      },
    });
    this.send({ type: 'open', baud: options.baudRate });
    await opened;
  }

  async close(): Promise<void> {
    try {
      this.rx?.close();
    } catch {
      // already errored by unplug(): nothing left to end
    }
    this.stop();
    this.readable = null;
    this.writable = null;
  }

  async forget(): Promise<void> {
    await this.close();
  }

  async setSignals(): Promise<void> {}

  async getSignals(): Promise<SerialInputSignals> {
    return { dataCarrierDetect: false, clearToSend: true, ringIndicator: false, dataSetReady: true };
  }

  /** The cable is pulled: reads fail, writes fail, 'disconnect' fires. */
  unplug(): void {
    if (!this.connected) return;
    this.connected = false;
    this.rx?.error(new DOMException('The device has been lost.', 'NetworkError'));
    this.stop();
    const ev = new Event('disconnect');
    this.ondisconnect?.(ev);
    this.dispatchEvent(ev);
  }

  /** Whether these bytes close a SLIP frame (an END after data; a leading END closes nothing). */
  private endsFrame(bytes: Uint8Array): boolean {
    let ends = false;
    for (const b of bytes) {
      if (b === SLIP_END) {
        ends ||= this.inFrame;
        this.inFrame = false;
      } else this.inFrame = true;
    }
    return ends;
  }

  private send(msg: BoardRequest, transfer: Transferable[] = []): void {
    this.worker?.postMessage(msg, transfer);
  }

  private stop(): void {
    this.send({ type: 'close' });
    this.worker?.terminate();
    this.worker = null;
    this.rx = null;
  }
}

/** The emulated board where a SerialPort is expected (the two differ only in declared overloads). */
export function emulatedPort(): { port: SerialPort; board: EmulatedSerialPort } {
  const board = new EmulatedSerialPort();
  return { port: board as unknown as SerialPort, board };
}
