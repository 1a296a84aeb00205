// Intel HEX, the format avr-objcopy writes the firmware in (build/firmware/stackscope-echo.hex):
// lines ":LLAAAATT<data>CC", a byte count, a 16-bit address, a record type, the data and a
// two's-complement checksum over all of it. Only what an AVR image uses is accepted: data
// (00), end of file (01) and the two address extensions (02, 04).

/** A line that is not a valid record: names the line and what is wrong with it. */
export class IntelHexError extends Error {
  constructor(line: number, reason: string) {
    super(`hex line ${line}: ${reason}`);
    this.name = 'IntelHexError';
  }
}

const REC_DATA = 0x00;
const REC_EOF = 0x01;
const REC_EXT_SEGMENT = 0x02;
const REC_EXT_LINEAR = 0x04;

/** The image as bytes of program memory (unwritten bytes stay 0xFF, as on erased flash). */
export function parseIntelHex(text: string, capacity: number): Uint8Array {
  const image = new Uint8Array(capacity).fill(0xff);
  let base = 0;
  let sawEof = false;
  const lines = text.split(/\r?\n/);
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n]!.trim();
    if (line === '') continue;
    const at = n + 1;
    if (sawEof) throw new IntelHexError(at, 'a record after the end-of-file record');
    const bytes = recordBytes(line, at);
    const [count, hi, lo, type] = bytes as unknown as [number, number, number, number];
    const data = bytes.subarray(4, 4 + count);
    if (type === REC_DATA) {
      const addr = base + ((hi << 8) | lo);
      if (addr + count > capacity) throw new IntelHexError(at, `data at 0x${addr.toString(16)} lies beyond the ${capacity}-byte flash`);
      image.set(data, addr);
    } else if (type === REC_EOF) {
      sawEof = true;
    } else if (type === REC_EXT_SEGMENT || type === REC_EXT_LINEAR) {
      if (count !== 2) throw new IntelHexError(at, `an address record must hold 2 bytes, not ${count}`);
      const v = (data[0]! << 8) | data[1]!;
      base = type === REC_EXT_SEGMENT ? v << 4 : v * 0x10000;
    } else {
      throw new IntelHexError(at, `record type ${type} is not used by an AVR image`);
    }
  }
  if (!sawEof) throw new IntelHexError(lines.length, 'no end-of-file record (the file is cut short)');
  return image;
}

/** The bytes of one record, its length and checksum verified. */
function recordBytes(line: string, at: number): Uint8Array {
  if (!line.startsWith(':')) throw new IntelHexError(at, 'does not start with ":"');
  const hex = line.slice(1);
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(hex)) throw new IntelHexError(at, 'is not an even number of hex digits');
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  if (bytes.length < 5 || bytes.length !== bytes[0]! + 5)
    throw new IntelHexError(at, `holds ${bytes.length} bytes where its count field promises ${(bytes[0] ?? 0) + 5}`);
  let sum = 0;
  for (const b of bytes) sum += b;
  if ((sum & 0xff) !== 0) throw new IntelHexError(at, 'checksum does not match');
  return bytes;
}
