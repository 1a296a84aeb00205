// What the views need to know about each link: a label for the capture-point picker and
// the link's configuration (framing, rates, NFC slots) for the "On the wire" view. The
// configuration comes from the engine's description of the world it built (defaults
// applied there), not from the scenario: the page then needs no schema in its first load.
import type { WorldDescription, WorldLinkConfigs } from '../../core/engine/trace_types.ts';

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

type WorldLink = WorldDescription['links'][number];

/** The link as the engine built it (its description's `config`, defaults applied), so the
 *  page needs no copy of the schema's defaults to draw it. */
export function fromWorld(l: Pick<WorldLink, 'type' | 'config'>): LinkConfig {
  switch (l.type) {
    case 'serial': {
      const c = l.config as WorldLinkConfigs['serial'];
      return { type: 'serial', framing: c.framing, leadingEnd: c.leading_end, baud: c.baud, bitsPerChar: c.bits_per_char };
    }
    case 'nfc': {
      const c = l.config as WorldLinkConfigs['nfc'];
      return {
        type: 'nfc',
        chunkBytes: c.chunk_bytes,
        chunkOverhead: c.chunk_overhead,
        pktOverhead: c.pkt_overhead,
        slotPeriodUs: c.slot_period_us,
        slotAirUs: c.slot_air_us,
        uartBaud: c.uart_baud,
        uartBitsPerChar: c.uart_bits_per_char,
      };
    }
    case 'ethernet': {
      const c = l.config as WorldLinkConfigs['ethernet'];
      return { type: 'ethernet', rateBps: c.rate_bps, delayUs: c.delay_us };
    }
    case 'external':
      return { type: 'external', framing: (l.config as WorldLinkConfigs['external']).framing };
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
export function linkInfos(world: Pick<WorldDescription, 'links'>): LinkInfo[] {
  return world.links.map((l, index) => {
    const config = fromWorld(l);
    return { index, name: l.name, label: linkLabel(l.name, config), inPcap: l.capture_interface >= 0, config };
  });
}
