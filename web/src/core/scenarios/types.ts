// The types of a scenario. The ones as written, with their fields' docs and defaults, are
// generated from schema.json into schema_types.ts (scripts/gen-scenario-types.ts), so the
// schema stays their one source; this file adds the names derived from them and the resolved
// forms, in which applyDefaults() has filled in every field with a default.

import type { App, Bridge, Fault, Host, Link, PingApp, Round, Scenario, StackConfig, TcpNfcModel } from './schema_types.ts';

export type * from './schema_types.ts';

/** What an app talks to: a host's name, or an IPv4 address "a.b.c.d" (a peer outside the scenario). */
export type Peer = PingApp['to'];
export type FaultAction = Fault['action'];
export type LinkType = Link['type'];
export type AppType = App['type'];

// ---- The same with every default filled in (applyDefaults). ----

// Distributes over a union, so each link or app variant keeps its own `type`.
type AllRequired<T> = T extends unknown ? Required<T> : never;

export type ResolvedStackConfig = Required<Omit<StackConfig, 'tcp_nfc'>> & {
  tcp_nfc: Required<TcpNfcModel>;
};

export interface ResolvedHost extends Omit<Host, 'stack'> {
  stack: ResolvedStackConfig;
}

/** A fault's fields with their defaults; delay_us is present iff action is "delay". */
type ResolvedFaultBase = Required<Pick<Fault, 'action' | 'dir' | 'match'>> & Pick<Fault, 'delay_us'>;

/** Random (p) or targeted (nth, with its count); tell them apart with `'p' in fault`. */
export type ResolvedFault = (ResolvedFaultBase & Required<Pick<Fault, 'p'>>) | (ResolvedFaultBase & Required<Pick<Fault, 'nth' | 'count'>>);

export type ResolvedLink = AllRequired<Link> extends infer L ? (L extends Link ? Omit<L, 'faults'> & { faults: ResolvedFault[] } : never) : never;
export type ResolvedSerialLink = Extract<ResolvedLink, { type: 'serial' }>;
export type ResolvedNfcLink = Extract<ResolvedLink, { type: 'nfc' }>;
export type ResolvedEthernetLink = Extract<ResolvedLink, { type: 'ethernet' }>;
export type ResolvedExternalLink = Extract<ResolvedLink, { type: 'external' }>;

export type ResolvedRound = Required<Round>;

export type ResolvedApp = AllRequired<App> extends infer A ? (A extends { rounds: Round[] } ? Omit<A, 'rounds'> & { rounds: ResolvedRound[] } : A) : never;

/** The engine ignores `reference`, and applyDefaults() gives it no defaults: it is not here. */
export interface ResolvedScenario extends Required<Omit<Scenario, 'hosts' | 'bridges' | 'links' | 'apps' | 'reference'>> {
  hosts: ResolvedHost[];
  bridges: Bridge[];
  links: ResolvedLink[];
  apps: ResolvedApp[];
}
