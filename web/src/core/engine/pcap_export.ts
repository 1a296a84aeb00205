// Classic pcap of one link's frames (draft-ietf-opsawg-pcap): a 24-byte file header, then a
// 16-byte record header per packet. Microsecond timestamps, little-endian, as
// wasm/sim/pcap.c writes it; LINKTYPE_RAW (101: the packet begins with the IPv4 header) for
// a serial or NFC link, LINKTYPE_ETHERNET (1) for an Ethernet link, as the engine's pcapng
// says. Written in pieces, header then records, so a long run's file never sits whole in
// memory. The pcapng export (several links, comments) comes from the engine itself.
import { LINKTYPE_ETHERNET, LINKTYPE_RAW } from '../packets/capture_format.ts';
const PCAP_MAGIC_US = 0xa1b2c3d4;
const FILE_HDR = 24;
const REC_HDR = 16;

/** The file header (4 of draft-ietf-opsawg-pcap): the file's first 24 bytes; `ethernet`:
 *  the frames are of an Ethernet link. */
export function pcapFileHeader(ethernet: boolean): Uint8Array {
  const out = new Uint8Array(FILE_HDR);
  const v = new DataView(out.buffer);
  v.setUint32(0, PCAP_MAGIC_US, true);
  v.setUint16(4, 2, true); // version 2.4
  v.setUint16(6, 4, true);
  v.setUint32(16, 65535, true); // snaplen
  v.setUint32(20, ethernet ? LINKTYPE_ETHERNET : LINKTYPE_RAW, true);
  return out;
}

/** One packet record (5 of draft-ietf-opsawg-pcap): sent at `tSentUs`, every byte captured. */
export function pcapRecord(tSentUs: number, bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(REC_HDR + bytes.length);
  const v = new DataView(out.buffer);
  v.setUint32(0, Math.floor(tSentUs / 1e6), true);
  v.setUint32(4, tSentUs % 1e6, true);
  v.setUint32(8, bytes.length, true);
  v.setUint32(12, bytes.length, true);
  out.set(bytes, REC_HDR);
  return out;
}
