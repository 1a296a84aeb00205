// A minimal pcapng writer for tests (draft-ietf-opsawg-pcapng): one Section Header Block,
// one Interface Description Block with LINKTYPE_RAW (101, raw IPv4, no link header), or
// LINKTYPE_ETHERNET (1) when the frames are Ethernet's, and the default microsecond
// resolution, then one Enhanced Packet Block per frame.
// Little-endian throughout, as the byte-order magic says.
import { BT_EPB, BT_IDB, BT_SHB, BYTE_ORDER_MAGIC, LINKTYPE_ETHERNET, LINKTYPE_RAW } from '../capture_format.ts';
import type { CapturedFrame } from '../types.ts';

function pad4(n: number): number {
  return (n + 3) & ~3;
}

export function writePcapng(frames: readonly CapturedFrame[]): Uint8Array {
  const shbLen = 28;
  const idbLen = 20;
  let total = shbLen + idbLen;
  for (const f of frames) total += 32 + pad4(f.bytes.length);
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  let o = 0;
  // Section Header Block: type, length, magic, version 1.0, section length -1 (unknown).
  dv.setUint32(o, BT_SHB, true);
  dv.setUint32(o + 4, shbLen, true);
  dv.setUint32(o + 8, BYTE_ORDER_MAGIC, true);
  dv.setUint16(o + 12, 1, true);
  dv.setUint16(o + 14, 0, true);
  dv.setInt32(o + 16, -1, true);
  dv.setInt32(o + 20, -1, true);
  dv.setUint32(o + 24, shbLen, true);
  o += shbLen;
  // Interface Description Block: link type, reserved, snap length 0 (no limit).
  dv.setUint32(o, BT_IDB, true);
  dv.setUint32(o + 4, idbLen, true);
  dv.setUint16(o + 8, frames[0]?.ethernet ? LINKTYPE_ETHERNET : LINKTYPE_RAW, true);
  dv.setUint16(o + 10, 0, true);
  dv.setUint32(o + 12, 0, true);
  dv.setUint32(o + 16, idbLen, true);
  o += idbLen;
  for (const f of frames) {
    const len = 32 + pad4(f.bytes.length);
    const ts = BigInt(Math.round(f.timeUs));
    dv.setUint32(o, BT_EPB, true);
    dv.setUint32(o + 4, len, true);
    dv.setUint32(o + 8, 0, true); // interface 0
    dv.setUint32(o + 12, Number(ts >> 32n), true);
    dv.setUint32(o + 16, Number(ts & 0xffffffffn), true);
    dv.setUint32(o + 20, f.bytes.length, true); // captured length
    dv.setUint32(o + 24, f.bytes.length, true); // original length
    out.set(f.bytes, o + 28);
    dv.setUint32(o + len - 4, len, true);
    o += len;
  }
  return out;
}
