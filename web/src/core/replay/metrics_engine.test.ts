// The capture and stack metrics (metrics.ts) on a real run of the engine: the NFC paper's
// 1080-byte session, whose Ethernet capture and timers are known from the paper's model.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runScenario, type RunResult } from '../engine/run.ts';
import { analyzeCapture } from '../packets/index.ts';
import { measure } from './metrics.ts';

const shipped = readFileSync(new URL('../scenarios/shipped/nfc-bridge-1080.json', import.meta.url), 'utf8');

function variant(change: (s: { hosts: { stack: Record<string, unknown> }[] }) => void): string {
  const s = JSON.parse(shipped);
  change(s);
  return JSON.stringify(s);
}

function ethRows(r: RunResult) {
  const eth = r.world.links.findIndex((l) => l.name === 'eth');
  const frames = r.trace.frames.filter((f) => f.link === eth);
  return { frames, rows: analyzeCapture(frames.map((f) => ({ timeUs: f.tSent, bytes: f.bytes, ethernet: f.ethernet }))) };
}

describe('metrics on the engine', () => {
  it("capture_span_s and link_frames read the link's capture: first to last datagram, and how many (ARP's frames left out)", async () => {
    const r = await runScenario(shipped);
    const { frames: all, rows } = ethRows(r);
    expect(rows.slice(0, 2).map((p) => p.protocol)).toEqual(['ARP', 'ARP']);
    const frames = all.filter((_, i) => rows[i]!.protocol !== 'ARP');
    expect(frames.length).toBeGreaterThan(5);
    expect(measure({ metric: 'link_frames', link: 'eth' }, r)).toBe(frames.length);
    expect(measure({ metric: 'capture_span_s', link: 'eth' }, r)).toBe((frames.at(-1)!.tSent - frames[0]!.tSent) / 1e6);
    expect(() => measure({ metric: 'link_frames', link: 'usb' }, r)).toThrow(/no link "usb"/);
  });

  it('dup_acks_sent counts the Dup ACKs Wireshark sees from the host, and only from it', async () => {
    const r = await runScenario(shipped);
    // The server's Dup ACKs all cross the Ethernet, where it is the only sender from .202.
    const fromServer = ethRows(r).rows.filter((p) => p.source === '192.168.1.202' && p.flags.includes('tcp.analysis.duplicate_ack'));
    expect(fromServer.length).toBeGreaterThan(0);
    expect(measure({ metric: 'dup_acks_sent', host: 'user' }, r)).toBe(fromServer.length);
  });

  it('spurious_retransmissions counts copies of segments that had reached the peer', async () => {
    const r = await runScenario(shipped);
    // Appliance: its first data is lost in the busy module, so the first resend is needed;
    // the second goes while that one is still crossing (spurious); its FIN is lost twice
    // in the module, so both FIN resends are needed.
    expect(measure({ metric: 'retransmissions', host: 'appliance' }, r)).toBe(4);
    expect(measure({ metric: 'spurious_retransmissions', host: 'appliance' }, r)).toBe(1);
    // Server: both resends of its response are spurious (the first copy crossed); its FIN
    // was lost in the PTx's module, which was transmitting, so its resend is needed.
    expect(measure({ metric: 'retransmissions', host: 'user' }, r)).toBe(3);
    expect(measure({ metric: 'spurious_retransmissions', host: 'user' }, r)).toBe(2);
  });

  it("rto_expiries counts the host's retransmission timeouts: each one the stack's tcp.rto.expire", async () => {
    const r = await runScenario(shipped);
    const expire = r.world.trace_kinds.indexOf('tcp.rto.expire');
    const server = r.world.hosts.findIndex((h) => h.name === 'user');
    const n = r.trace.events.filter((e) => e.kind === expire && e.host === server).length;
    // the server's response is re-sent on its timer (the paper's Fig. 5.6): at least one timeout
    expect(n).toBeGreaterThan(0);
    expect(measure({ metric: 'rto_expiries', host: 'user' }, r)).toBe(n);
    expect(() => measure({ metric: 'rto_expiries', host: 'nobody' }, r)).toThrow(/no host "nobody"/);
  });

  it('rto_first_data_ms is the RTO armed for the first data: the initial 1 s, or Algorithm 1 for 1080 bytes', async () => {
    expect(measure({ metric: 'rto_first_data_ms', host: 'appliance' }, await runScenario(shipped))).toBe(1000);
    const alg1 = await runScenario(
      variant((s) => {
        s.hosts[0]!.stack['tcp_rto'] = 'nfc_alg1';
      }),
    );
    // Eq. 5.1 - 5.6 for a 1080-byte packet at 11.2 kbps: 3373.24 ms, rounded up to 500 ms.
    expect(measure({ metric: 'rto_first_data_ms', host: 'appliance' }, alg1)).toBe(3500);
  });
});
