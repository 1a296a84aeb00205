// The fields the packet list's display filter knows, named as Wireshark names them. Header
// values come from the capture's facts (filter_facts.ts); what the analysis computes
// (tcp.stream, relative numbers, tcp.analysis.*) from the packet rows. A getter returns
// undefined when the frame lacks the field (Wireshark: a test on an absent field is
// false), a number, or two (ip.addr, tcp.port: a match on either counts).
import { HAS_ICMP, HAS_IP, HAS_TCP, HAS_TCP_HDR, HAS_UDP, HAS_UDP_LEN, IP_DF, IP_MF, type Facts } from './filter_facts.ts';

export type FieldType = 'protocol' | 'number' | 'ipv4' | 'bool';
export type FieldValue = number | readonly number[] | undefined;

export interface FilterField {
  type: FieldType;
  get(f: Facts, i: number): FieldValue;
}

type Getter = FilterField['get'];

/** A header field present when the frame has the layer `bit`. */
const when =
  (bit: number, read: Getter): Getter =>
  (f, i) =>
    f.has[i]! & bit ? read(f, i) : undefined;
const presence =
  (bit: number): Getter =>
  (f, i) =>
    f.has[i]! & bit ? 1 : undefined;
const num = (get: Getter): FilterField => ({ type: 'number', get });

/** tcp.flags.* bits, RFC 9293 3.1 and RFC 3168; Wireshark's names. */
const TCP_FLAG_BITS: [string, number][] = [
  ['fin', 0x01],
  ['syn', 0x02],
  ['reset', 0x04],
  ['push', 0x08],
  ['ack', 0x10],
  ['urg', 0x20],
  ['ece', 0x40],
  ['cwr', 0x80],
  ['ae', 0x100],
];

/** The tcp.analysis.* flag fields, present when the analysis raised them. */
const ANALYSIS_FLAGS = [
  'retransmission',
  'fast_retransmission',
  'spurious_retransmission',
  'out_of_order',
  'lost_segment',
  'ack_lost_segment',
  'duplicate_ack',
  'zero_window',
  'zero_window_probe',
  'zero_window_probe_ack',
  'window_full',
  'window_update',
  'keep_alive',
  'keep_alive_ack',
  'reused_ports',
];

const row = (f: Facts, i: number) => f.rows[i]!;

export const FIELDS: Record<string, FilterField> = {
  frame: { type: 'protocol', get: () => 1 },
  'frame.number': num((f, i) => row(f, i).no),
  'frame.len': num((f, i) => row(f, i).length),
  'frame.cap_len': num((f, i) => row(f, i).length),
  'frame.time_relative': num((f, i) => row(f, i).timeS),

  eth: { type: 'protocol', get: (f, i) => (f.eth[i] ? 1 : undefined) },
  arp: { type: 'protocol', get: (f, i) => (f.arp[i] ? 1 : undefined) },
  'arp.opcode': num((f, i) => (f.arp[i] ? f.arpOp[i] : undefined)),

  ip: { type: 'protocol', get: presence(HAS_IP) },
  'ip.src': { type: 'ipv4', get: when(HAS_IP, (f, i) => f.src[i]) },
  'ip.dst': { type: 'ipv4', get: when(HAS_IP, (f, i) => f.dst[i]) },
  'ip.addr': { type: 'ipv4', get: when(HAS_IP, (f, i) => [f.src[i]!, f.dst[i]!]) },
  'ip.ttl': num(when(HAS_IP, (f, i) => f.ttl[i])),
  'ip.id': num(when(HAS_IP, (f, i) => f.ipId[i])),
  'ip.len': num(when(HAS_IP, (f, i) => f.ipLen[i])),
  'ip.hdr_len': num(when(HAS_IP, (f, i) => f.ihl[i])),
  'ip.proto': num(when(HAS_IP, (f, i) => f.proto[i])),
  'ip.dsfield': num(when(HAS_IP, (f, i) => f.tos[i])),
  'ip.flags.df': { type: 'bool', get: when(HAS_IP, (f, i) => (f.has[i]! & IP_DF ? 1 : 0)) },
  'ip.flags.mf': { type: 'bool', get: when(HAS_IP, (f, i) => (f.has[i]! & IP_MF ? 1 : 0)) },
  'ip.frag_offset': num(when(HAS_IP, (f, i) => f.fragOff[i])),

  tcp: { type: 'protocol', get: presence(HAS_TCP) },
  'tcp.srcport': num(when(HAS_TCP, (f, i) => f.sport[i])),
  'tcp.dstport': num(when(HAS_TCP, (f, i) => f.dport[i])),
  'tcp.port': num(when(HAS_TCP, (f, i) => [f.sport[i]!, f.dport[i]!])),
  'tcp.stream': num((f, i) => row(f, i).tcp?.stream),
  'tcp.len': num((f, i) => row(f, i).tcp?.len ?? (f.has[i]! & HAS_TCP_HDR && f.tcpLen[i]! >= 0 ? f.tcpLen[i] : undefined)),
  'tcp.seq': num(when(HAS_TCP_HDR, (f, i) => row(f, i).tcp?.seqRel ?? f.seq[i])),
  'tcp.seq_raw': num(when(HAS_TCP_HDR, (f, i) => f.seq[i])),
  // Wireshark adds tcp.ack only when the ACK flag is set.
  'tcp.ack': num(when(HAS_TCP_HDR, (f, i) => (f.tcpFlags[i]! & 0x10 ? (row(f, i).tcp?.ackRel ?? f.ack[i]) : undefined))),
  'tcp.ack_raw': num(when(HAS_TCP_HDR, (f, i) => (f.tcpFlags[i]! & 0x10 ? f.ack[i] : undefined))),
  'tcp.nxtseq': num((f, i) => row(f, i).tcp?.nextSeqRel),
  'tcp.hdr_len': num(when(HAS_TCP_HDR, (f, i) => f.thl[i])),
  'tcp.flags': num(when(HAS_TCP_HDR, (f, i) => f.tcpFlags[i])),
  'tcp.window_size_value': num(when(HAS_TCP_HDR, (f, i) => f.win[i])),
  'tcp.window_size': num((f, i) => {
    const t = row(f, i).tcp;
    return t && t.win >= 0 ? t.win : undefined;
  }),
  'tcp.urgent_pointer': num(when(HAS_TCP_HDR, (f, i) => f.urp[i])),
  'tcp.analysis.flags': { type: 'protocol', get: (f, i) => (row(f, i).flags.length ? 1 : undefined) },
  'tcp.analysis.acks_frame': num((f, i) => row(f, i).tcp?.acksFrame),
  'tcp.analysis.ack_rtt': num((f, i) => row(f, i).tcp?.ackRttS),
  'tcp.analysis.bytes_in_flight': num((f, i) => row(f, i).tcp?.bytesInFlight),
  'tcp.analysis.rto': num((f, i) => row(f, i).tcp?.rtoS),
  'tcp.analysis.rto_frame': num((f, i) => row(f, i).tcp?.rtoFrame),
  'tcp.analysis.duplicate_ack_num': num((f, i) => row(f, i).tcp?.dupAckNum),
  'tcp.analysis.duplicate_ack_frame': num((f, i) => row(f, i).tcp?.dupAckFrame),

  udp: { type: 'protocol', get: presence(HAS_UDP) },
  'udp.srcport': num(when(HAS_UDP, (f, i) => f.sport[i])),
  'udp.dstport': num(when(HAS_UDP, (f, i) => f.dport[i])),
  'udp.port': num(when(HAS_UDP, (f, i) => [f.sport[i]!, f.dport[i]!])),
  'udp.length': num(when(HAS_UDP_LEN, (f, i) => f.udpLen[i])),
  'udp.stream': num((f, i) => (f.udpStream[i]! >= 0 ? f.udpStream[i] : undefined)),

  icmp: { type: 'protocol', get: presence(HAS_ICMP) },
  'icmp.type': num(when(HAS_ICMP, (f, i) => f.icmpType[i])),
  'icmp.code': num(when(HAS_ICMP, (f, i) => f.icmpCode[i])),
  'icmp.resp_in': num((f, i) => row(f, i).icmp?.respIn),
  'icmp.resp_to': num((f, i) => row(f, i).icmp?.respTo),
  'icmp.resp_not_found': { type: 'protocol', get: (f, i) => (row(f, i).icmp?.noResponse ? 1 : undefined) },

  echo: { type: 'protocol', get: (f, i) => (row(f, i).protocol === 'ECHO' ? 1 : undefined) },
  _ws: { type: 'protocol', get: (f, i) => (row(f, i).malformed ? 1 : undefined) },
  '_ws.malformed': { type: 'protocol', get: (f, i) => (row(f, i).malformed ? 1 : undefined) },
};

for (const [name, bit] of TCP_FLAG_BITS) {
  FIELDS[`tcp.flags.${name}`] = { type: 'bool', get: when(HAS_TCP_HDR, (f, i) => (f.tcpFlags[i]! & bit ? 1 : 0)) };
}
for (const name of ANALYSIS_FLAGS) {
  const full = `tcp.analysis.${name}`;
  FIELDS[full] = { type: 'protocol', get: (f, i) => (row(f, i).flags.includes(full) ? 1 : undefined) };
}

/** Field names for the filter box's suggestions, sorted. */
export const FIELD_NAMES: readonly string[] = Object.keys(FIELDS)
  .filter((n) => !n.startsWith('_'))
  .sort();
