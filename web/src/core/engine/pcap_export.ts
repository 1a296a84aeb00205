// Classic pcap of one link's frames (draft-ietf-opsawg-pcap): a 24-byte file header, then a
// 16-byte record header per packet. Microsecond timestamps, little-endian, as
// wasm/sim/pcap.c writes it; LINKTYPE_RAW (101: the packet begins with the IPv4 header) for
// a serial or NFC link, LINKTYPE_ETHERNET (1) for an Ethernet link, as the engine's pcapng
// says. The pcapng export (several links, comments) comes from the engine itself.
import type { TraceFrame } from './trace_types.ts';

const PCAP_MAGIC_US = 0xa1b2c3d4;
const LINKTYPE_RAW = 101;
const LINKTYPE_ETHERNET = 1;
const FILE_HDR = 24;
const REC_HDR = 16;

/** `ethernet`: the frames are of an Ethernet link. */
export function classicPcap(frames: readonly TraceFrame[], ethernet: boolean): Uint8Array {
  const size = frames.reduce((n, f) => n + REC_HDR + f.bytes.length, FILE_HDR);
  const out = new Uint8Array(size);
  const v = new DataView(out.buffer);
  v.setUint32(0, PCAP_MAGIC_US, true);
  v.setUint16(4, 2, true); // version 2.4
  v.setUint16(6, 4, true);
  v.setUint32(16, 65535, true); // snaplen
  v.setUint32(20, ethernet ? LINKTYPE_ETHERNET : LINKTYPE_RAW, true);
  let off = FILE_HDR;
  for (const f of frames) {
    v.setUint32(off, Math.floor(f.tSent / 1e6), true);
    v.setUint32(off + 4, f.tSent % 1e6, true);
    v.setUint32(off + 8, f.bytes.length, true);
    v.setUint32(off + 12, f.bytes.length, true);
    out.set(f.bytes, off + REC_HDR);
    off += REC_HDR + f.bytes.length;
  }
  return out;
}
