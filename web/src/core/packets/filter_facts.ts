// The header values the display filter tests, read once per capture into typed arrays:
// filtering 100 000 rows then costs array reads, not a dissection per row per keystroke.
// The IPv4/TCP/UDP/ICMP header offsets are RFC 791/9293/768/792's; the conditions for a
// layer to be present follow the dissectors (web/src/core/packets/dissect.ts): no transport in
// a fragment that does not complete its datagram, TCP/UDP need their 4 port bytes, ICMP
// its first 6 bytes. Values the analysis computes (relative numbers, streams, analysis
// flags) come from the packet rows instead. A frame of an Ethernet link has its IPv4 facts
// read after its 14-byte header, or its ARP opcode (RFC 826).
import { ETH_HLEN, ETHERTYPE_ARP, ETHERTYPE_IPV4 } from './ethernet.ts';
import type { PacketRow } from './types.ts';

/** What the facts are read from: an analysed capture (CaptureAnalysis fits). */
export interface FilterSource {
  rows: readonly PacketRow[];
  frames: readonly { bytes: Uint8Array; ethernet?: boolean }[];
  /** per frame: the reassembled payload of a datagram this frame completed, UDP stream */
  records?: readonly { payload?: Uint8Array; udpStream?: number }[];
}

export const HAS_IP = 1;
export const HAS_TCP = 2; // ports at least
export const HAS_TCP_HDR = 4; // the 20-byte header
export const HAS_UDP = 8;
export const HAS_UDP_LEN = 16;
export const HAS_ICMP = 32;
export const IP_DF = 64;
export const IP_MF = 128;

export interface Facts {
  n: number;
  rows: readonly PacketRow[];
  udpStream: Int32Array; // -1 none
  has: Uint8Array;
  src: Uint32Array;
  dst: Uint32Array;
  ttl: Uint8Array;
  proto: Uint8Array;
  tos: Uint8Array;
  ihl: Uint8Array;
  ipId: Uint16Array;
  ipLen: Uint16Array;
  fragOff: Uint16Array;
  sport: Uint16Array;
  dport: Uint16Array;
  tcpFlags: Uint16Array;
  seq: Uint32Array;
  ack: Uint32Array;
  win: Uint16Array;
  urp: Uint16Array;
  thl: Uint8Array;
  /** TCP payload bytes (datagram end minus headers), UDP length field */
  tcpLen: Int32Array;
  udpLen: Uint16Array;
  icmpType: Uint8Array;
  icmpCode: Uint8Array;
  /** 1 for a frame of an Ethernet link */
  eth: Uint8Array;
  /** 1 for an ARP packet (an Ethernet frame of EtherType ARP with its 8-byte fixed part) */
  arp: Uint8Array;
  arpOp: Uint16Array;
}

const cache = new WeakMap<FilterSource, Facts>();

/** The facts of a capture, read on first use and kept as long as the capture is. */
export function factsOf(s: FilterSource): Facts {
  let f = cache.get(s);
  if (!f) {
    f = readFacts(s);
    cache.set(s, f);
  }
  return f;
}

const u16 = (b: Uint8Array, o: number): number => (b[o]! << 8) | b[o + 1]!;
const u32 = (b: Uint8Array, o: number): number => ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;

export function readFacts(s: FilterSource): Facts {
  const n = s.rows.length;
  const f: Facts = {
    n,
    rows: s.rows,
    udpStream: new Int32Array(n).fill(-1),
    has: new Uint8Array(n),
    src: new Uint32Array(n),
    dst: new Uint32Array(n),
    ttl: new Uint8Array(n),
    proto: new Uint8Array(n),
    tos: new Uint8Array(n),
    ihl: new Uint8Array(n),
    ipId: new Uint16Array(n),
    ipLen: new Uint16Array(n),
    fragOff: new Uint16Array(n),
    sport: new Uint16Array(n),
    dport: new Uint16Array(n),
    tcpFlags: new Uint16Array(n),
    seq: new Uint32Array(n),
    ack: new Uint32Array(n),
    win: new Uint16Array(n),
    urp: new Uint16Array(n),
    thl: new Uint8Array(n),
    tcpLen: new Int32Array(n),
    udpLen: new Uint16Array(n),
    icmpType: new Uint8Array(n),
    icmpCode: new Uint8Array(n),
    eth: new Uint8Array(n),
    arp: new Uint8Array(n),
    arpOp: new Uint16Array(n),
  };
  const records = s.records; // read once: on CaptureAnalysis it is a getter
  for (let i = 0; i < n; i++) {
    const rec = records?.[i];
    if (rec?.udpStream !== undefined) f.udpStream[i] = rec.udpStream;
    const fr = s.frames[i];
    if (fr?.ethernet) readEthernet(f, i, fr.bytes, rec?.payload);
    else if (fr) readFrame(f, i, fr.bytes, rec?.payload);
  }
  return f;
}

function readEthernet(f: Facts, i: number, b: Uint8Array, reassembled: Uint8Array | undefined): void {
  if (b.length < ETH_HLEN) return;
  f.eth[i] = 1;
  const type = u16(b, 12);
  if (type === ETHERTYPE_IPV4) readFrame(f, i, b.subarray(ETH_HLEN), reassembled);
  else if (type === ETHERTYPE_ARP && b.length >= ETH_HLEN + 8) {
    f.arp[i] = 1;
    f.arpOp[i] = u16(b, ETH_HLEN + 6);
  }
}

function readFrame(f: Facts, i: number, b: Uint8Array, reassembled: Uint8Array | undefined): void {
  if (b.length < 20 || b[0]! >> 4 !== 4) return;
  const ihl = (b[0]! & 15) * 4;
  const total = u16(b, 2);
  if (ihl < 20 || ihl > b.length || total < ihl) return;
  let has = HAS_IP;
  const frag = u16(b, 6);
  if (frag & 0x4000) has |= IP_DF;
  if (frag & 0x2000) has |= IP_MF;
  f.ihl[i] = ihl;
  f.tos[i] = b[1]!;
  f.ipLen[i] = total;
  f.ipId[i] = u16(b, 4);
  f.fragOff[i] = (frag & 0x1fff) * 8;
  f.ttl[i] = b[8]!;
  f.proto[i] = b[9]!;
  f.src[i] = u32(b, 12);
  f.dst[i] = u32(b, 16);
  f.has[i] = has;
  const isFrag = (frag & 0x2000) !== 0 || (frag & 0x1fff) !== 0;
  if (isFrag && !reassembled) return;
  const buf = reassembled ?? b;
  const off = reassembled ? 0 : ihl;
  const avail = reassembled ? reassembled.length : Math.min(total, b.length) - ihl;
  if (avail <= 0) return;
  const proto = b[9]!;
  if (proto === 6 && avail >= 4) {
    has |= HAS_TCP;
    f.sport[i] = u16(buf, off);
    f.dport[i] = u16(buf, off + 2);
    if (avail >= 20) {
      const thl = (buf[off + 12]! >> 4) * 4;
      has |= HAS_TCP_HDR;
      f.seq[i] = u32(buf, off + 4);
      f.ack[i] = u32(buf, off + 8);
      f.thl[i] = thl;
      f.tcpFlags[i] = u16(buf, off + 12) & 0x1ff;
      f.win[i] = u16(buf, off + 14);
      f.urp[i] = u16(buf, off + 18);
      f.tcpLen[i] = thl >= 20 && thl <= avail ? avail - thl : -1;
    }
  } else if (proto === 17 && avail >= 4) {
    has |= HAS_UDP;
    f.sport[i] = u16(buf, off);
    f.dport[i] = u16(buf, off + 2);
    if (avail >= 6) {
      has |= HAS_UDP_LEN;
      f.udpLen[i] = u16(buf, off + 4);
    }
  } else if (proto === 1 && avail >= 6) {
    // Wireshark throws on an ICMP message shorter than 6 bytes before it names the protocol.
    has |= HAS_ICMP;
    f.icmpType[i] = buf[off]!;
    f.icmpCode[i] = buf[off + 1]!;
  }
  f.has[i] = has;
}
