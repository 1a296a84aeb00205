// Hand-built IPv4 datagrams for tests: IPv4, TCP (with options), UDP and ICMP with correct
// checksums unless a test asks for a bad one. Written independently of the dissectors
// (straight from RFC 791, 9293, 768 and 792) so the dissectors are checked against it.
import { inetChecksum, onesSum } from '../bytes.ts';

export function ipBytes(addr: string): number[] {
  const p = addr.split('.').map(Number);
  if (p.length !== 4 || p.some((x) => !(x >= 0 && x <= 255))) throw new Error(`bad address ${addr}`);
  return p;
}

export interface Ipv4Spec {
  src: string;
  dst: string;
  proto: number;
  payload: Uint8Array;
  id?: number;
  ttl?: number;
  tos?: number;
  df?: boolean;
  mf?: boolean;
  /** fragment offset in bytes (multiple of 8) */
  fragOffset?: number;
  /** IP options, a multiple of 4 bytes */
  options?: Uint8Array;
  badChecksum?: boolean;
  /** overrides the total length field */
  totalLength?: number;
}

export function ipv4(s: Ipv4Spec): Uint8Array {
  const optLen = s.options?.length ?? 0;
  const hlen = 20 + optLen;
  const out = new Uint8Array(hlen + s.payload.length);
  out[0] = 0x40 | (hlen / 4);
  out[1] = s.tos ?? 0;
  const total = s.totalLength ?? out.length;
  out[2] = total >> 8;
  out[3] = total & 0xff;
  const id = s.id ?? 0x1234;
  out[4] = id >> 8;
  out[5] = id & 0xff;
  const frag = (s.df ? 0x4000 : 0) | (s.mf ? 0x2000 : 0) | ((s.fragOffset ?? 0) / 8);
  out[6] = frag >> 8;
  out[7] = frag & 0xff;
  out[8] = s.ttl ?? 64;
  out[9] = s.proto;
  out.set(ipBytes(s.src), 12);
  out.set(ipBytes(s.dst), 16);
  if (s.options) out.set(s.options, 20);
  let ck = inetChecksum(out, 0, hlen);
  if (s.badChecksum) ck = (ck + 1) & 0xffff;
  out[10] = ck >> 8;
  out[11] = ck & 0xff;
  out.set(s.payload, hlen);
  return out;
}

function pseudoSum(src: string, dst: string, proto: number, len: number): number {
  const a = new Uint8Array([...ipBytes(src), ...ipBytes(dst)]);
  return onesSum(a, 0, 8) + proto + len;
}

// TCP flags, RFC 9293 3.1 (and RFC 3168 for ECE/CWR).
export const F = { FIN: 0x01, SYN: 0x02, RST: 0x04, PSH: 0x08, ACK: 0x10, URG: 0x20, ECE: 0x40, CWR: 0x80, AE: 0x100 };

/** Flags from letters: S SYN, A ACK, F FIN, R RST, P PSH, U URG, E ECE, C CWR. */
export function flags(s: string): number {
  let f = 0;
  for (const c of s) {
    const v = ({ S: F.SYN, A: F.ACK, F: F.FIN, R: F.RST, P: F.PSH, U: F.URG, E: F.ECE, C: F.CWR } as Record<string, number>)[c];
    if (v === undefined) throw new Error(`unknown flag ${c}`);
    f |= v;
  }
  return f;
}

export const opt = {
  eol: (): number[] => [0],
  nop: (): number[] => [1],
  mss: (v: number): number[] => [2, 4, v >> 8, v & 0xff],
  ws: (shift: number): number[] => [3, 3, shift],
  sackPerm: (): number[] => [4, 2],
  sack: (blocks: [number, number][]): number[] => {
    const o = [5, 2 + 8 * blocks.length];
    for (const [l, r] of blocks) o.push(...be32(l), ...be32(r));
    return o;
  },
  ts: (val: number, ecr: number): number[] => [8, 10, ...be32(val), ...be32(ecr)],
};

function be32(v: number): number[] {
  return [(v >>> 24) & 0xff, (v >>> 16) & 0xff, (v >>> 8) & 0xff, v & 0xff];
}

/** Pads options with EOL/zeros to a multiple of 4 bytes. */
export function options(...parts: number[][]): Uint8Array {
  const flat = parts.flat();
  while (flat.length % 4) flat.push(0);
  return new Uint8Array(flat);
}

export interface TcpSpec {
  src: string;
  dst: string;
  sport: number;
  dport: number;
  seq: number;
  ack: number;
  flags: number | string;
  win?: number;
  urg?: number;
  options?: Uint8Array;
  payload?: Uint8Array | number;
  badChecksum?: boolean;
  ip?: Partial<Ipv4Spec>;
}

export function payloadOf(p: Uint8Array | number | undefined): Uint8Array {
  if (p === undefined) return new Uint8Array(0);
  if (typeof p !== 'number') return p;
  const b = new Uint8Array(p);
  for (let i = 0; i < p; i++) b[i] = 0x61 + (i % 26);
  return b;
}

export function tcpSegment(s: TcpSpec): Uint8Array {
  const opts = s.options ?? new Uint8Array(0);
  const data = payloadOf(s.payload);
  const hlen = 20 + opts.length;
  const seg = new Uint8Array(hlen + data.length);
  const dv = new DataView(seg.buffer);
  dv.setUint16(0, s.sport);
  dv.setUint16(2, s.dport);
  dv.setUint32(4, s.seq >>> 0);
  dv.setUint32(8, s.ack >>> 0);
  const fl = typeof s.flags === 'string' ? flags(s.flags) : s.flags;
  dv.setUint16(12, ((hlen / 4) << 12) | (fl & 0x1ff));
  dv.setUint16(14, s.win ?? 65535);
  dv.setUint16(18, s.urg ?? 0);
  seg.set(opts, 20);
  seg.set(data, hlen);
  let ck = inetChecksum(seg, 0, seg.length, pseudoSum(s.src, s.dst, 6, seg.length));
  if (s.badChecksum) ck = (ck + 1) & 0xffff;
  dv.setUint16(16, ck);
  return seg;
}

export function tcp(s: TcpSpec): Uint8Array {
  return ipv4({ ...s.ip, src: s.src, dst: s.dst, proto: 6, payload: tcpSegment(s) });
}

export interface UdpSpec {
  src: string;
  dst: string;
  sport: number;
  dport: number;
  payload?: Uint8Array | number;
  zeroChecksum?: boolean;
  badChecksum?: boolean;
  ip?: Partial<Ipv4Spec>;
}

export function udpDatagram(s: UdpSpec): Uint8Array {
  const data = payloadOf(s.payload);
  const d = new Uint8Array(8 + data.length);
  const dv = new DataView(d.buffer);
  dv.setUint16(0, s.sport);
  dv.setUint16(2, s.dport);
  dv.setUint16(4, d.length);
  d.set(data, 8);
  if (!s.zeroChecksum) {
    let ck = inetChecksum(d, 0, d.length, pseudoSum(s.src, s.dst, 17, d.length));
    if (ck === 0) ck = 0xffff; // RFC 768: a computed zero is sent as all ones
    if (s.badChecksum) ck = (ck + 1) & 0xffff;
    dv.setUint16(6, ck);
  }
  return d;
}

export function udp(s: UdpSpec): Uint8Array {
  return ipv4({ ...s.ip, src: s.src, dst: s.dst, proto: 17, payload: udpDatagram(s) });
}

export interface IcmpSpec {
  src: string;
  dst: string;
  type: number;
  code?: number;
  /** the 4 bytes after the checksum: identifier and sequence for echo (RFC 792) */
  rest?: number;
  payload?: Uint8Array | number;
  badChecksum?: boolean;
  ip?: Partial<Ipv4Spec>;
}

export function icmpMessage(s: IcmpSpec): Uint8Array {
  const data = payloadOf(s.payload);
  const m = new Uint8Array(8 + data.length);
  const dv = new DataView(m.buffer);
  m[0] = s.type;
  m[1] = s.code ?? 0;
  dv.setUint32(4, (s.rest ?? 0) >>> 0);
  m.set(data, 8);
  let ck = inetChecksum(m, 0, m.length);
  if (s.badChecksum) ck = (ck + 1) & 0xffff;
  dv.setUint16(2, ck);
  return m;
}

export function icmp(s: IcmpSpec): Uint8Array {
  return ipv4({ ...s.ip, src: s.src, dst: s.dst, proto: 1, payload: icmpMessage(s) });
}

/** Echo request (type 8) or reply (type 0) with identifier and sequence number. */
export function echo(src: string, dst: string, reply: boolean, id: number, seq: number, payload: Uint8Array | number = 56, ip?: Partial<Ipv4Spec>): Uint8Array {
  return icmp({ src, dst, type: reply ? 0 : 8, rest: ((id & 0xffff) << 16) | (seq & 0xffff), payload, ip: ip ?? {} });
}

/** An ICMP error (type 3, 11, ...) quoting the IP header and first 8 payload bytes of
 *  `original` (RFC 792), or all of it when `quoteAll`. */
export function icmpError(src: string, dst: string, type: number, code: number, original: Uint8Array, quoteAll = false): Uint8Array {
  const hlen = (original[0]! & 0x0f) * 4;
  const quoted = quoteAll ? original : original.subarray(0, Math.min(original.length, hlen + 8));
  return icmp({ src, dst, type, code, payload: quoted });
}
