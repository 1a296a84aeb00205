// One frame, decoded layer by layer without building a tree: the raw-IP frame or the
// Ethernet II header (then ARP or IPv4), IPv4, then TCP, UDP or ICMP (or the reassembled
// datagram a last fragment completes). The packet list runs this on every frame;
// details.ts turns the same result into the tree.
//
// Malformed input never throws: each layer says how far Wireshark would have got, and the
// frame carries the name of the layer that ran off the end ("[Malformed Packet: TCP]").
import { ipProtoLongName, ipProtoName, IP_PROTO_ICMP, IP_PROTO_TCP, IP_PROTO_UDP, parseIpv4, type Ipv4Result } from './ipv4.ts';
import { icmpInfo, parseIcmp, type IcmpMessage } from './icmp.ts';
import { parseTcp, type TcpHeader } from './tcp.ts';
import { parseUdp, udpInfo, type UdpHeader } from './udp.ts';
import { appProtocol } from './ports.ts';
import { arpInfo, parseArp, type ArpPacket } from './arp.ts';
import { ETH_HLEN, ETHERTYPE_ARP, ETHERTYPE_IPV4, parseEth, type EthHeader } from './ethernet.ts';

/** Wireshark's raw-IP dissector needs this many bytes before it hands a frame to IPv4. */
export const RAW_MIN_LEN = 8;

export interface Decoded {
  /** frame length */
  len: number;
  /** the frame was too short or not IPv4: "Raw packet data" */
  raw: boolean;
  ip: Ipv4Result | null;
  /** a fragment that does not complete its datagram (Info "Fragmented IP protocol ...") */
  fragment: boolean;
  /** the buffer the transport layer was read from: the frame, or the reassembled payload */
  buf: Uint8Array;
  /** the transport was read from a reassembled datagram */
  reassembled: boolean;
  tcp: TcpHeader | null;
  udp: UdpHeader | null;
  icmp: IcmpMessage | null;
  /** Protocol and Info before TCP analysis and ICMP pairing (TCP's Info is built later) */
  protocol: string;
  info: string;
  /** the layer Wireshark would report as malformed, if any */
  malformed: string | null;
  /** the Ethernet II header of a frame of an Ethernet link, else null */
  eth: EthHeader | null;
  arp: ArpPacket | null;
  /** the bytes the IPv4 layer was read from: the frame, or what follows its Ethernet
   *  header; `ip` and the transport headers' offsets are into these */
  ipBytes: Uint8Array;
}

/** Decodes a frame, of an Ethernet link when `ethernet` (else raw IPv4). `reassembled` is
 *  the datagram payload when this frame completed the reassembly of a fragmented datagram
 *  (found by the capture pass). */
export function decodeFrame(b: Uint8Array, reassembled: Uint8Array | null = null, ethernet = false): Decoded {
  return ethernet ? decodeEthernet(b, reassembled) : decodeRaw(b, reassembled);
}

/** An Ethernet II frame: ARP here, IPv4 as in a raw frame after the 14-byte header. */
function decodeEthernet(b: Uint8Array, reassembled: Uint8Array | null): Decoded {
  const eth = parseEth(b);
  if (eth && eth.type === ETHERTYPE_IPV4) return { ...decodeRaw(b.subarray(ETH_HLEN), reassembled), len: b.length, eth };
  const d = decodeRaw(new Uint8Array(0), null);
  d.len = b.length;
  d.raw = false;
  d.malformed = null;
  d.eth = eth;
  if (!eth) {
    d.protocol = 'Ethernet';
    d.info = '[Malformed Packet]';
    d.malformed = 'Ethernet';
  } else if (eth.type === ETHERTYPE_ARP) {
    d.arp = parseArp(b, ETH_HLEN);
    d.protocol = 'ARP';
    d.info = d.arp ? arpInfo(d.arp) : '[Malformed Packet]';
    if (!d.arp) d.malformed = 'ARP';
  } else {
    d.protocol = `0x${eth.type.toString(16).padStart(4, '0')}`;
    d.info = 'Ethernet II';
  }
  return d;
}

function decodeRaw(b: Uint8Array, reassembled: Uint8Array | null): Decoded {
  const d: Decoded = {
    len: b.length,
    raw: false,
    ip: null,
    fragment: false,
    buf: b,
    reassembled: false,
    tcp: null,
    udp: null,
    icmp: null,
    protocol: 'N/A',
    info: 'Raw packet data',
    malformed: null,
    eth: null,
    arp: null,
    ipBytes: b,
  };
  if (b.length < RAW_MIN_LEN) {
    d.raw = true;
    d.info = 'Raw packet data[Malformed Packet]';
    d.malformed = 'Raw';
    return d;
  }
  if (b[0]! >> 4 !== 4) {
    // Wireshark would try IPv6 for version 6; this stack speaks IPv4 only.
    d.raw = true;
    return d;
  }
  const ip = parseIpv4(b, 0, false);
  d.ip = ip;
  d.protocol = 'IPv4';
  d.info = '';
  if (ip.info) {
    d.info = ip.info;
    return d;
  }
  if (ip.malformed || !ip.header) {
    d.info = '[Malformed Packet]';
    d.malformed = 'IPv4';
    return d;
  }
  const h = ip.header;
  const isFrag = h.mf || h.fragOffset > 0;
  if (isFrag && !reassembled) {
    d.fragment = true;
    d.info = fragmentInfo(h.proto, h.fragOffset, h.id);
    return d;
  }
  let buf = b;
  let off = h.hlen;
  let avail = h.end - h.hlen;
  if (reassembled) {
    buf = reassembled;
    off = 0;
    avail = reassembled.length;
    d.reassembled = true;
  }
  d.buf = buf;
  if (avail <= 0) return d; // Wireshark hands no empty payload to a subdissector
  switch (h.proto) {
    case IP_PROTO_TCP: {
      const t = parseTcp(buf, off, avail, false);
      d.tcp = t;
      if (t.stage === 'none') {
        d.info = '[Malformed Packet]';
        d.malformed = 'TCP';
      } else {
        d.protocol = 'TCP';
        if (t.malformed) d.malformed = 'TCP';
      }
      break;
    }
    case IP_PROTO_UDP: {
      const u = parseUdp(buf, off, avail, false);
      d.udp = u;
      if (u.noPorts) {
        d.info = '[Malformed Packet]';
        d.malformed = 'UDP';
        break;
      }
      d.protocol = 'UDP';
      d.info = udpInfo(u);
      if (u.malformed) d.malformed = 'UDP';
      else if (u.payloadLen > 0) {
        const app = appProtocol(u.sport, u.dport);
        if (app) {
          d.protocol = app.protocol;
          d.info = app.info;
        }
      }
      break;
    }
    case IP_PROTO_ICMP: {
      const m = parseIcmp(buf, off, avail, false);
      d.icmp = m;
      d.protocol = 'ICMP';
      d.info = icmpInfo(m, h.ttl);
      if (m.malformed) d.malformed = 'ICMP';
      break;
    }
    default:
      d.info = `${ipProtoLongName(h.proto)} (${h.proto})`;
  }
  return d;
}

/** "Fragmented IP protocol (proto=UDP 17, off=0, ID=0100)", packet-ip.c's Info for a
 *  fragment that does not complete its datagram. */
export function fragmentInfo(proto: number, offBytes: number, id: number): string {
  return `Fragmented IP protocol (proto=${ipProtoName(proto)} ${proto}, off=${offBytes}, ID=${id.toString(16).padStart(4, '0')})`;
}
