// The details tree of one frame of an analysed capture, layer by layer as Wireshark shows
// it: Frame, Raw packet data or Ethernet II (then ARP, or IPv4 and what follows), IPv4
// (with fragment and reassembly lines), then TCP, UDP or ICMP with what the capture pass
// learnt (relative numbers, analysis, echo pairing), the payload, and "[Malformed Packet:
// X]" where the data ran out.
import { icmpNode, type IcmpMessage } from './icmp.ts';
import { parseIpv4, type Ipv4Header } from './ipv4.ts';
import type { Dissection } from './index.ts';
import { dataNode, payloadNode, appProtocol } from './ports.ts';
import type { AnalysedCapture, FrameRecord } from './packet_list.ts';
import type { Decoded } from './dissect.ts';
import { verifyChecksums } from './checksums.ts';
import { printedAnalysis } from './columns.ts';
import { quotedHeaders } from './quoted.ts';
import { CONTAINED_BOUNDS } from './tcp_options.ts';
import { quotedPayload, tcpNode } from './tcp_tree.ts';
import { TCP_A_KEEP_ALIVE, TCP_A_OUT_OF_ORDER, TCP_A_RETRANSMISSION, TCP_A_SPURIOUS_RETRANSMISSION } from './tcp_analysis.ts';
import { TH_FIN, TH_RST, type TcpHeader } from './tcp.ts';
import { field, generated, hexBytes, malformedNode } from './tree.ts';
import type { CapturedFrame, DetailNode, PacketRow } from './types.ts';
import { arpNode, ARP_LEN } from './arp.ts';
import { ETH_HLEN, ETHERTYPE_ARP, ETHERTYPE_IPV4, ethNode } from './ethernet.ts';
import { udpNode, type UdpHeader } from './udp.ts';

export interface FrameHeaders {
  ip: Ipv4Header | null;
  tcp: TcpHeader | null;
  udp: UdpHeader | null;
  icmp: IcmpMessage | null;
}

export function frameDetails(a: AnalysedCapture, no: number): Dissection {
  const rec = no >= 1 && no <= a.frames.length ? a.record(no - 1) : undefined;
  const row = a.rows[no - 1];
  const frame = a.frames[no - 1];
  if (!rec || !row || !frame) throw new RangeError(`no frame ${no}`);
  const d = a.decoded(no - 1);
  const b = d.ipBytes;
  verifyChecksums(b, d);
  const tree: DetailNode[] = [frameNode(no, frame.bytes.length, row, d)];
  const sources: Dissection['sources'] = [];
  const headers: FrameHeaders = { ip: d.ip?.header ?? null, tcp: d.tcp, udp: d.udp, icmp: d.icmp };
  if (frame.ethernet) tree.push(...ethernetLayers(frame.bytes, d, (ip) => ipLayers(ip, d, rec, frame, sources)));
  else {
    tree.push({ label: 'Raw packet data', range: [0, 0], field: 'raw' });
    if (d.raw) {
      if (d.malformed) tree.push(malformedNode('Raw', 0, b.length));
      else if (b.length) tree.push(dataNode(b, 0, b.length));
    } else tree.push(...ipLayers(b, d, rec, frame, sources));
  }
  return { tree, row, sources, headers };
}

/** An Ethernet frame's layers: Ethernet II (with its padding), then ARP, or IPv4 and what
 *  follows (`ip` builds them on the bytes after the header; their ranges are moved to the
 *  frame's), or the data of another EtherType. */
function ethernetLayers(fb: Uint8Array, d: Decoded, ip: (b: Uint8Array) => DetailNode[]): DetailNode[] {
  if (!d.eth) return [malformedNode('Ethernet', 0, fb.length)];
  if (d.eth.type === ETHERTYPE_IPV4) {
    const used = d.ip?.header ? d.ip.header.end : fb.length - ETH_HLEN;
    const layers = ip(d.ipBytes);
    for (const n of layers) shiftRange(n, ETH_HLEN);
    return [ethNode(fb, used), ...layers];
  }
  if (d.arp) return [ethNode(fb, ARP_LEN), arpNode(fb, d.arp)];
  const out = [ethNode(fb, 0)];
  if (d.malformed) out.push(malformedNode(d.malformed, ETH_HLEN, fb.length - ETH_HLEN));
  else if (fb.length > ETH_HLEN) out.push(dataNode(fb, ETH_HLEN, fb.length - ETH_HLEN));
  return out;
}

/** Moves a subtree's byte ranges into the frame by `by` bytes (those pointing into the
 *  frame; generated lines point nowhere). */
function shiftRange(n: DetailNode, by: number): void {
  if (!n.src && !n.generated) n.range = [n.range[0] + by, n.range[1]];
  for (const c of n.children ?? []) shiftRange(c, by);
}

/** IPv4 and the layers above it, read from b (the raw frame, or an Ethernet frame's
 *  payload). */
function ipLayers(b: Uint8Array, d: Decoded, rec: FrameRecord, frame: CapturedFrame, sources: Dissection['sources']): DetailNode[] {
  const tree: DetailNode[] = [];
  const ip = parseIpv4(b, 0, true);
  const ipNode = ip.node!;
  tree.push(ipNode);
  if (rec.reassembledIn) ipNode.children!.push(generated(`Reassembled IPv4 in frame: ${rec.reassembledIn}`, 'ip.reassembled_in'));
  if (rec.pieces) {
    const pieces = rec.pieces;
    const total = d.buf.length;
    ipNode.children!.push({
      label: `[${pieces.length} IPv4 Fragments (${total} bytes): ${pieces.map((p) => `#${p.frame}(${p.len})`).join(', ')}]`,
      range: [0, 0],
      generated: true,
      field: 'ip.fragments',
      children: [
        ...pieces.map((p) => generated(`Frame: ${p.frame}, payload: ${p.off}-${p.off + p.len - 1} (${p.len} bytes)`, 'ip.fragment')),
        generated(`Fragment count: ${pieces.length}`, 'ip.fragment.count'),
        generated(`Reassembled IPv4 length: ${total}`, 'ip.reassembled.length'),
        generated(`Reassembled IPv4 data: ${hexBytes(d.buf, 0, total)}`, 'ip.reassembled.data'),
      ],
    });
  }
  if (!ip.header || ip.info || ip.malformed) {
    if (ip.malformed) tree.push(malformedNode('IPv4', 0, b.length));
    return tree;
  }
  if (d.fragment) {
    const n = ip.header.end - ip.header.hlen;
    if (n > 0) tree.push(dataNode(b, ip.header.hlen, n));
    return tree;
  }
  const buf = d.buf;
  const layers: DetailNode[] = [];
  if (d.tcp) {
    if (d.tcp.stage !== 'none') {
      const h = d.tcp;
      const ta = printedAnalysis(h, rec.tcp);
      let finInitiates: boolean | undefined;
      if (rec.tcp && h.flags & TH_FIN && ip.header) {
        const conv = rec.tcp.conv;
        finInitiates = !conv.other(conv.fwd(ip.header.srcNum, ip.header.dstNum, h.sport, h.dport)).closingInitiator;
      }
      layers.push(tcpNode(buf, h, { r: rec.tcp, ta, inError: false, finInitiates }));
      // What follows the header: the application's node, or "Data" for keep-alives and
      // ports without a dissector; nothing for retransmitted, out-of-order or spurious data.
      if (h.stage === 'full' && !h.malformed && !h.bogusHlen && h.haveSegLen && h.payloadLen > 0 && !(h.flags & TH_RST)) {
        const f = ta ? ta.flags : 0;
        if (!(f & (TCP_A_RETRANSMISSION | TCP_A_OUT_OF_ORDER | TCP_A_SPURIOUS_RETRANSMISSION))) {
          layers.push(payloadNode(buf, h.payloadOff, h.payloadLen, f & TCP_A_KEEP_ALIVE ? null : appProtocol(h.sport, h.dport)));
        }
      }
    }
  } else if (d.udp) {
    const u = d.udp;
    if (!u.noPorts) layers.push(udpNode(u, rec.udpStream, rec.udpTimes));
    if (!u.noPorts && !u.malformed && u.length >= 8 && u.payloadLen > 0) {
      layers.push(payloadNode(buf, u.payloadOff, u.payloadLen, appProtocol(u.sport, u.dport)));
    }
  } else if (d.icmp && d.icmp.malformed !== 'early') {
    // (An ICMP message shorter than 6 bytes throws before Wireshark adds its node.)
    const m = d.icmp;
    // A quoted UDP payload lands after the ICMP node (a TCP one inside it), as in tshark.
    const after: DetailNode[] = [];
    const node = icmpNode(buf, m, rec.echo, (off, len) => quotedNodes(buf, off, len, rec, after), frame.timeUs);
    layers.push(node, ...after);
  }
  if (!d.tcp && !d.udp && !d.icmp && buf.length > ip.header.hlen && ip.header.end > ip.header.hlen) {
    layers.push(dataNode(buf, ip.header.hlen, ip.header.end - ip.header.hlen)); // a protocol without a dissector
  }
  if (d.reassembled) {
    for (const n of layers) markSource(n, 1);
    sources.push({ name: `Reassembled IPv4 (${buf.length} bytes)`, bytes: buf });
  }
  tree.push(...layers);
  // Wireshark puts "[Malformed Packet: X]" after the layers, for the layer that ran short.
  if (d.malformed) tree.push(malformedNode(d.malformed, 0, b.length, d.tcp?.options?.cut === 'contained' ? CONTAINED_BOUNDS : undefined));
  return tree;
}

/** The quoted datagram of an ICMP error: its IP header and whatever follows. */
function quotedNodes(b: Uint8Array, off: number, len: number, rec: FrameRecord, after: DetailNode[]): DetailNode[] {
  const q = quotedHeaders(b, off, len);
  const out: DetailNode[] = [];
  const view = b.subarray(0, off + len);
  const ip = parseIpv4(view, off, true, true);
  if (ip.node) out.push(ip.node);
  const h = q.tcp;
  if (h && h.stage !== 'none') {
    const r = rec.quotedTcp ?? null;
    let finInitiates: boolean | undefined;
    const qh = q.ip?.header;
    if (r && qh && h.flags & TH_FIN) finInitiates = !r.conv.other(r.conv.fwd(qh.srcNum, qh.dstNum, h.sport, h.dport)).closingInitiator;
    out.push(tcpNode(view, h, { r, ta: printedAnalysis(h, r), inError: true, finInitiates }));
    // Wireshark hands the quoted payload to the port's dissector, or shows it as Data
    // (a RST's is its reset cause).
    const n = quotedPayload(h);
    if (n > 0 && !(h.flags & TH_RST)) out.push(payloadNode(view, h.off + h.hlen, n, appProtocol(h.sport, h.dport)));
  }
  const u = q.udp;
  if (u && !u.noPorts) {
    out.push(udpNode(u, rec.quotedStream));
    if (u.length >= 8 && u.payloadLen > 0) after.push(payloadNode(view, u.payloadOff, u.payloadLen, appProtocol(u.sport, u.dport)));
  }
  if (q.icmp) out.push(icmpNode(view, q.icmp, undefined, () => []));
  return out;
}

function frameNode(no: number, len: number, row: PacketRow, d: Decoded): DetailNode {
  const bitsTxt = `${len} bytes (${len * 8} bits)`;
  const protos = d.eth ? ['eth', 'ethertype'] : ['raw'];
  if (d.eth?.type === ETHERTYPE_ARP) protos.push('arp');
  if (d.ip) protos.push('ip');
  if (d.tcp && d.tcp.stage !== 'none') protos.push('tcp');
  if (d.udp && !d.udp.noPorts) protos.push('udp');
  if (d.icmp) protos.push('icmp');
  if (row.protocol === 'ECHO') protos.push('echo');
  const kids: DetailNode[] = [
    generated(`Time since reference or first frame: ${row.timeS.toFixed(9)} seconds`, 'frame.time_relative'),
    field(`Frame Number: ${no}`, 0, 0, 'frame.number'),
    field(`Frame Length: ${bitsTxt}`, 0, 0, 'frame.len'),
    field(`Capture Length: ${bitsTxt}`, 0, 0, 'frame.cap_len'),
    generated(`Protocols in frame: ${protos.join(':')}`, 'frame.protocols'),
  ];
  if (row.colour.name) kids.push(generated(`Coloring Rule Name: ${row.colour.name}`, 'frame.coloring_rule.name'));
  return {
    label: `Frame ${no}: ${len} bytes on wire (${len * 8} bits), ${len} bytes captured (${len * 8} bits)`,
    range: [0, len],
    field: 'frame',
    children: kids,
  };
}

function markSource(n: DetailNode, src: number): void {
  if (!n.generated) n.src = src;
  if (n.children) for (const c of n.children) markSource(c, src);
}
