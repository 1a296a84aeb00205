// The topology strip's text: the chain of nodes and links in order, each link with its rate
// ("pc —serial 57600 baud, SLIP— arduino").
import type { Scenario } from '../../core/scenarios/types.ts';

export interface TopologyItem {
  kind: 'host' | 'bridge' | 'link';
  name: string;
  detail: string;
}

export function linkRate(l: Scenario['links'][number]): string {
  switch (l.type) {
    case 'serial':
      return `${l.baud} baud, ${(l.framing ?? 'slip').toUpperCase()}`;
    case 'nfc':
      return `NFC ${l.rate_kbps ?? 212} kbit/s (${(l.rate_kbps ?? 212) === 424 ? '24' : '11.2'} kbit/s of packet)`;
    case 'ethernet': {
      const r = l.rate_bps ?? 100_000_000;
      const rate = r >= 1e9 ? `${r / 1e9} Gbit/s` : r >= 1e6 ? `${r / 1e6} Mbit/s` : `${r / 1e3} kbit/s`;
      return `Ethernet ${rate}${l.delay_us ? `, ${l.delay_us / 1000} ms` : ''}`;
    }
    default:
      return `serial port (${(l.framing ?? 'slip').toUpperCase()})`;
  }
}

/** Nodes and links along the chain, starting from the first host. */
export function topologyChain(s: Scenario): TopologyItem[] {
  const bridges = new Set((s.bridges ?? []).map((b) => b.name));
  const hosts = new Map(s.hosts.map((h) => [h.name, h.addr]));
  const out: TopologyItem[] = [];
  const used = new Set<string>();
  const node = (n: string): TopologyItem => ({ kind: bridges.has(n) ? 'bridge' : 'host', name: n, detail: hosts.get(n) ?? 'bridge' });
  let at = s.hosts[0]?.name;
  if (!at) return out;
  out.push(node(at));
  for (;;) {
    const next = s.links.find((l) => !used.has(l.name) && (l.a === at || ('b' in l && l.b === at)));
    if (!next) break;
    used.add(next.name);
    out.push({ kind: 'link', name: next.name, detail: linkRate(next) });
    const other = next.a === at ? ('b' in next ? next.b : undefined) : next.a;
    if (!other) {
      out.push({ kind: 'host', name: 'serial port', detail: 'the device on the port' });
      break;
    }
    out.push(node(other));
    at = other;
  }
  return out;
}
