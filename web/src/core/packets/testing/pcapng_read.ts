// Reads a pcapng file into frames per interface (for tests on captures the engine wrote):
// Section Header, Interface Description and Enhanced/Simple Packet Blocks, either byte
// order, timestamps with the interface's if_tsresol. The frames of a LINKTYPE_ETHERNET
// interface are marked `ethernet`; the others are raw IPv4.
import { LINKTYPE_ETHERNET } from '../capture_format.ts';
import type { CapturedFrame } from '../types.ts';

export interface PcapngInterface {
  linkType: number;
  name: string;
  frames: CapturedFrame[];
}

export function readPcapng(bytes: Uint8Array): PcapngInterface[] {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ifaces: (PcapngInterface & { unitsPerSecond: number })[] = [];
  let le = true;
  let o = 0;
  while (o + 12 <= bytes.length) {
    let type = dv.getUint32(o, le);
    if (type === 0x0a0d0d0a) {
      le = dv.getUint32(o + 8, true) === 0x1a2b3c4d;
      type = 0x0a0d0d0a;
      ifaces.length = 0; // interface ids restart in a new section
    }
    const len = dv.getUint32(o + 4, le);
    if (len < 12 || o + len > bytes.length) break;
    if (type === 1) {
      const iface = { linkType: dv.getUint16(o + 8, le), name: '', frames: [] as CapturedFrame[], unitsPerSecond: 1e6 };
      // options: code, length, value (padded to 4)
      for (let p = o + 16; p + 4 <= o + len - 4;) {
        const code = dv.getUint16(p, le);
        const olen = dv.getUint16(p + 2, le);
        if (code === 0) break;
        if (code === 2) iface.name = new TextDecoder().decode(bytes.subarray(p + 4, p + 4 + olen));
        if (code === 9) {
          const r = bytes[p + 4]!;
          iface.unitsPerSecond = r & 0x80 ? 2 ** (r & 0x7f) : 10 ** r;
        }
        p += 4 + ((olen + 3) & ~3);
      }
      ifaces.push(iface);
    } else if (type === 6) {
      const iface = ifaces[dv.getUint32(o + 8, le)];
      const ts = dv.getUint32(o + 12, le) * 2 ** 32 + dv.getUint32(o + 16, le);
      const cap = dv.getUint32(o + 20, le);
      if (iface) {
        const data = bytes.slice(o + 28, o + 28 + cap);
        const frame: CapturedFrame = { timeUs: Math.round((ts / iface.unitsPerSecond) * 1e6), bytes: data };
        if (iface.linkType === LINKTYPE_ETHERNET) frame.ethernet = true;
        iface.frames.push(frame);
      }
    }
    o += len;
  }
  return ifaces.map(({ linkType, name, frames }) => ({ linkType, name, frames }));
}
