// What the views need to know about each link: a label for the capture-point picker and
// the link's configuration (framing, rates, NFC slots) for the "On the wire" view. The
// configuration comes from the scenario that ran, with its defaults filled in; if that is
// missing, from the engine's own description of the link.
import type { WorldDescription } from '../../core/engine/trace_types.ts';
import { applyDefaults } from '../../core/scenarios/defaults.ts';
import type { ResolvedLink, Scenario } from '../../core/scenarios/types.ts';

export type LinkConfig =
  | { type: 'serial'; framing: 'slip' | 'cslip' | 'slip6'; leadingEnd: boolean; baud: number; bitsPerChar: number }
  | {
      type: 'nfc';
      chunkBytes: number;
      chunkOverhead: number;
      pktOverhead: number;
      slotPeriodUs: number;
      slotAirUs: number;
      uartBaud: number;
      uartBitsPerChar: number;
    }
  | { type: 'ethernet'; rateBps: number; delayUs: number }
  | { type: 'external'; framing: 'slip' | 'slip6' }
  | { type: 'unknown' };

export interface LinkInfo {
  index: number;
  name: string;
  /** "nfc (NFC, 11.2 kbps)" */
  label: string;
  /** false when the pcapng export has no interface for it (not in the scenario's capture) */
  inPcap: boolean;
  config: LinkConfig;
}

/** "10 Mbit/s", "2.5 Gbit/s", "9600 bit/s". */
export function formatRate(bps: number): string {
  const units: [number, string][] = [
    [1e9, 'Gbit/s'],
    [1e6, 'Mbit/s'],
    [1e3, 'kbit/s'],
  ];
  for (const [v, u] of units) if (bps >= v) return `${trim(bps / v)} ${u}`;
  return `${bps} bit/s`;
}

function trim(x: number): string {
  return String(Number(x.toFixed(3)));
}

function fromResolved(l: ResolvedLink): LinkConfig {
  switch (l.type) {
    case 'serial':
      return { type: 'serial', framing: l.framing, leadingEnd: l.leading_end, baud: l.baud, bitsPerChar: l.bits_per_char };
    case 'nfc':
      return {
        type: 'nfc',
        chunkBytes: l.chunk_bytes,
        chunkOverhead: l.chunk_overhead,
        pktOverhead: l.pkt_overhead,
        slotPeriodUs: l.slot_period_us,
        slotAirUs: l.slot_air_us,
        uartBaud: l.uart_baud,
        uartBitsPerChar: l.uart_bits_per_char,
      };
    case 'ethernet':
      return { type: 'ethernet', rateBps: l.rate_bps, delayUs: l.delay_us };
    case 'external':
      return { type: 'external', framing: l.framing };
  }
}

/** The engine's description (wasm/sim/world_link.c world_link_describe), for when the
 *  scenario is not at hand. Fields it does not state take the schema's defaults. */
export function fromDescription(type: string, d: string): LinkConfig {
  const num = (re: RegExp, dflt: number): number => {
    const m = re.exec(d);
    return m ? Number(m[1]) : dflt;
  };
  const framing = /SLIP6/.test(d) ? 'slip6' : /CSLIP/.test(d) ? 'cslip' : 'slip';
  switch (type) {
    case 'serial':
      return { type: 'serial', framing, leadingEnd: true, baud: num(/(\d+) baud/, 57600), bitsPerChar: num(/(\d+) bits per character/, 10) };
    case 'nfc': {
      const chunkBytes = num(/(\d+)-byte chunks/, 14);
      return {
        type: 'nfc',
        chunkBytes,
        chunkOverhead: 4,
        pktOverhead: 16,
        slotPeriodUs: num(/every (\d+) us/, 10_000),
        slotAirUs: 1500,
        uartBaud: num(/UART (\d+) baud/, 115_200),
        uartBitsPerChar: 10,
      };
    }
    case 'ethernet':
      return { type: 'ethernet', rateBps: num(/(\d+) bit\/s/, 10_000_000), delayUs: num(/(\d+) us delay/, 0) };
    case 'external':
      return { type: 'external', framing: framing === 'slip6' ? 'slip6' : 'slip' };
    default:
      return { type: 'unknown' };
  }
}

export function linkLabel(name: string, c: LinkConfig): string {
  switch (c.type) {
    case 'serial':
      return `${name} (${c.framing.toUpperCase()}, ${c.baud} baud)`;
    case 'nfc':
      // The rate of packet bytes the slots carry, chunks included: the paper's 11.2 kbps.
      return `${name} (NFC, ${trim((c.chunkBytes * 8 * 1000) / c.slotPeriodUs)} kbps)`;
    case 'ethernet':
      return `${name} (Ethernet, ${formatRate(c.rateBps)})`;
    case 'external':
      return `${name} (serial port, ${c.framing.toUpperCase()})`;
    default:
      return name;
  }
}

/** Every link of the run, in the world's order, whatever the scenario's capture says: the
 *  simulator sees links no sniffer could tap (the NFC air, a UART). */
export function linkInfos(world: Pick<WorldDescription, 'links'>, ran: Scenario | null): LinkInfo[] {
  let resolved: ResolvedLink[] = [];
  try {
    if (ran) resolved = applyDefaults(ran).links;
  } catch {
    resolved = [];
  }
  return world.links.map((l, index) => {
    const r = resolved.find((x) => x.name === l.name && x.type === l.type);
    const config = r ? fromResolved(r) : fromDescription(l.type, l.description);
    return { index, name: l.name, label: linkLabel(l.name, config), inPcap: l.capture_interface >= 0, config };
  });
}
