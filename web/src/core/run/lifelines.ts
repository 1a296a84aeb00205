// The ladder's lifelines (columns), in the order a reader follows a packet along the
// topology: start at the first host and walk the links depth-first, in link order. An NFC
// link gets two more columns between its ends, the module on each side: the module holds
// the packet between the UART hop and the air, and the paper's drops happen there, so a
// reader must see frames sit in it. An external link (a real serial port) ends in a column
// for the device at the other end.
import type { WorldDescription } from '../engine/trace_types.ts';

export type LifelineKind = 'host' | 'bridge' | 'module' | 'device';

export interface Lifeline {
  /** stable key for D3 joins: "node:0", "module:1:a", "device:2" */
  key: string;
  kind: LifelineKind;
  /** the column's heading */
  label: string;
  /** second line under the heading (address, "NFC module") */
  detail: string;
  /** host or bridge node number (hosts first, then bridges) */
  node?: number;
  /** for modules and devices: the link */
  link?: number;
  /** for modules: which end of the link the module belongs to */
  side?: 'a' | 'b';
}

export interface Lanes {
  lifelines: Lifeline[];
  /** column index of node n, or -1 */
  ofNode(node: number): number;
  /** column of the module on `side` of NFC link `link`, or -1 */
  ofModule(link: number, side: 'a' | 'b'): number;
  /** column of the external device on link `link`, or -1 */
  ofDevice(link: number): number;
}

export function nodeName(world: Pick<WorldDescription, 'hosts' | 'bridges'>, node: number): string {
  const nh = world.hosts.length;
  if (node >= 0 && node < nh) return world.hosts[node]!.name;
  const b = world.bridges[node - nh];
  return b ? b.name : `node ${node}`;
}

function validNode(world: WorldDescription, node: number): boolean {
  return node >= 0 && node < world.hosts.length + world.bridges.length;
}

export function buildLanes(world: WorldDescription): Lanes {
  const out: Lifeline[] = [];
  const nh = world.hosts.length;
  const seen = new Set<number>();
  const usedLinks = new Set<number>();

  const pushNode = (n: number) => {
    if (seen.has(n)) return;
    seen.add(n);
    out.push(
      n < nh
        ? { key: `node:${n}`, kind: 'host', label: world.hosts[n]!.name, detail: world.hosts[n]!.addr, node: n }
        : { key: `node:${n}`, kind: 'bridge', label: nodeName(world, n), detail: 'bridge', node: n },
    );
  };
  const module = (link: number, side: 'a' | 'b'): Lifeline => {
    const l = world.links[link]!;
    // Short: columns can be narrow.
    return { key: `module:${link}:${side}`, kind: 'module', label: 'NFC module', detail: `of ${nodeName(world, side === 'a' ? l.a : l.b)}`, link, side };
  };

  // Depth-first walk: from a node, every unused link touching it, in link order; the far
  // end (and what lies behind it) comes next. A chain comes out as the chain.
  const walk = (n: number) => {
    pushNode(n);
    world.links.forEach((l, i) => {
      if (usedLinks.has(i) || (l.a !== n && l.b !== n)) return;
      usedLinks.add(i);
      if (!validNode(world, l.b)) {
        out.push({ key: `device:${i}`, kind: 'device', label: 'serial port', detail: `the device on the port (${l.name})`, link: i });
        return;
      }
      const near: 'a' | 'b' = l.a === n ? 'a' : 'b';
      const far = near === 'a' ? l.b : l.a;
      if (l.type === 'nfc') {
        out.push(module(i, near), module(i, near === 'a' ? 'b' : 'a'));
      }
      if (!seen.has(far)) walk(far);
    });
  };
  if (nh > 0) walk(0);
  // Whatever the walk did not reach (islands), in node order, so nothing is lost.
  for (let n = 0; n < nh + world.bridges.length; n++) if (!seen.has(n)) walk(n);
  const index = new Map(out.map((x, i) => [x.key, i]));
  return {
    lifelines: out,
    ofNode: (n) => index.get(`node:${n}`) ?? -1,
    ofModule: (link, side) => index.get(`module:${link}:${side}`) ?? -1,
    ofDevice: (link) => index.get(`device:${link}`) ?? -1,
  };
}
