// The datagram an ICMP error quotes (RFC 792: its IP header and at least the first 8 bytes
// of its payload, RFC 1812 4.3.2.3: as much as fits), read as Wireshark reads an "error
// packet": the headers only, no segment length, no analysis, and running out of bytes is
// not an error.
import { IP_PROTO_ICMP, IP_PROTO_TCP, IP_PROTO_UDP, parseIpv4, type Ipv4Result } from './ipv4.ts';
import { parseIcmp, type IcmpMessage } from './icmp.ts';
import { parseTcp, type TcpHeader } from './tcp.ts';
import { parseUdp, type UdpHeader } from './udp.ts';

export interface Quoted {
  off: number;
  len: number;
  ip: Ipv4Result | null;
  tcp: TcpHeader | null;
  udp: UdpHeader | null;
  icmp: IcmpMessage | null;
}

export function quotedHeaders(b: Uint8Array, off: number, len: number): Quoted {
  const q: Quoted = { off, len, ip: null, tcp: null, udp: null, icmp: null };
  if (len < 1) return q;
  // Read within the quote only: a view ending where the ICMP message ends.
  const view = b.subarray(0, off + len);
  const ip = parseIpv4(view, off, false);
  q.ip = ip;
  const h = ip.header;
  if (!h || h.mf || h.fragOffset > 0) return q;
  const tOff = off + h.hlen;
  const avail = h.end - tOff;
  if (avail <= 0) return q;
  if (h.proto === IP_PROTO_TCP) q.tcp = parseTcp(view, tOff, avail, true);
  else if (h.proto === IP_PROTO_UDP) q.udp = parseUdp(view, tOff, avail, true);
  else if (h.proto === IP_PROTO_ICMP) q.icmp = parseIcmp(view, tOff, avail, true);
  return q;
}
