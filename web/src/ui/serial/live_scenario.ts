// The world of a live session: one host, the page's, on an external link whose far end is
// the serial port (docs/scenario-format.md, "type": "external"). The addresses are the
// seed's: the page is 10.0.7.1, the Arduino 10.0.7.2; MTU 576 as the firmware's.
import { LIVE_SCENARIO_NAME } from '../common/live_mode.ts';
import type { Scenario } from '../../core/scenarios/types.ts';
import type { LiveFraming } from './serial_theory.ts';

export const PAGE_ADDR = '10.0.7.1';
export const BOARD_ADDR = '10.0.7.2';
export const LIVE_MTU = 576;
/** SLIP, as the echo firmware speaks it */
export const LIVE_FRAMING: LiveFraming = 'slip';
/** the longest a session runs (the world's limit, WORLD_MAX_DURATION_US) */
export const LIVE_MAX_MS = 2_000_000;

export function liveScenario(title: string): Scenario {
  return {
    version: 1,
    name: LIVE_SCENARIO_NAME,
    title,
    description: `The page's host ${PAGE_ADDR} speaks SLIP over the serial port to the Arduino at ${BOARD_ADDR}.`,
    duration_ms: LIVE_MAX_MS,
    // a socket for each of the throughput tool's connections (the seed's table goes to 50)
    hosts: [{ name: 'pc', addr: `${PAGE_ADDR}/24`, stack: { tcp_max_pcbs: 64 } }],
    links: [{ name: 'usb', type: 'external', a: 'pc', framing: LIVE_FRAMING, mtu: LIVE_MTU }],
  } as Scenario;
}
