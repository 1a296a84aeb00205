// The details tree of one frame of an analysed capture, layer by layer as Wireshark shows
// it: Frame, Raw packet data, IPv4 (with fragment and reassembly lines), then TCP, UDP or
// ICMP with what the capture pass learnt (relative numbers, analysis, echo pairing), the
// payload, and "[Malformed Packet: X]" where the data ran out.
import { icmpNode } from './icmp.ts';
import { parseIpv4 } from './ipv4.ts';
import type { Dissection } from './index.ts';
import { dataNode, payloadNode, appProtocol } from './ports.ts';
import type { CaptureAnalysis } from './packet_list.ts';
import type { Decoded } from './dissect.ts';
import { verifyChecksums } from './checksums.ts';
import { printedAnalysis } from './columns.ts';
import { quotedHeaders } from './quoted.ts';
import { tcpNode } from './tcp_tree.ts';
import { TCP_A_KEEP_ALIVE, TCP_A_OUT_OF_ORDER, TCP_A_RETRANSMISSION, TCP_A_SPURIOUS_RETRANSMISSION } from './tcp_analysis.ts';
import { TH_RST } from './tcp.ts';
import { field, generated, malformedNode } from './tree.ts';
import type { DetailNode, PacketRow } from './types.ts';
import { udpNode } from './udp.ts';

export function frameDetails(a: CaptureAnalysis, no: number): Dissection {
  const rec = no >= 1 && no <= a.frames.length ? a.record(no - 1) : undefined;
  const row = a.rows[no - 1];
  const frame = a.frames[no - 1];
  if (!rec || !row || !frame) throw new RangeError(`no frame ${no}`);
  const b = frame.bytes;
  const d = a.decoded(no - 1);
  verifyChecksums(b, d);
  const tree: DetailNode[] = [frameNode(no, b.length, row, d)];
  const sources: Dissection['sources'] = [];
  tree.push({ label: 'Raw packet data', range: [0, 0], field: 'raw' });
  if (d.raw) {
    if (d.malformed) tree.push(malformedNode('Raw', 0, b.length));
    else if (b.length) tree.push(dataNode(b, 0, b.length));
    return { tree, row, sources };
  }
  const ip = parseIpv4(b, 0, true);
  const ipNode = ip.node!;
  tree.push(ipNode);
  if (rec.reassembledIn) ipNode.children!.push(generated(`Reassembled IPv4 in frame: ${rec.reassembledIn}`, 'ip.reassembled_in'));
  if (rec.fragments) {
    ipNode.children!.push({
      label: `[${rec.fragments.length} IPv4 Fragments (${d.buf.length} bytes): ${rec.fragments.map((f) => `#${f}`).join(', ')}]`,
      range: [0, 0], generated: true, field: 'ip.fragments',
    });
  }
  if (!ip.header || ip.info || ip.malformed) return { tree, row, sources };
  if (d.fragment) {
    const n = ip.header.end - ip.header.hlen;
    if (n > 0) tree.push({ ...field(`Data (${n} bytes)`, ip.header.hlen, n, 'data') });
    return { tree, row, sources };
  }
  const buf = d.buf;
  const layers: DetailNode[] = [];
  if (d.tcp) {
    if (d.tcp.stage !== 'none') {
      const ta = printedAnalysis(d.tcp, rec.tcp);
      layers.push(tcpNode(buf, d.tcp, { r: rec.tcp, ta, inError: false }));
      const h = d.tcp;
      if (h.stage === 'full' && !h.malformed && !h.bogusHlen && h.haveSegLen && h.payloadLen > 0 && !(h.flags & TH_RST)) {
        const skip = ta ? ta.flags & (TCP_A_RETRANSMISSION | TCP_A_OUT_OF_ORDER | TCP_A_SPURIOUS_RETRANSMISSION | TCP_A_KEEP_ALIVE) : 0;
        if (!(ta && ta.flags & TCP_A_SPURIOUS_RETRANSMISSION)) {
          layers.push(payloadNode(buf, h.payloadOff, h.payloadLen, skip ? null : appProtocol(h.sport, h.dport)));
        }
      }
    } else layers.push(malformedNode('TCP', d.tcp.off, d.tcp.avail));
  } else if (d.udp) {
    const u = d.udp;
    if (!u.noPorts) layers.push(udpNode(u, rec.udpStream, false));
    else layers.push(malformedNode('UDP', u.off, u.avail));
    if (!u.noPorts && !u.malformed && !u.badLength && u.payloadLen > 0) {
      layers.push(payloadNode(buf, u.payloadOff, u.payloadLen, appProtocol(u.sport, u.dport)));
    }
  } else if (d.icmp) {
    const m = d.icmp;
    const node = icmpNode(buf, m, rec.echo, (off, len) => quotedNodes(buf, off, len));
    if (m.malformed) node.children!.push(malformedNode('ICMP', m.off, m.avail));
    layers.push(node);
  }
  if (d.reassembled) {
    for (const n of layers) markSource(n, 1);
    sources.push({ name: `Reassembled IPv4 (${buf.length} bytes)`, bytes: buf });
  }
  tree.push(...layers);
  return { tree, row, sources };
}

/** The quoted datagram of an ICMP error: its IP header and whatever follows. */
function quotedNodes(b: Uint8Array, off: number, len: number): DetailNode[] {
  const q = quotedHeaders(b, off, len);
  const out: DetailNode[] = [];
  const view = b.subarray(0, off + len);
  const ip = parseIpv4(view, off, true);
  if (ip.node) out.push(ip.node);
  if (q.tcp && q.tcp.stage !== 'none') out.push(tcpNode(view, q.tcp, { r: null, ta: null, inError: true }));
  if (q.udp && !q.udp.noPorts) out.push(udpNode(q.udp, undefined, true));
  if (q.icmp) out.push(icmpNode(view, q.icmp, undefined, () => []));
  return out;
}

function frameNode(no: number, len: number, row: PacketRow, d: Decoded): DetailNode {
  const bitsTxt = `${len} bytes (${len * 8} bits)`;
  const protos = ['raw'];
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
  return { label: `Frame ${no}: ${len} bytes on wire (${len * 8} bits), ${len} bytes captured (${len * 8} bits)`, range: [0, len], field: 'frame', children: kids };
}

function markSource(n: DetailNode, src: number): void {
  if (!n.generated) n.src = src;
  if (n.children) for (const c of n.children) markSource(c, src);
}
