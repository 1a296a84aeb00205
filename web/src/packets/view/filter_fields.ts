// The fields the packet list's display filter knows, named as Wireshark names them, each
// read from a row of the analysis (PacketRow) and the first pass's record (FrameRecord).
// A getter returns undefined when the field is absent from the frame (Wireshark: a test on
// an absent field is false), a number, or several numbers (ip.addr, tcp.port: a match on
// any one counts).
import type { FrameRecord } from '../packet_list.ts';
import type { PacketRow } from '../types.ts';

export type FieldType = 'protocol' | 'number' | 'ipv4' | 'bool';
export type FieldValue = number | readonly number[] | undefined;

export interface FilterField {
  type: FieldType;
  get(row: PacketRow, rec: FrameRecord | undefined): FieldValue;
}

const present = (b: boolean): FieldValue => (b ? 1 : undefined);

function ipHeader(rec: FrameRecord | undefined) {
  return rec?.decoded.ip?.header ?? undefined;
}
/** A TCP header read far enough to have flags (not just ports, not bogus). */
function tcpHeader(rec: FrameRecord | undefined) {
  const h = rec?.decoded.tcp;
  return h && h.stage !== 'none' ? h : undefined;
}
function tcpFull(rec: FrameRecord | undefined) {
  const h = tcpHeader(rec);
  return h && h.stage !== 'ports' ? h : undefined;
}
function udpHeader(rec: FrameRecord | undefined) {
  const u = rec?.decoded.udp;
  return u && !u.noPorts ? u : undefined;
}

/** tcp.flags.* bits, RFC 9293 3.1 and RFC 3168; Wireshark's names. */
const TCP_FLAG_BITS: [string, number][] = [
  ['fin', 0x01], ['syn', 0x02], ['reset', 0x04], ['push', 0x08], ['ack', 0x10], ['urg', 0x20],
  ['ece', 0x40], ['cwr', 0x80], ['ae', 0x100],
];

/** The tcp.analysis.* flag fields, present when the analysis raised them. */
const ANALYSIS_FLAGS = [
  'retransmission', 'fast_retransmission', 'spurious_retransmission', 'out_of_order', 'lost_segment',
  'ack_lost_segment', 'duplicate_ack', 'zero_window', 'zero_window_probe', 'zero_window_probe_ack',
  'window_full', 'window_update', 'keep_alive', 'keep_alive_ack', 'reused_ports',
];

export const FIELDS: Record<string, FilterField> = {
  frame: { type: 'protocol', get: () => 1 },
  'frame.number': { type: 'number', get: (r) => r.no },
  'frame.len': { type: 'number', get: (r) => r.length },
  'frame.cap_len': { type: 'number', get: (r) => r.length },
  'frame.time_relative': { type: 'number', get: (r) => r.timeS },

  ip: { type: 'protocol', get: (_, rec) => present(!!ipHeader(rec)) },
  'ip.src': { type: 'ipv4', get: (_, rec) => ipHeader(rec)?.srcNum },
  'ip.dst': { type: 'ipv4', get: (_, rec) => ipHeader(rec)?.dstNum },
  'ip.addr': {
    type: 'ipv4',
    get: (_, rec) => {
      const h = ipHeader(rec);
      return h ? [h.srcNum, h.dstNum] : undefined;
    },
  },
  'ip.ttl': { type: 'number', get: (_, rec) => ipHeader(rec)?.ttl },
  'ip.id': { type: 'number', get: (_, rec) => ipHeader(rec)?.id },
  'ip.len': { type: 'number', get: (_, rec) => ipHeader(rec)?.totalLength },
  'ip.hdr_len': { type: 'number', get: (_, rec) => ipHeader(rec)?.hlen },
  'ip.proto': { type: 'number', get: (_, rec) => ipHeader(rec)?.proto },
  'ip.dsfield': { type: 'number', get: (_, rec) => ipHeader(rec)?.tos },
  'ip.flags.df': { type: 'bool', get: (_, rec) => bool(ipHeader(rec)?.df) },
  'ip.flags.mf': { type: 'bool', get: (_, rec) => bool(ipHeader(rec)?.mf) },
  'ip.frag_offset': { type: 'number', get: (_, rec) => ipHeader(rec)?.fragOffset },

  tcp: { type: 'protocol', get: (_, rec) => present(!!tcpHeader(rec)) },
  'tcp.srcport': { type: 'number', get: (_, rec) => tcpHeader(rec)?.sport },
  'tcp.dstport': { type: 'number', get: (_, rec) => tcpHeader(rec)?.dport },
  'tcp.port': {
    type: 'number',
    get: (_, rec) => {
      const h = tcpHeader(rec);
      return h ? [h.sport, h.dport] : undefined;
    },
  },
  'tcp.stream': { type: 'number', get: (r) => r.tcp?.stream },
  'tcp.len': { type: 'number', get: (r, rec) => r.tcp?.len ?? (tcpFull(rec)?.haveSegLen ? tcpFull(rec)!.payloadLen : undefined) },
  'tcp.seq': { type: 'number', get: (r, rec) => r.tcp?.seqRel ?? tcpFull(rec)?.seq },
  'tcp.seq_raw': { type: 'number', get: (_, rec) => tcpFull(rec)?.seq },
  // Wireshark adds tcp.ack only when the ACK flag is set.
  'tcp.ack': { type: 'number', get: (r, rec) => (tcpFull(rec) && tcpFull(rec)!.flags & 0x10 ? (r.tcp?.ackRel ?? tcpFull(rec)!.ack) : undefined) },
  'tcp.ack_raw': { type: 'number', get: (_, rec) => (tcpFull(rec) && tcpFull(rec)!.flags & 0x10 ? tcpFull(rec)!.ack : undefined) },
  'tcp.nxtseq': { type: 'number', get: (r) => r.tcp?.nextSeqRel },
  'tcp.hdr_len': { type: 'number', get: (_, rec) => tcpFull(rec)?.hlen },
  'tcp.flags': { type: 'number', get: (_, rec) => tcpFull(rec)?.flags },
  'tcp.window_size_value': { type: 'number', get: (_, rec) => tcpFull(rec)?.win },
  'tcp.window_size': { type: 'number', get: (r) => (r.tcp && r.tcp.win >= 0 ? r.tcp.win : undefined) },
  'tcp.urgent_pointer': { type: 'number', get: (_, rec) => tcpFull(rec)?.urp },
  'tcp.analysis.flags': { type: 'protocol', get: (r) => present(r.flags.length > 0) },
  'tcp.analysis.acks_frame': { type: 'number', get: (r) => r.tcp?.acksFrame },
  'tcp.analysis.ack_rtt': { type: 'number', get: (r) => r.tcp?.ackRttS },
  'tcp.analysis.bytes_in_flight': { type: 'number', get: (r) => r.tcp?.bytesInFlight },
  'tcp.analysis.rto': { type: 'number', get: (r) => r.tcp?.rtoS },
  'tcp.analysis.rto_frame': { type: 'number', get: (r) => r.tcp?.rtoFrame },
  'tcp.analysis.duplicate_ack_num': { type: 'number', get: (r) => r.tcp?.dupAckNum },
  'tcp.analysis.duplicate_ack_frame': { type: 'number', get: (r) => r.tcp?.dupAckFrame },

  udp: { type: 'protocol', get: (_, rec) => present(!!udpHeader(rec)) },
  'udp.srcport': { type: 'number', get: (_, rec) => udpHeader(rec)?.sport },
  'udp.dstport': { type: 'number', get: (_, rec) => udpHeader(rec)?.dport },
  'udp.port': {
    type: 'number',
    get: (_, rec) => {
      const u = udpHeader(rec);
      return u ? [u.sport, u.dport] : undefined;
    },
  },
  'udp.length': { type: 'number', get: (_, rec) => (udpHeader(rec) && udpHeader(rec)!.length >= 0 ? udpHeader(rec)!.length : undefined) },
  'udp.stream': { type: 'number', get: (_, rec) => rec?.udpStream },

  icmp: { type: 'protocol', get: (_, rec) => present(!!rec?.decoded.icmp && rec.decoded.icmp.malformed !== 'early') },
  'icmp.type': { type: 'number', get: (_, rec) => rec?.decoded.icmp?.type },
  'icmp.code': { type: 'number', get: (_, rec) => rec?.decoded.icmp?.code },
  'icmp.resp_in': { type: 'number', get: (r) => r.icmp?.respIn },
  'icmp.resp_to': { type: 'number', get: (r) => r.icmp?.respTo },
  'icmp.resp_not_found': { type: 'protocol', get: (r) => present(!!r.icmp?.noResponse) },

  echo: { type: 'protocol', get: (r) => present(r.protocol === 'ECHO') },
  _ws: { type: 'protocol', get: (r) => present(!!r.malformed) },
  '_ws.malformed': { type: 'protocol', get: (r) => present(!!r.malformed) },
};

function bool(v: boolean | undefined): FieldValue {
  return v === undefined ? undefined : v ? 1 : 0;
}

for (const [name, bit] of TCP_FLAG_BITS) {
  FIELDS[`tcp.flags.${name}`] = { type: 'bool', get: (_, rec) => bool(tcpFull(rec) ? (tcpFull(rec)!.flags & bit) !== 0 : undefined) };
}
for (const name of ANALYSIS_FLAGS) {
  const full = `tcp.analysis.${name}`;
  FIELDS[full] = { type: 'protocol', get: (r) => present(r.flags.includes(full)) };
}

/** Field names for the filter box's suggestions, sorted. */
export const FIELD_NAMES: readonly string[] = Object.keys(FIELDS).filter((n) => !n.startsWith('_')).sort();
