// One link's pcapng, cut from the file the engine writes (wasm/sim/pcapng.c: one section,
// one interface per captured link). Wireshark keys a TCP conversation by addresses and
// ports alone, so in the file of every link a bridge's copy of a segment on its second link
// reads as a retransmission of the first; in a file of one link it cannot. The blocks kept
// are copied byte for byte (packet bytes, link type, comments, direction flags); only the
// Interface ID of each packet changes, to 0 (draft-ietf-opsawg-pcapng 4.2: the first
// Interface Description Block of a section is interface 0).
import { BT_EPB, BT_IDB, BT_SHB, BYTE_ORDER_MAGIC } from '../packets/capture_format.ts';
import type { WorldDescription } from './trace_types.ts';

/** Block Type, Block Total Length, ..., Block Total Length (3.1) */
const MIN_BLOCK = 12;
/** offset of an Enhanced Packet Block's Interface ID (4.3) */
const EPB_IFACE = 8;

export class PcapngError extends Error {}

/** The pcapng of link `link` of the run alone: the engine's file `pcapng` cut to that
 *  link's interface. Throws when the scenario does not capture the link. */
export function linkPcapng(pcapng: Uint8Array, world: Pick<WorldDescription, 'links'>, link: number): Uint8Array {
  const l = world.links[link];
  if (!l) throw new PcapngError(`no link ${link} (the run has ${world.links.length})`);
  if (l.capture_interface < 0) throw new PcapngError(`link ${l.name} is not in the scenario's capture list, so the engine wrote no interface for it`);
  return pcapngInterface(pcapng, l.capture_interface);
}

/** The Section Header Block, interface `iface`'s Interface Description Block and that
 *  interface's packets, renumbered as interface 0. */
export function pcapngInterface(file: Uint8Array, iface: number): Uint8Array {
  const dv = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const kept: { at: number; len: number; epb: boolean }[] = [];
  let interfaces = 0;
  if (blockType(dv, 0) !== BT_SHB) throw new PcapngError('pcapng: byte 0: not a Section Header Block');
  for (let at = 0; at < file.length;) {
    const type = blockType(dv, at);
    const len = blockLength(dv, at);
    if (type === BT_SHB) checkSection(dv, at);
    else if (type === BT_IDB) interfaces++;
    else if (type !== BT_EPB) throw new PcapngError(`pcapng: byte ${at}: block type 0x${type.toString(16)} is not one the engine writes (SHB, IDB, EPB)`);
    const mine = type === BT_SHB || (type === BT_IDB && interfaces - 1 === iface) || (type === BT_EPB && dv.getUint32(at + EPB_IFACE, true) === iface);
    if (mine) kept.push({ at, len, epb: type === BT_EPB });
    at += len;
  }
  if (iface >= interfaces) throw new PcapngError(`pcapng: no interface ${iface} (the file has ${interfaces})`);
  const out = new Uint8Array(kept.reduce((n, b) => n + b.len, 0));
  const ov = new DataView(out.buffer);
  let o = 0;
  for (const b of kept) {
    out.set(file.subarray(b.at, b.at + b.len), o);
    if (b.epb) ov.setUint32(o + EPB_IFACE, 0, true);
    o += b.len;
  }
  return out;
}

function blockType(dv: DataView, at: number): number {
  if (at + MIN_BLOCK > dv.byteLength) throw new PcapngError(`pcapng: byte ${at}: a block cut short (${dv.byteLength - at} bytes left)`);
  return dv.getUint32(at, true);
}

/** 3.1: the length opens and closes the block, and is a multiple of 4. */
function blockLength(dv: DataView, at: number): number {
  const len = dv.getUint32(at + 4, true);
  if (len < MIN_BLOCK || len % 4 !== 0 || at + len > dv.byteLength || dv.getUint32(at + len - 4, true) !== len)
    throw new PcapngError(`pcapng: byte ${at}: bad Block Total Length ${len}`);
  return len;
}

/** One little-endian section, as the engine writes it (4.1). */
function checkSection(dv: DataView, at: number): void {
  if (at !== 0) throw new PcapngError(`pcapng: byte ${at}: a second section (the engine writes one)`);
  if (dv.getUint32(at + 8, true) !== BYTE_ORDER_MAGIC) throw new PcapngError(`pcapng: byte ${at + 8}: not a little-endian section`);
}
