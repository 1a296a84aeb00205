// Every shipped scenario's capture against tshark: the pcapng opens with no malformed frame
// and holds every frame of the captured links; and, link by link, the TCP analysis flags of
// `stackscope run --table-json` equal the ones tshark sets on the exported file, frame by
// frame.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { runScenario } from '../web/src/core/engine/run.ts';
import { readScenarioInput } from './scenario_input.ts';
import { shippedScenarios } from './shipped.ts';
import { main } from './cli.ts';
import { linkRows, type TableRow } from './table.ts';
import { tsharkColumns, tsharkFlags, tsharkFrameCount, tsharkMalformed } from './tshark_oracle.ts';

const dir = mkdtempSync(join(tmpdir(), 'stackscope-tshark-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

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
