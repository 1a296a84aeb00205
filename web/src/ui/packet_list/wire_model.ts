// "On the wire": a frame as its link carried it, worked out from the datagram, the trace's
// timing and the link's configuration. Serial framings are re-encoded (slip_wire.ts);
// CSLIP's compressed header is not in the trace, so only its size is told, from the wire
// length; NFC shows the packet cut into chunks, one per slot; Ethernet the frame's parts.
import { LinkEventKind, type TraceFrame, type TraceLinkEvent } from '../../core/engine/trace_types.ts';
import type { LinkConfig } from './link_info.ts';
import { inferLeadingEnd, slip6Encode, slip6EncodedLen, slipEncode, slipEncodedLen, slipEscapes, type WireByte } from '../../core/packets/slip_wire.ts';

export interface SerialWire {
  kind: 'slip' | 'slip6';
  bytes: WireByte[];
  leadingEnd: boolean;
  ends: number;
  escapes: number;
  /** bytes on the line (the trace's, or the encoder's if the frame never reached it) */
  wireLen: number;
  /** bit times on the line, µs (0 if the rate is unknown) */
  lineUs: number;
  /** the trace's wire length differs from the encoder's (should not happen) */
  mismatch: boolean;
}

export interface CslipWire {
  kind: 'cslip';
  datagramLen: number;
  wireLen: number;
  /** what plain SLIP would have put on the line for the same datagram */
  slipLen: number;
  /** the datagram went whole (TYPE_IP or UNCOMPRESSED_TCP): same size as SLIP */
  whole: boolean;
  /** TCP/IP header bytes the datagram has, and the compressed header's bytes on the line */
  headerLen: number;
  compressedLen: number | null;
  lineUs: number;
}

export interface NfcChunk {
  index: number;
  /** packet bytes [from, to) this chunk carries */
  from: number;
  to: number;
  slotStart: number;
  slotEnd: number;
}

export interface NfcWire {
  kind: 'nfc';
  datagramLen: number;
  packetLen: number;
  pktOverhead: number;
  chunkBytes: number;
  chunkOverhead: number;
  payloadPerChunk: number;
  slots: number;
  /** slots the other end's packets took in between ("a_first" channel), 0 if none */
  pausedSlots: number;
  periodUs: number;
  airUs: number;
  /** the packet's time on the sender's UART to its module, µs */
  uartUs: number;
  chunks: NfcChunk[];
  wireLen: number;
}

export interface EthernetWire {
  kind: 'ethernet';
  /** what follows the 14-byte header: an IPv4 datagram or an ARP packet, padded if the
   *  frame was captured as received */
  payloadLen: number;
  preamble: number;
  header: number;
  padding: number;
  fcs: number;
  frameLen: number;
  gap: number;
  total: number;
  lineUs: number;
  wireLen: number;
}

export type WireModel = SerialWire | CslipWire | NfcWire | EthernetWire | { kind: 'unknown' };

/** Bytes of the IP and TCP headers of a TCP datagram (what CSLIP compresses), or 0. */
export function tcpIpHeaderLen(d: Uint8Array): number {
  if (d.length < 20 || d[0]! >> 4 !== 4 || d[9] !== 6) return 0;
  const ihl = (d[0]! & 15) * 4;
  if (d.length < ihl + 20) return 0;
  return ihl + (d[ihl + 12]! >> 4) * 4;
}

export function serialWire(f: TraceFrame, framing: 'slip' | 'slip6', leadingEndCfg: boolean, baud: number, bitsPerChar: number): SerialWire {
  const d = f.bytes;
  const lenWithout = framing === 'slip' ? slipEncodedLen(d, false) : slip6EncodedLen(d.length, false);
  const leadingEnd = inferLeadingEnd(f.wireLen, lenWithout, leadingEndCfg);
  const bytes = framing === 'slip' ? slipEncode(d, leadingEnd) : slip6Encode(d, leadingEnd);
  const wireLen = f.wireLen || bytes.length;
  return {
    kind: framing,
    bytes,
    leadingEnd,
    ends: leadingEnd ? 2 : 1,
    escapes: framing === 'slip' ? slipEscapes(d) : 0,
    wireLen,
    lineUs: baud > 0 ? (wireLen * bitsPerChar * 1e6) / baud : 0,
    mismatch: f.wireLen > 0 && f.wireLen !== bytes.length,
  };
}

export function cslipWire(f: TraceFrame, leadingEnd: boolean, baud: number, bitsPerChar: number): CslipWire {
  const d = f.bytes;
  const slipLen = slipEncodedLen(d, leadingEnd);
  const headerLen = tcpIpHeaderLen(d);
  const whole = f.wireLen === 0 || f.wireLen === slipLen;
  let compressedLen: number | null = null;
  if (!whole && headerLen) {
    // The payload travels as it is, escapes and all; the rest of the line is the header.
    const payloadOnLine = d.length - headerLen + slipEscapes(d, headerLen);
    compressedLen = f.wireLen - (leadingEnd ? 2 : 1) - payloadOnLine;
  }
  const wireLen = f.wireLen || slipLen;
  return {
    kind: 'cslip',
    datagramLen: d.length,
    wireLen,
    slipLen,
    whole,
    headerLen,
    compressedLen,
    lineUs: baud > 0 ? (wireLen * bitsPerChar * 1e6) / baud : 0,
  };
}

/** The trace's pauses of frame `id` (NFC, channel "a_first"), in time order. */
export function nfcPausesOf(linkEvents: readonly TraceLinkEvent[], id: number): TraceLinkEvent[] {
  return linkEvents.filter((e) => e.kind === LinkEventKind.NfcPause && e.frame === id).sort((a, b) => a.time - b.time);
}

/** `pauses`: the frame's pauses in time order (nfcPausesOf). */
export function nfcWire(f: TraceFrame, c: Extract<LinkConfig, { type: 'nfc' }>, pauses: readonly TraceLinkEvent[] = []): NfcWire {
  const packetLen = f.bytes.length + c.pktOverhead;
  const payloadPerChunk = Math.max(1, c.chunkBytes - c.chunkOverhead);
  const periodUs = c.slotPeriodUs || 10_000;
  const chunks: NfcChunk[] = [];
  // A packet's slots follow one another once it has the channel, but with channel "a_first"
  // end b's packet skips the slots end a's packets take meanwhile (wasm/sim/link_nfc.h, 5):
  // the trace's pauses.
  if (f.firstSlot || f.slots) {
    let slotStart = f.firstSlot;
    let p = 0;
    for (let i = 0; i < f.slots; i++, slotStart += periodUs) {
      for (; p < pauses.length && pauses[p]!.time <= slotStart; p++) slotStart = Math.max(slotStart, pauses[p]!.time + pauses[p]!.value * periodUs);
      chunks.push({ index: i + 1, from: i * payloadPerChunk, to: Math.min(packetLen, (i + 1) * payloadPerChunk), slotStart, slotEnd: slotStart + c.slotAirUs });
    }
  }
  return {
    kind: 'nfc',
    datagramLen: f.bytes.length,
    packetLen,
    pktOverhead: c.pktOverhead,
    chunkBytes: c.chunkBytes,
    chunkOverhead: c.chunkOverhead,
    payloadPerChunk,
    slots: f.slots,
    pausedSlots: pauses.reduce((n, p) => n + p.value, 0),
    periodUs,
    airUs: c.slotAirUs,
    uartUs: c.uartBaud > 0 ? (packetLen * c.uartBitsPerChar * 1e6) / c.uartBaud : 0,
    chunks,
    wireLen: f.wireLen,
  };
}

/** IEEE 802.3 (wasm/sim/link_eth.h): the captured frame (header 14 and its payload) with
 *  the payload padded to 46 + FCS 4, min 64, with 8 bytes of preamble and SFD before and a
 *  12-byte gap after. A frame captured as received is padded already. */
export function ethernetWire(f: TraceFrame, rateBps: number): EthernetWire {
  const n = Math.max(0, f.bytes.length - 14);
  const padding = Math.max(0, 46 - n);
  const frameLen = 14 + n + padding + 4;
  const total = 8 + frameLen + 12;
  return {
    kind: 'ethernet',
    payloadLen: n,
    preamble: 8,
    header: 14,
    padding,
    fcs: 4,
    frameLen,
    gap: 12,
    total,
    lineUs: rateBps > 0 ? (total * 8 * 1e6) / rateBps : 0,
    wireLen: f.wireLen,
  };
}

/** `nfcPauses`: an NFC frame's pauses (nfcPausesOf). */
export function wireModel(f: TraceFrame, c: LinkConfig, nfcPauses: readonly TraceLinkEvent[] = []): WireModel {
  switch (c.type) {
    case 'serial':
      if (c.framing === 'cslip') return cslipWire(f, c.leadingEnd, c.baud, c.bitsPerChar);
      return serialWire(f, c.framing, c.leadingEnd, c.baud, c.bitsPerChar);
    case 'external':
      return serialWire(f, c.framing, true, 0, 10);
    case 'nfc':
      return nfcWire(f, c, nfcPauses);
    case 'ethernet':
      return ethernetWire(f, c.rateBps);
    default:
      return { kind: 'unknown' };
  }
}

/** "delivered", "dropped: <reason>", ... for the frame's fate line. */
export function fateText(f: TraceFrame, dropTexts: readonly string[]): string {
  switch (f.fate as number) {
    case 0:
      return 'delivered';
    case 1:
      return `dropped: ${dropTexts[f.reason] ?? `reason ${f.reason}`}`;
    case 2:
      return 'unfinished (its END never came before the run ended)';
    case 3:
      return 'in flight at the end of the run';
    default:
      return 'on its way';
  }
}
