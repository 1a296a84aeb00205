// Every shipped scenario's capture against tshark: the pcapng opens with no malformed frame
// and holds every frame of the captured links; and, link by link, the TCP analysis flags of
// `stackscope run --table-json` equal the ones tshark sets on the exported file, frame by
// frame. Every Ethernet link of the shipped and replay scenarios reads as Ethernet II with
// ARP, and the NFC bridge's handshake has the lengths of the paper's Wireshark tables.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { pcapFileHeader, pcapRecord } from '../web/src/core/engine/pcap_export.ts';
import type { TraceFrame } from '../web/src/core/engine/trace_types.ts';
import { runScenario } from '../web/src/core/engine/run.ts';
import { readScenarioInput } from './scenario_input.ts';
import { replayScenarios, shippedScenarios } from './shipped.ts';
import { main } from './cli.ts';
import { linkRows, type TableRow } from './table.ts';
import { tsharkColumns, tsharkFlags, tsharkFrameCount, tsharkLayers, tsharkMalformed } from './tshark_oracle.ts';

const dir = mkdtempSync(join(tmpdir(), 'stackscope-tshark-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A classic pcap file of an Ethernet link's frames. */
function ethernetPcap(frames: readonly TraceFrame[]): Uint8Array {
  return Buffer.concat([pcapFileHeader(true), ...frames.map((f) => pcapRecord(f.tSent, f.bytes))]);
}

describe('captures against tshark', () => {
  for (const s of shippedScenarios()) {
    it(`${s.name}: the pcapng opens clean and holds every captured frame`, async () => {
      const r = await runScenario(readScenarioInput(s.name, [], undefined).json);
      const file = join(dir, `${s.name}.pcapng`);
      writeFileSync(file, r.pcapng);
      const captured = r.world.links.filter((l) => l.capture_interface >= 0).map((l) => r.world.links.indexOf(l));
      const frames = r.trace.frames.filter((f) => captured.includes(f.link)).length;
      expect(frames).toBeGreaterThan(10);
      expect(tsharkFrameCount(file)).toBe(frames);
      expect(tsharkMalformed(file)).toEqual([]);
    });

    it(`${s.name}: --table-json flags, Protocol and Info equal tshark's, frame by frame, on every link`, async () => {
      const r = await runScenario(readScenarioInput(s.name, [], undefined).json);
      let compared = 0;
      for (const link of r.world.links) {
        const pcap = join(dir, `${s.name}-${link.name}.pcap`);
        const table = join(dir, `${s.name}-${link.name}.json`);
        const quiet = vi.spyOn(console, 'log').mockImplementation(() => undefined);
        const code = await main(['run', s.name, '--link', link.name, '--pcap', pcap, '--table-json', table]);
        quiet.mockRestore();
        expect(code).toBe(0);
        const rows = JSON.parse(readFileSync(table, 'utf8')) as TableRow[];
        const ours = rows.map((row) => [...row.flags].sort());
        const theirs = tsharkFlags(pcap);
        expect(ours.length).toBe(theirs.length);
        ours.forEach((flags, k) => expect({ frame: k + 1, flags }).toEqual({ frame: k + 1, flags: theirs[k] }));
        // and the packet list reads the same: Protocol and Info, word for word
        const columns = tsharkColumns(pcap);
        rows.forEach((row, k) => expect({ frame: k + 1, protocol: row.protocol, info: row.info }).toEqual({ frame: k + 1, ...columns[k] }));
        compared += ours.length;
      }
      expect(compared).toBeGreaterThan(10);
    });
  }

  it('the flags are not all empty: the lossy transfer has retransmissions and dup ACKs', async () => {
    const r = await runScenario(readScenarioInput('ethernet-bulk-lossy', [], undefined).json);
    const flags = new Set(linkRows(r, 0).flatMap((row) => row.flags));
    expect(flags).toContain('tcp.analysis.duplicate_ack');
    expect(flags).toContain('tcp.analysis.fast_retransmission');
  });

  it("the comment of a retransmitted segment carries the stack's cause", async () => {
    const r = await runScenario(readScenarioInput('ethernet-bulk-lossy', [], undefined).json);
    const file = join(dir, 'comments.pcapng');
    writeFileSync(file, r.pcapng);
    const text = readFileSync(file).toString('latin1');
    expect(text).toMatch(/sender: ESTABLISHED cwnd=\d+ ssthresh=\d+ rto=\d+\.\d{3}ms srtt=/);
    expect(text).toMatch(/retransmission \((RTO expired|fast retransmit)\) of frame \d+/);
  });
});

describe('Ethernet links as Wireshark sees them', () => {
  const all = [...shippedScenarios(), ...replayScenarios()];
  const withEthernet = all.filter((s) => (JSON.parse(readFileSync(s.file, 'utf8')) as { links: { type: string }[] }).links.some((l) => l.type === 'ethernet'));

  it('the shipped and replay scenarios have Ethernet links to check', () => {
    expect(withEthernet.map((s) => s.name)).toEqual(
      expect.arrayContaining(['ethernet-bulk-lossy', 'nfc-bridge-1080', 'nfc-bridge-sessions', 'thesis-5mb-loss']),
    );
  });

  for (const s of withEthernet) {
    it(`${s.name}: every frame of every Ethernet link is Ethernet II, and ARP finds the peer first`, async () => {
      const r = await runScenario(readScenarioInput(s.name, [], undefined).json);
      r.world.links.forEach((link, i) => {
        if (link.type !== 'ethernet') return;
        const file = join(dir, `${s.name}-${link.name}-eth.pcap`);
        writeFileSync(file, ethernetPcap(r.trace.frames.filter((f) => f.link === i)));
        const layers = tsharkLayers(file);
        expect(layers.length).toBeGreaterThan(2);
        for (const [k, l] of layers.entries())
          expect({ frame: k + 1, protocols: l.protocols }).toEqual({ frame: k + 1, protocols: expect.stringMatching(/^eth:ethertype:(arp|ip:)/) });
        // The first frame asks, the second answers, before any datagram crosses.
        expect(layers[0]!.info).toMatch(/^Who has [\d.]+\? Tell [\d.]+$/);
        expect(layers[1]!.info).toMatch(/^[\d.]+ is at 02:00:00:00:00:[\da-f]{2}$/);
      });
    });
  }

  it("nfc-bridge-1080: the handshake's frames have the lengths of the paper's table (ARP 42, 60; SYN 58, SYN-ACK 60, ACK 54)", async () => {
    const r = await runScenario(readScenarioInput('nfc-bridge-1080', [], undefined).json);
    const eth = r.world.links.findIndex((l) => l.name === 'eth');
    const file = join(dir, 'nfc-bridge-1080-handshake.pcap');
    writeFileSync(file, ethernetPcap(r.trace.frames.filter((f) => f.link === eth)));
    const first = tsharkLayers(file).slice(0, 5);
    expect(first.map((l) => [l.protocol, l.length])).toEqual([
      ['ARP', 42],
      ['ARP', 60],
      ['TCP', 58],
      ['TCP', 60],
      ['TCP', 54],
    ]);
    expect(first[0]!.info).toBe('Who has 192.168.1.202? Tell 192.168.1.102');
    expect(first[2]!.info).toMatch(/\[SYN\]/);
    expect(first[3]!.info).toMatch(/\[SYN, ACK\]/);
  });
});
