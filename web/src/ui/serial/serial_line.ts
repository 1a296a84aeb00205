// One open serial port as a byte line for the live session: bytes in as they come, bytes
// out in order, and one end with its reason (closed by us, or the device lost). Works on
// any Web Serial port, a USB-attached Arduino or the emulated one (emulated_port.ts).

export interface SerialLine {
  write(bytes: Uint8Array): void;
  close(): Promise<void>;
}

export interface SerialLineEvents {
  onBytes(bytes: Uint8Array): void;
  /** the line is gone: null when close() ended it, else what happened */
  onEnd(problem: string | null): void;
}

/** 8N1 at `baud`, no flow control: what the echo firmware speaks (and Serial.begin does). */
export async function openSerialLine(port: SerialPort, baud: number, ev: SerialLineEvents): Promise<SerialLine> {
  try {
    await port.open({ baudRate: baud, dataBits: 8, stopBits: 1, parity: 'none', flowControl: 'none' });
  } catch (e) {
    throw new Error(`could not open the serial port at ${baud} baud: ${describe(e)}`);
  }
  const reader = port.readable!.getReader();
  const writer = port.writable!.getWriter();
  let closing = false;
  let ended = false;
  const end = (problem: string | null) => {
    if (ended) return;
    ended = true;
    ev.onEnd(problem);
  };

  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (value && value.length) ev.onBytes(value);
      }
      end(closing ? null : 'the port closed');
    } catch (e) {
      end(closing ? null : lostMessage(e));
    }
  })();

  return {
    write(bytes) {
      if (ended) return;
      writer.write(bytes).catch((e: unknown) => end(closing ? null : lostMessage(e)));
    },
    async close() {
      closing = true;
      await reader.cancel().catch(() => undefined);
      reader.releaseLock();
      await writer.close().catch(() => undefined);
      writer.releaseLock();
      await port.close().catch(() => undefined);
      end(null);
    },
  };
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Chromium reports a pulled cable as a NetworkError on the pending read. */
function lostMessage(e: unknown): string {
  if (e instanceof DOMException && e.name === 'NetworkError') return 'the Arduino was disconnected (USB cable pulled?)';
  return `the serial port failed: ${describe(e)}`;
}
