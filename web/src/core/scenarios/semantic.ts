// What JSON Schema cannot say about a scenario: names that must refer to other entries,
// names and addresses that must be unique, the topology (a host on one link, a bridge on
// two, the hosts a link joins on one subnet), and ranges that depend on another field (tcp_rto_min_ms <= tcp_rto_max_ms). Runs
// only on a document that passed the schema, so every field has its type and range.

import { formatIp, hostAddrProblem, parseAddr, parseIp, type HostAddr } from './addr.ts';
import { nfcChunkBytesDefault, schemaDefault } from './defaults.ts';
import type { ScenarioError } from './errors.ts';
import { checkReference } from './reference.ts';
import type { App, Fault, NfcLink, Peer, PingApp, Scenario, StackConfig } from './types.ts';

type Report = (path: string, message: string) => void;

/** The app types that need TCP sockets, which a TCP responder host does not have. */
const TCP_APPS: ReadonlySet<App['type']> = new Set<App['type']>([
  'tcp_echo_server',
  'tcp_discard_server',
  'tcp_echo_client',
  'bulk_sender',
  'bulk_receiver',
  'reqresp_client',
  'reqresp_server',
  'tcp_client',
]);

/** WORLD_MAX_ROUNDS of wasm/sim/world.h: request/response rounds, all apps together. */
export const MAX_ROUNDS_TOTAL = 1024;
type Kind = 'host' | 'bridge' | 'link';

/** The semantic errors of a schema-valid scenario, in document order. */
export function checkScenario(s: Scenario): ScenarioError[] {
  const errors: ScenarioError[] = [];
  // One message per field: a later rule that blames a field already blamed adds nothing.
  const report: Report = (path, message) => {
    if (!errors.some((e) => e.path === path)) errors.push({ path, message });
  };
  const names = checkNames(s, report);
  checkAddresses(s, report);
  const on = checkTopology(s, names, report);
  checkSubnets(s, on, report);
  s.hosts.forEach((h, i) => h.stack && checkStack(h.stack, `hosts[${i}].stack`, report));
  s.links.forEach((l, i) => {
    if (l.type === 'nfc') checkNfc(l, `links[${i}]`, report);
    (l.faults ?? []).forEach((f, j) => checkFault(f, `links[${i}].faults[${j}]`, names, report));
  });
  checkApps(s, names, report);
  (s.capture ?? []).forEach((c, k) => {
    const kind = names.get(c);
    if (kind === 'link') return;
    report(`capture[${k}]`, kind ? `names ${kind} "${c}", not a link` : `names link "${c}", which does not exist${known(s, 'link')}`);
  });
  if (s.reference) checkReference(s.reference, { hosts: s.hosts.map((h) => h.name), links: s.links.map((l) => l.name), apps: s.apps ?? [] }, report);
  return errors;
}

// Hosts, bridges and links share one namespace; the first of two equal names keeps it.
function checkNames(s: Scenario, report: Report): Map<string, Kind> {
  const names = new Map<string, Kind>();
  const where = new Map<string, string>();
  const visit = (kind: Kind, list: ReadonlyArray<{ name: string }>, field: string): void =>
    list.forEach((e, i) => {
      const prior = where.get(e.name);
      if (prior !== undefined) {
        report(`${field}[${i}].name`, `"${e.name}" is already the name of ${prior}; hosts, bridges and links share one namespace`);
        return;
      }
      names.set(e.name, kind);
      where.set(e.name, `${field}[${i}]`);
    });
  visit('host', s.hosts, 'hosts');
  visit('bridge', s.bridges ?? [], 'bridges');
  visit('link', s.links, 'links');
  return names;
}

function checkAddresses(s: Scenario, report: Report): void {
  const owner = new Map<number, string>();
  s.hosts.forEach((h, i) => {
    const r = parseAddr(h.addr);
    if (!r.ok) return; // the schema's pattern already said why
    const problem = hostAddrProblem(r.value);
    if (problem !== null) return report(`hosts[${i}].addr`, problem);
    const prior = owner.get(r.value.addr);
    if (prior !== undefined) return report(`hosts[${i}].addr`, `${formatIp(r.value.addr)} is already the address of host "${prior}"`);
    owner.set(r.value.addr, h.name);
  });
}

// Each host is on exactly one link (it has one interface), each bridge on exactly two.
// Returns the links each host and bridge is on.
function checkTopology(s: Scenario, names: Map<string, Kind>, report: Report): Map<string, string[]> {
  const on = new Map<string, string[]>(); // node -> names of the links it is on
  let refused = false; // an end was refused: what it leaves unattached is not a fault of its own
  const refuse = (path: string, message: string): void => {
    refused = true;
    report(path, message);
  };
  s.links.forEach((l, i) => {
    const ends: Array<['a' | 'b', string]> =
      l.type === 'external'
        ? [['a', l.a]]
        : [
            ['a', l.a],
            ['b', l.b],
          ];
    for (const [end, node] of ends) {
      const path = `links[${i}].${end}`;
      const kind = names.get(node);
      if (kind === undefined || kind === 'link') {
        refuse(
          path,
          kind === 'link'
            ? `names link "${node}"; a link joins hosts and bridges`
            : `names "${node}", which is neither a host nor a bridge${known(s, 'host', 'bridge')}`,
        );
        continue;
      }
      if (end === 'b' && node === l.a) {
        refuse(path, `must differ from a (both are "${node}")`);
        continue;
      }
      if (l.type === 'external' && kind === 'bridge') {
        refuse(path, `names bridge "${node}"; the scenario's end of an external link is a host`);
        continue;
      }
      const links = on.get(node) ?? [];
      if (kind === 'host' && links.length >= 1) {
        refuse(path, `host "${node}" is already on link "${links[0]}"; a host is attached to exactly one link (join links with a bridge)`);
        continue;
      }
      if (kind === 'bridge' && links.length >= 2) {
        refuse(path, `bridge "${node}" already joins links "${links[0]}" and "${links[1]}"; a bridge joins exactly two links`);
        continue;
      }
      on.set(node, [...links, l.name]);
    }
  });
  if (refused) return on;
  s.hosts.forEach((h, i) => {
    if (names.get(h.name) === 'host' && !on.has(h.name)) report(`hosts[${i}]`, `host "${h.name}" is on no link; every host is attached to exactly one link`);
  });
  (s.bridges ?? []).forEach((b, i) => {
    const links = on.get(b.name) ?? [];
    if (names.get(b.name) !== 'bridge' || links.length === 2) return;
    report(
      `bridges[${i}]`,
      links.length === 0
        ? `bridge "${b.name}" joins no link; a bridge joins exactly two links`
        : `bridge "${b.name}" joins only link "${links[0]}"; a bridge joins exactly two links`,
    );
  });
  return on;
}

// A host routes only its own subnet out of its interface (one connected route, no gateway:
// host_add_netif()), so hosts that share a link, or links a bridge joins (it forwards
// datagrams unchanged), are each on the other's subnet, or their apps fail with ERR_RTE at
// run time. A host is blamed for a conflict with an earlier one; the engine says the same
// (wasm/api/scenario_topology.c).
function checkSubnets(s: Scenario, on: Map<string, string[]>, report: Report): void {
  const segment = linkSegments(s, on);
  // A host whose address no host may use is told so already (checkAddresses).
  const hosts = s.hosts.map((h) => {
    const r = parseAddr(h.addr);
    const links = on.get(h.name) ?? [];
    return r.ok && hostAddrProblem(r.value) === null && links.length === 1 ? { ...r.value, link: links[0]! } : null;
  });
  const onSubnetOf = (addr: number, h: HostAddr): boolean => {
    const size = 2 ** (32 - h.prefix);
    return Math.floor(addr / size) === Math.floor(h.addr / size);
  };
  const text = (h: HostAddr): string => `${formatIp(h.addr)}/${h.prefix}`;
  hosts.forEach((a, i) => {
    for (let j = 0; a && j < i; j++) {
      const b = hosts[j];
      if (!b || segment.get(a.link) !== segment.get(b.link) || (onSubnetOf(a.addr, b) && onSubnetOf(b.addr, a))) continue;
      const via = a.link === b.link ? '' : ` (on link "${b.link}", joined to it by a bridge)`;
      report(`hosts[${i}].addr`, `${text(a)} is not on link "${a.link}"'s subnet with hosts[${j}] ${text(b)}${via}`);
      return;
    }
  });
}

/** Each link's segment: the first (in `links`) of the links that bridges join to it. */
function linkSegments(s: Scenario, on: Map<string, string[]>): Map<string, string> {
  const seg = new Map(s.links.map((l) => [l.name, l.name]));
  const order = (name: string): number => s.links.findIndex((l) => l.name === name);
  for (let changed = true; changed;) {
    changed = false;
    for (const b of s.bridges ?? []) {
      const [x, y] = on.get(b.name) ?? [];
      if (x === undefined || y === undefined || seg.get(x) === seg.get(y)) continue;
      const [keep, drop] = order(seg.get(x)!) < order(seg.get(y)!) ? [seg.get(x)!, seg.get(y)!] : [seg.get(y)!, seg.get(x)!];
      for (const [l, v] of seg) if (v === drop) seg.set(l, keep);
      changed = true;
    }
  }
  return seg;
}

/** A field and its value in an ordering rule; `note` tells a default from a written value. */
interface Side {
  field: string;
  value: number;
  given: boolean;
  note?: string;
}

// lo < hi (strict) or lo <= hi. Blames the field the author wrote: lo if written, else hi.
function order(base: string, lo: Side, hi: Side, strict: boolean, report: Report): void {
  if (strict ? lo.value < hi.value : lo.value <= hi.value) return;
  const about = (s: Side): string => `${s.field} (${s.value}${s.given ? '' : (s.note ?? ', the default')})`;
  if (lo.given) report(`${base}.${lo.field}`, `must be ${strict ? 'less than' : 'at most'} ${about(hi)}`);
  else report(`${base}.${hi.field}`, `must be ${strict ? 'more than' : 'at least'} ${about(lo)}`);
}

function side<T extends object>(obj: T, field: keyof T & string, fallback: number, note?: string): Side {
  const v = obj[field];
  const s: Side = { field, value: typeof v === 'number' ? v : fallback, given: typeof v === 'number' };
  if (note !== undefined) s.note = note;
  return s;
}

function checkStack(st: StackConfig, base: string, report: Report): void {
  const d = (f: keyof StackConfig): number => schemaDefault('stack', f) as number;
  const min = side(st, 'tcp_rto_min_ms', d('tcp_rto_min_ms'));
  const max = side(st, 'tcp_rto_max_ms', d('tcp_rto_max_ms'));
  const initial = side(st, 'tcp_rto_initial_ms', d('tcp_rto_initial_ms'));
  order(base, min, max, false, report);
  order(base, initial, max, false, report);
  // The phase places the tick trains: less than the slow tick (the fast one when only it
  // is coarse); with exact timers there are no ticks to place.
  const phase = side(st, 'tcp_timer_phase_ms', d('tcp_timer_phase_ms'));
  const slow = side(st, 'tcp_timer_tick_ms', d('tcp_timer_tick_ms'));
  const fast = side(st, 'tcp_fast_tick_ms', d('tcp_fast_tick_ms'));
  if (st.tcp_timer_on_demand === true && slow.value === 0 && fast.value === 0)
    report(`${base}.tcp_timer_on_demand`, 'is only used with coarse timers (tcp_timer_tick_ms or tcp_fast_tick_ms above 0); here every timer is exact');
  if (phase.value === 0) return;
  if (slow.value === 0 && fast.value === 0)
    report(`${base}.tcp_timer_phase_ms`, 'is only used with coarse timers (tcp_timer_tick_ms or tcp_fast_tick_ms above 0); here every timer is exact');
  else order(base, phase, slow.value > 0 ? slow : fast, true, report);
}

function checkNfc(l: NfcLink, base: string, report: Report): void {
  const d = (f: keyof NfcLink): number => schemaDefault('nfcLink', f) as number;
  const rate = l.rate_kbps ?? (d('rate_kbps') as 212 | 424);
  const chunk = side(l, 'chunk_bytes', nfcChunkBytesDefault(rate), `, the default at ${rate} kbit/s`);
  const period = side(l, 'slot_period_us', d('slot_period_us'));
  order(base, side(l, 'chunk_overhead', d('chunk_overhead')), chunk, true, report);
  order(base, side(l, 'slot_air_us', d('slot_air_us')), period, false, report);
  order(base, side(l, 'slot_phase_us', d('slot_phase_us')), period, true, report);
  order(base, side(l, 'lead_us', d('lead_us')), period, false, report);
}

function checkFault(f: Fault, base: string, names: Map<string, Kind>, report: Report): void {
  const hasP = f.p !== undefined;
  const hasNth = f.nth !== undefined;
  if (hasP && hasNth) report(base, 'must have exactly one of "p" and "nth", not both');
  else if (!hasP && !hasNth) report(base, 'must have one of "p" (a probability) and "nth" (act on the nth matching frame)');
  else if (f.count !== undefined && !hasNth) report(`${base}.count`, 'is only used with "nth" (with "p" each frame is decided on its own)');
  if (f.action === 'delay' && f.delay_us === undefined) report(`${base}.delay_us`, 'is required when action is "delay"');
  if (f.action !== 'delay' && f.delay_us !== undefined) report(`${base}.delay_us`, `is only used when action is "delay" (here it is "${f.action}")`);
  const m = f.match;
  if (m === undefined) return;
  if (m.from !== undefined) hostRef(`${base}.match.from`, m.from, names, report);
  if (m.to !== undefined) hostRef(`${base}.match.to`, m.to, names, report);
  if (m.min_len !== undefined && m.max_len !== undefined) order(`${base}.match`, side(m, 'min_len', 0), side(m, 'max_len', 0), false, report);
}

// A name that must be a host's: apps run on hosts and address hosts; a bridge has neither
// a stack nor an address.
function hostRef(path: string, name: string, names: Map<string, Kind>, report: Report, hosts = ''): boolean {
  const kind = names.get(name);
  if (kind === 'host') return true;
  if (kind === undefined) report(path, `names host "${name}", which does not exist${hosts}`);
  else report(path, `names ${kind} "${name}", not a host${kind === 'bridge' ? ' (a bridge runs no stack and has no address)' : ''}`);
  return false;
}

function checkApps(s: Scenario, names: Map<string, Kind>, report: Report): void {
  const hosts = known(s, 'host');
  const apps = s.apps ?? [];
  apps.forEach((a, i) => {
    hostRef(`apps[${i}].host`, a.host, names, report, hosts);
    if (!('to' in a)) return;
    if (isAddress(a.to)) checkPeerAddress(s, a, `apps[${i}].to`, report);
    else if (hostRef(`apps[${i}].to`, a.to, names, report, hosts) && a.to === a.host) report(`apps[${i}].to`, `must differ from host (both are "${a.host}")`);
  });
  // A TCP responder host has no TCP sockets: it serves echo and discard itself, and runs
  // only ping and the UDP services; the engine says the same (wasm/api/scenario_apps.c).
  apps.forEach((a, i) => {
    const k = s.hosts.findIndex((h) => h.name === a.host);
    if (k < 0 || s.hosts[k]!.stack?.tcp_responder !== true || !TCP_APPS.has(a.type)) return;
    report(
      `apps[${i}].host`,
      `names host "${a.host}", a TCP responder (hosts[${k}].stack.tcp_responder), which has no TCP sockets for a ${a.type}: it serves echo on port 7 and discard on port 9 by itself`,
    );
  });
  // A tcp_echo_client's connections each carry at least one of its bytes and each take a
  // TCP block of its host (app_echo_client.h); the engine says the same
  // (wasm/api/scenario_apps.c).
  apps.forEach((a, i) => {
    if (a.type !== 'tcp_echo_client' || a.connections === undefined) return;
    const base = `apps[${i}]`;
    order(base, side(a, 'connections', 1), side(a, 'bytes', 0), false, report);
    const host = s.hosts.find((h) => h.name === a.host);
    if (!host) return;
    const pcbs = host.stack?.tcp_max_pcbs ?? (schemaDefault('stack', 'tcp_max_pcbs') as number);
    if (a.connections > pcbs) report(`${base}.connections`, `needs ${a.connections} TCP sockets on host "${a.host}", which has tcp_max_pcbs ${pcbs}`);
  });
  apps.forEach((a, i) => {
    if (a.type === 'ping') checkPingSize(s, a, `apps[${i}].size`, report);
  });
  // A TCP server's connections at once and its backlog each leave the listener a TCP
  // block of its host (app_tcp_server.h); the engine says the same
  // (wasm/api/scenario_apps.c).
  apps.forEach((a, i) => {
    if (a.type !== 'tcp_echo_server' && a.type !== 'tcp_discard_server') return;
    const host = s.hosts.find((h) => h.name === a.host);
    if (!host) return;
    const pcbs = host.stack?.tcp_max_pcbs ?? (schemaDefault('stack', 'tcp_max_pcbs') as number);
    const limits: [number | undefined, string, string][] = [
      [a.connections, 'connections', 'connections'],
      [a.backlog, 'backlog', 'waiting connections'],
    ];
    for (const [n, field, what] of limits)
      if (n !== undefined && n > pcbs - 1)
        report(`apps[${i}].${field}`, `needs ${n + 1} TCP sockets on host "${a.host}" (${n} ${what} and the listener), which has tcp_max_pcbs ${pcbs}`);
  });
  // A split request is two writes of at least one byte each (app_reqresp.h); the engine
  // says the same.
  apps.forEach((a, i) => {
    if (a.type !== 'reqresp_client' && a.type !== 'reqresp_server') return;
    a.rounds.forEach((r, k) => {
      if (r.split !== undefined && r.split > 0) order(`apps[${i}].rounds[${k}]`, side(r, 'split', 0), side(r, 'req', 1), true, report);
    });
  });
  // The engine keeps every app's rounds in one table of MAX_ROUNDS_TOTAL (world.h).
  let rounds = 0;
  apps.forEach((a, i) => {
    if (a.type !== 'reqresp_client' && a.type !== 'reqresp_server') return;
    rounds += a.rounds.length;
    if (rounds > MAX_ROUNDS_TOTAL && rounds - a.rounds.length <= MAX_ROUNDS_TOTAL)
      report(`apps[${i}].rounds`, `brings the scenario's rounds to ${rounds}; all apps together may have at most ${MAX_ROUNDS_TOTAL}`);
  });
  // Both halves of a request/response session get the same rounds (app_reqresp.h); the
  // server's think_ms are unused, so only the sizes must agree.
  apps.forEach((c, ci) => {
    if (c.type !== 'reqresp_client') return;
    const port = c.port ?? (schemaDefault('reqrespClientApp', 'port') as number);
    const to = peerAddress(s, c.to);
    apps.forEach((sv, si) => {
      if (sv.type !== 'reqresp_server' || to === null || peerAddress(s, sv.host) !== to) return;
      if ((sv.port ?? (schemaDefault('reqrespServerApp', 'port') as number)) !== port) return;
      const k = sv.rounds.findIndex((r, n) => r.req !== c.rounds[n]?.req || r.resp !== c.rounds[n]?.resp);
      if (sv.rounds.length !== c.rounds.length)
        report(`apps[${si}].rounds`, `has ${sv.rounds.length} rounds, its client apps[${ci}] has ${c.rounds.length}; both get the same rounds`);
      else if (k >= 0)
        report(
          `apps[${si}].rounds[${k}]`,
          `req ${sv.rounds[k]!.req} / resp ${sv.rounds[k]!.resp} differs from its client's (apps[${ci}].rounds[${k}]: req ${c.rounds[k]!.req} / resp ${c.rounds[k]!.resp}); both get the same rounds`,
        );
    });
  });
}

const LINK_DEFS = { serial: 'serialLink', nfc: 'nfcLink', ethernet: 'ethernetLink', external: 'externalLink' } as const;

// A ping's datagram (size + 20 bytes of IP header + 8 of ICMP) must be one its host builds
// (ip_max_datagram), and where the sender's link MTU makes it travel in fragments, one the
// other end reassembles (ip_reass_max): the request at the peer, the echo reply (built
// where the request lies, so the peer's ip_max_datagram does not bound it) back at the
// host. Otherwise the ping could not start, or no reply would come back. A peer outside the
// scenario is not checked. The engine says the same (wasm/api/scenario_apps.c).
function checkPingSize(s: Scenario, a: PingApp, path: string, report: Report): void {
  const size = a.size ?? (schemaDefault('pingApp', 'size') as number);
  const dgram = size + 28;
  const head = `${size} bytes make a datagram of ${dgram} bytes, larger than host`;
  const stackOf = (name: string): { build: number; reass: number } => {
    const st = s.hosts.find((h) => h.name === name)?.stack ?? {};
    return {
      build: st.ip_max_datagram ?? (schemaDefault('stack', 'ip_max_datagram') as number),
      reass: st.ip_reass_max ?? (schemaDefault('stack', 'ip_reass_max') as number),
    };
  };
  const build = stackOf(a.host).build;
  if (dgram > build) return report(path, `${head} "${a.host}"'s ip_max_datagram ${build}`);
  const peerAddr = peerAddress(s, a.to);
  const peer = s.hosts.find((h) => {
    const r = parseAddr(h.addr);
    return r.ok && r.value.addr === peerAddr;
  })?.name;
  if (peer === undefined) return;
  for (const [from, to, what] of [
    [a.host, peer, 'it'],
    [peer, a.host, 'the echo reply'],
  ] as const) {
    const link = s.links.find((l) => l.a === from || (l.type !== 'external' && l.b === from));
    if (link === undefined) continue;
    const mtu = link.mtu ?? (schemaDefault(LINK_DEFS[link.type], 'mtu') as number);
    const reass = stackOf(to).reass;
    if (dgram > mtu && dgram > reass)
      return report(path, `${head} "${to}"'s ip_reass_max ${reass} (link "${link.name}", MTU ${mtu}, carries ${what} in fragments)`);
  }
}

// A name starts with a letter, an address with a digit (the schema allows nothing else).
function isAddress(peer: Peer): boolean {
  return /^[0-9]/.test(peer);
}

/** The address a peer stands for: the one written, or the named host's; null if unknown. */
function peerAddress(s: Scenario, peer: Peer): number | null {
  if (isAddress(peer)) {
    const r = parseIp(peer);
    return r.ok ? r.value : null;
  }
  const h = s.hosts.find((x) => x.name === peer);
  const r = h ? parseAddr(h.addr) : null;
  return r?.ok ? r.value.addr : null;
}

// An address as `to` may be a peer outside the scenario, but one a host could have
// (hostAddrProblem; the subnet's own address and broadcast count on the host's subnet) and
// not the app's own host's. The engine checks the same, in the same words
// (wasm/api/scenario_apps.c).
function checkPeerAddress(s: Scenario, a: App & { to: Peer }, path: string, report: Report): void {
  const to = parseIp(a.to);
  if (!to.ok) return; // the schema's pattern already said why
  const own = s.hosts.find((h) => h.name === a.host);
  const mine = own ? parseAddr(own.addr) : null;
  const onMySubnet = mine?.ok === true && Math.floor(to.value / 2 ** (32 - mine.value.prefix)) === Math.floor(mine.value.addr / 2 ** (32 - mine.value.prefix));
  const problem = hostAddrProblem({ addr: to.value, prefix: onMySubnet ? mine.value.prefix : 32 });
  if (problem !== null) report(path, problem);
  else if (mine?.ok && mine.value.addr === to.value) report(path, `must differ from host (${a.to} is the address of host "${a.host}")`);
}

/** " (hosts: pc, mcu; bridges: ptx)": what the author could have meant. */
function known(s: Scenario, ...kinds: Kind[]): string {
  const lists: Record<Kind, string[]> = {
    host: s.hosts.map((h) => h.name),
    bridge: (s.bridges ?? []).map((b) => b.name),
    link: s.links.map((l) => l.name),
  };
  const parts = kinds.filter((k) => lists[k].length > 0).map((k) => `${k}s: ${lists[k].join(', ')}`);
  return parts.length > 0 ? ` (${parts.join('; ')})` : '';
}
