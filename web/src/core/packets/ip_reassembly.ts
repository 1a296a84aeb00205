// IPv4 reassembly across a capture (RFC 791 section 3.2, RFC 815), as Wireshark does it
// with ip.defragment on: fragments of one datagram (same source, destination, protocol
// and identification) are collected; the frame whose fragment completes the datagram
// shows the reassembled datagram, and every other fragment says "[Reassembled in #N]".
// Wireshark only reassembles fragments whose bytes are all in the frame.
import type { Ipv4Header } from './ipv4.ts';

interface Piece {
  frame: number;
  off: number;
  data: Uint8Array;
}

interface Pending {
  pieces: Piece[];
  /** total payload length, known once the last fragment (MF clear) is seen */
  total: number;
}

export interface ReassemblyResult {
  /** the reassembled payload (after the IP header), when this fragment completed it */
  payload: Uint8Array | null;
  /** the fragments (frame numbers) of the completed datagram, in capture order */
  frames: number[];
  /** the fragments by offset: frame, payload offset, length */
  pieces: { frame: number; off: number; len: number }[];
}

export class Reassembler {
  private readonly pending = new Map<string, Pending>();

  /** Adds the fragment of frame `frame`; returns the datagram payload if it is now whole. */
  add(frame: number, b: Uint8Array, h: Ipv4Header): ReassemblyResult {
    const none: ReassemblyResult = { payload: null, frames: [], pieces: [] };
    if (h.lengthExceeds) return none; // not all of its bytes are in the frame
    const key = `${h.srcNum}>${h.dstNum}:${h.proto}:${h.id}`;
    let p = this.pending.get(key);
    if (!p) {
      p = { pieces: [], total: -1 };
      this.pending.set(key, p);
    }
    const data = b.subarray(h.hlen, h.end);
    p.pieces.push({ frame, off: h.fragOffset, data });
    if (!h.mf) p.total = h.fragOffset + data.length;
    if (p.total < 0 || !covers(p.pieces, p.total)) return none;
    this.pending.delete(key); // a later fragment with this key starts a new datagram
    const out = new Uint8Array(p.total);
    for (const q of p.pieces) out.set(q.data.subarray(0, Math.max(0, Math.min(q.data.length, p.total - q.off))), q.off);
    const pieces = p.pieces.map((q) => ({ frame: q.frame, off: q.off, len: q.data.length })).sort((a, b) => a.off - b.off);
    return { payload: out, frames: p.pieces.map((q) => q.frame), pieces };
  }
}

/** Whether the pieces cover [0, total) without a hole. */
function covers(pieces: Piece[], total: number): boolean {
  const sorted = [...pieces].sort((a, b) => a.off - b.off);
  let reach = 0;
  for (const q of sorted) {
    if (q.off > reach) return false;
    reach = Math.max(reach, q.off + q.data.length);
  }
  return reach >= total;
}
