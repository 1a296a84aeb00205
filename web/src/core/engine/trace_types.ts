// The trace as TypeScript reads it: docs/trace-format.md, wasm/sim/trace_rec.h.
import { TRACE_FIELDS } from './trace_fields.ts';

export const NONE = 0xffffffff;

/** Each link type's configuration as the engine built it, defaults applied (wasm/sim/
 *  world_link.c world_link_describe_config), its fields named as schema.json names them. */
export interface WorldLinkConfigs {
  serial: { framing: 'slip' | 'cslip' | 'slip6'; leading_end: boolean; baud: number; bits_per_char: number };
  nfc: {
    chunk_bytes: number;
    chunk_overhead: number;
    pkt_overhead: number;
    slot_period_us: number;
    slot_air_us: number;
    uart_baud: number;
    uart_bits_per_char: number;
  };
  ethernet: { rate_bps: number; delay_us: number };
  external: { framing: 'slip' | 'slip6' };
}

export interface WorldDescription {
  format: number;
  seed: number;
  duration_us: number;
  hosts: { name: string; addr: string; prefix: number; link: number }[];
  bridges: { name: string }[];
  links: {
    name: string;
    type: keyof WorldLinkConfigs;
    a: number;
    b: number;
    mtu: number;
    capture_interface: number;
    description: string;
    config: WorldLinkConfigs[keyof WorldLinkConfigs];
  }[];
  trace_kinds: string[];
  drop_reasons: string[];
  drop_reason_texts: string[];
  /** retransmission causes as people read them ("fast retransmit") */
  retx_causes: string[];
  /** the same causes as code names them (trace.h TCP_RETX_CAUSES): switch on these */
  retx_cause_names: RetxCauseName[];
  tcp_states: string[];
}

/** The names of trace.h's TCP_RETX_CAUSES, in the description's retx_cause_names. */
export type RetxCauseName = 'rto' | 'syn_rto' | 'fast' | 'partial_ack' | 'fin_rto' | 'sack_loss';

export const enum Fate {
  Delivered = 0,
  Dropped = 1,
  Unfinished = 2,
  InFlight = 3,
  /** Not known yet: the frame is on its way (no TREC_FATE record seen). */
  Pending = 255,
}

export const FAULT_CORRUPTED = 1;
export const FAULT_DUPLICATE = 2;
export const FAULT_DELAYED = 4;

/** One datagram's passage over one link: TREC_FRAME joined with its TREC_FATE. */
export interface TraceFrame {
  id: number;
  parent: number;
  tSent: number;
  link: number;
  dir: 0 | 1;
  /** enum tcp_retx_cause when the sender re-sent data, else 255. */
  retx: number;
  faults: number;
  node: number;
  orig: number;
  cause: number;
  queue: number;
  rule: number;
  /** the frame as captured: an IPv4 datagram on serial and NFC links, an Ethernet II
   *  frame on Ethernet links (`ethernet`) */
  bytes: Uint8Array;
  ethernet: boolean;
  /** the IPv4 datagram the frame carries: `bytes` on serial and NFC links, what follows
   *  the Ethernet header otherwise (padding included; empty for ARP and other types) */
  dgram: Uint8Array;
  fate: Fate;
  reason: number;
  tWire: number;
  tWireEnd: number;
  tEnd: number;
  slots: number;
  wireLen: number;
  firstSlot: number;
}

export interface TraceEvent {
  time: number;
  seq: number;
  kind: number;
  host: number;
  conn: number;
  lport: number;
  rport: number;
  /** the kind's fields, positional: read them by name with traceField() */
  a: number;
  b: number;
  c: number;
  d: number;
  cause: number;
}

/** A trace kind's name ("tcp.retransmit"), and the names of its fields (trace.h). */
export type TraceKindName = keyof typeof TRACE_FIELDS;
export type TraceFieldName<K extends TraceKindName> = keyof (typeof TRACE_FIELDS)[K];

/** Field `name` of event e, which the caller knows to be of kind `kind`:
 *  traceField(e, 'tcp.retransmit', 'cause'). */
export function traceField<K extends TraceKindName>(e: TraceEvent, kind: K, name: TraceFieldName<K>): number {
  const slot = TRACE_FIELDS[kind][name] as 'a' | 'b' | 'c' | 'd';
  return e[slot];
}

export const enum LinkEventKind {
  Queue = 1,
  NfcSlots = 2,
  ModuleBusy = 3,
  ModuleFree = 4,
  /** end b's frame (NFC, channel "a_first") pauses for `value` slots from `time` on */
  NfcPause = 5,
}

export interface TraceLinkEvent {
  time: number;
  link: number;
  dir: number;
  kind: LinkEventKind;
  value: number;
  frame: number;
}

export interface TraceAppRecord {
  time: number;
  host: number;
  app: number;
  /** 0: a line of output, 1: the final report, 2: bytes a tcp_client received (`data`). */
  kind: AppRecordKind;
  done: boolean;
  error: number;
  bytes: number;
  elapsedUs: number;
  /** The line or the report's text; for data, the bytes decoded as UTF-8 (lossy: use `data`). */
  text: string;
  /** kind 2 only: the bytes as received, any bytes. */
  data?: Uint8Array;
}

export const enum AppRecordKind {
  Line = 0,
  Report = 1,
  Data = 2,
}
