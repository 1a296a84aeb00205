// The types of a scenario that passed validateScenario(): docs/scenario-format.md, written by
// hand to match schema.json, so a change to one is a change to both. Optional fields are the
// ones with a default (or, for a fault's p / nth / delay_us and a match's fields, the ones
// that may be absent); applyDefaults() turns a Scenario into a ResolvedScenario in which
// every field with a default is present.

import type { Reference } from './reference.ts';

/** Host, bridge or link name: [a-z][a-z0-9_-]*, at most 15 characters, one namespace. */
export type NodeName = string;
/** What an app talks to: a host's name, or an IPv4 address "a.b.c.d" (a peer outside the scenario). */
export type Peer = string;

export type TcpCc = 'none' | 'fixed' | 'reno' | 'newreno';
export type TcpRto = 'rfc6298' | 'vj_ticks' | 'fixed' | 'nfc_alg1';
export type TcpDelack = 'off' | 'standard' | 'nfc';

/** The link model of the nfc_alg1 RTO estimator (struct tcp_nfc_model). */
export interface TcpNfcModel {
  uart_baud?: number;
  uart_bits_per_byte?: number;
  chunk_payload?: number;
  slot_ms?: number;
  max_slot_wait_ms?: number;
  rtt_wifi_ms?: number;
  round_ms?: number;
  r_window?: number;
  frame_overhead?: number;
}

/** Overrides of struct host_config; absent fields keep the C defaults. */
export interface StackConfig {
  ip_ttl?: number;
  ip_frag?: boolean;
  ip_reass_timeout_ms?: number;
  icmp_unreachable?: boolean;
  tcp_max_pcbs?: number;
  tcp_mss?: number;
  tcp_snd_buf?: number;
  tcp_rcv_buf?: number;
  tcp_ooo?: boolean;
  tcp_cc?: TcpCc;
  tcp_initial_cwnd?: number;
  tcp_max_cwnd?: number;
  tcp_cwnd_inc?: number;
  tcp_dupack_thresh?: number;
  tcp_rto?: TcpRto;
  tcp_rto_initial_ms?: number;
  tcp_rto_min_ms?: number;
  tcp_rto_max_ms?: number;
  tcp_timer_tick_ms?: number;
  tcp_fast_tick_ms?: number;
  tcp_timer_phase_ms?: number;
  tcp_delack?: TcpDelack;
  tcp_delack_ms?: number;
  tcp_time_wait_ms?: number;
  tcp_syn_retries?: number;
  tcp_max_retries?: number;
  tcp_nagle?: boolean;
  tcp_timestamps?: boolean;
  tcp_sack?: boolean;
  tcp_channel_sensing?: boolean;
  tcp_small_queues?: number;
  tcp_eifel?: boolean;
  tcp_nfc?: TcpNfcModel;
  tcp_responder?: boolean;
  tcp_responder_conns?: number;
  tcp_responder_wnd?: number;
}

export interface Host {
  name: NodeName;
  /** "a.b.c.d/len" */
  addr: string;
  stack?: StackConfig;
}

export interface Bridge {
  name: NodeName;
  /** hold datagrams for an NFC link while its module here is busy */
  channel_sensing?: boolean;
}

export type FaultAction = 'drop' | 'corrupt' | 'duplicate' | 'delay';
export type FaultDir = 'ab' | 'ba' | 'both';

export interface FaultMatch {
  from?: NodeName;
  to?: NodeName;
  proto?: 'icmp' | 'tcp' | 'udp';
  /** letters of "SAFRPU" that must all be set */
  tcp_flags?: string;
  payload?: boolean;
  port?: number;
  min_len?: number;
  max_len?: number;
}

/** Exactly one of p and nth; delay_us present iff action is "delay"; count only with nth. */
export interface Fault {
  action: FaultAction;
  p?: number;
  nth?: number;
  count?: number;
  dir?: FaultDir;
  delay_us?: number;
  match?: FaultMatch;
}

interface LinkBase {
  name: NodeName;
  a: NodeName;
  faults?: Fault[];
}

export interface SerialLink extends LinkBase {
  type: 'serial';
  b: NodeName;
  baud: number;
  bits_per_char?: number;
  framing?: 'slip' | 'cslip' | 'slip6';
  leading_end?: boolean;
  qlen?: number;
  mtu?: number;
  /** one value for both directions, or [ab, ba] */
  latency_us?: number | [number, number];
}

export interface NfcLink extends LinkBase {
  type: 'nfc';
  b: NodeName;
  rate_kbps?: 212 | 424;
  /** absent: 14 at 212 kbps, 30 at 424 kbps */
  chunk_bytes?: number;
  chunk_overhead?: number;
  pkt_overhead?: number;
  slot_period_us?: number;
  slot_air_us?: number;
  slot_phase_us?: number;
  lead_us?: number;
  uart_baud?: number;
  uart_bits_per_char?: number;
  qlen?: number;
  mtu?: number;
  /** slot: a chunk each way in every slot; packet: one packet on the channel at a time */
  channel?: 'slot' | 'packet';
  /** [end a, end b] bytes: 0 = one packet, discard while holding it; N = buffer N bytes
   * while waiting for slots, discard only while transmitting */
  module_buffer?: [number, number];
}

export interface EthernetLink extends LinkBase {
  type: 'ethernet';
  b: NodeName;
  rate_bps?: number;
  delay_us?: number;
  jitter_us?: number;
  qlen?: number;
  mtu?: number;
}

/** Real-time mode: host a speaks SLIP to the caller's serial port; there is no b. */
export interface ExternalLink extends LinkBase {
  type: 'external';
  framing?: 'slip' | 'slip6';
  mtu?: number;
}

export type Link = SerialLink | NfcLink | EthernetLink | ExternalLink;
export type LinkType = Link['type'];

interface AppBase {
  host: NodeName;
  start_ms?: number;
}

export interface PingApp extends AppBase {
  type: 'ping';
  to: Peer;
  /** 0: until the run ends */
  count?: number;
  size?: number;
  interval_ms?: number;
  timeout_ms?: number;
}

export interface TcpEchoServerApp extends AppBase {
  type: 'tcp_echo_server';
  port?: number;
}

export interface TcpDiscardServerApp extends AppBase {
  type: 'tcp_discard_server';
  port?: number;
  /** bytes each connection reads before it stops reading for pause_ms */
  pause_after?: number;
  /** how long each connection reads nothing, once (0: never) */
  pause_ms?: number;
}

export interface UdpEchoServerApp extends AppBase {
  type: 'udp_echo_server';
  port?: number;
}

export interface UdpDiscardServerApp extends AppBase {
  type: 'udp_discard_server';
  port?: number;
}

export interface TcpEchoClientApp extends AppBase {
  type: 'tcp_echo_client';
  to: Peer;
  port?: number;
  bytes: number;
  send_only?: boolean;
  /** Parallel connections sharing `bytes` (1 .. 64, at most bytes and the host's tcp_max_pcbs). */
  connections?: number;
}

export interface BulkSenderApp extends AppBase {
  type: 'bulk_sender';
  to: Peer;
  port?: number;
  bytes: number;
}

export interface BulkReceiverApp extends AppBase {
  type: 'bulk_receiver';
  port?: number;
}

export interface Round {
  req: number;
  resp: number;
  /** the client's pause before this round's request */
  think_ms?: number;
  /** the client writes the request in two writes, the first of split bytes (0: one write) */
  split?: number;
}

export interface ReqrespClientApp extends AppBase {
  type: 'reqresp_client';
  to: Peer;
  port?: number;
  /** 0: ephemeral */
  local_port?: number;
  rounds: Round[];
}

export interface ReqrespServerApp extends AppBase {
  type: 'reqresp_server';
  port?: number;
  rounds: Round[];
}

export interface TcpClientApp extends AppBase {
  type: 'tcp_client';
  to: Peer;
  port: number;
  /** close as soon as connected: a port probe */
  probe?: boolean;
}

export type App =
  | PingApp
  | TcpEchoServerApp
  | TcpDiscardServerApp
  | UdpEchoServerApp
  | UdpDiscardServerApp
  | TcpEchoClientApp
  | BulkSenderApp
  | BulkReceiverApp
  | ReqrespClientApp
  | ReqrespServerApp
  | TcpClientApp;
export type AppType = App['type'];

export interface Scenario {
  version: 1;
  name: string;
  title: string;
  description?: string;
  seed?: number;
  duration_ms: number;
  hosts: Host[];
  bridges?: Bridge[];
  links: Link[];
  apps?: App[];
  /** absent: every link, in the order of links */
  capture?: NodeName[];
  /** A replay's seed figures (reference.ts); the engine ignores it. */
  reference?: Reference;
}

// ---- The same with every default filled in (applyDefaults). ----

// Distributes over a union, so each link or app variant keeps its own `type`.
type AllRequired<T> = T extends unknown ? Required<T> : never;

export type ResolvedStackConfig = Required<Omit<StackConfig, 'tcp_nfc'>> & {
  tcp_nfc: Required<TcpNfcModel>;
};

export interface ResolvedHost {
  name: NodeName;
  addr: string;
  stack: ResolvedStackConfig;
}

interface ResolvedFaultBase {
  action: FaultAction;
  dir: FaultDir;
  /** present iff action is "delay" */
  delay_us?: number;
  match: FaultMatch;
}

/** Random (p) or targeted (nth, with its count); tell them apart with `'p' in fault`. */
export type ResolvedFault = (ResolvedFaultBase & { p: number }) | (ResolvedFaultBase & { nth: number; count: number });

export type ResolvedLink = AllRequired<Link> extends infer L
  ? L extends Link
    ? Omit<L, 'faults'> & { faults: ResolvedFault[] }
    : never
  : never;
export type ResolvedSerialLink = Extract<ResolvedLink, { type: 'serial' }>;
export type ResolvedNfcLink = Extract<ResolvedLink, { type: 'nfc' }>;
export type ResolvedEthernetLink = Extract<ResolvedLink, { type: 'ethernet' }>;
export type ResolvedExternalLink = Extract<ResolvedLink, { type: 'external' }>;

export type ResolvedRound = Required<Round>;

export type ResolvedApp = AllRequired<App> extends infer A
  ? A extends { rounds: Round[] }
    ? Omit<A, 'rounds'> & { rounds: ResolvedRound[] }
    : A
  : never;

export interface ResolvedScenario {
  version: 1;
  name: string;
  title: string;
  description: string;
  seed: number;
  duration_ms: number;
  hosts: ResolvedHost[];
  bridges: Bridge[];
  links: ResolvedLink[];
  apps: ResolvedApp[];
  capture: NodeName[];
}
