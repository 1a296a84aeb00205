// The page's "Export pcapng" against tshark: the file of one capture point, read by tshark,
// gives the packet list model's Info and analysis flags (run_model.ts, what the page shows)
// row for row, for every captured link of every shipped scenario; and the file of every
// link gives what the page's note on "Export all links" says Wireshark shows.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultCapturePoint } from '../web/src/core/engine/capture_point.ts';
import { linkPcapng } from '../web/src/core/engine/pcapng_link.ts';
import { runScenario, type RunResult } from '../web/src/core/engine/run.ts';
import { buildRunModel } from '../web/src/core/run/run_model.ts';
import { readScenarioInput } from './scenario_input.ts';
import { shippedScenarios } from './shipped.ts';
import { tsharkColumns, tsharkComments, tsharkFlags } from './tshark_oracle.ts';

const dir = mkdtempSync(join(tmpdir(), 'stackscope-export-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const run = (name: string): Promise<RunResult> => runScenario(readScenarioInput(name, [], undefined).json);

/** tshark's Info and flags for each frame of `file`, beside the rows the page lists for `link`. */
function compare(r: RunResult, link: number, file: string) {
  const page = buildRunModel(r)
    .link(link)
    .analysis.rows.map((row) => ({ no: row.no, info: row.info, flags: [...row.flags].sort() }));
  const info = tsharkColumns(file);
  const flags = tsharkFlags(file);
  const wireshark = info.map((c, k) => ({ no: k + 1, info: c.info, flags: flags[k] }));
  return { page, wireshark };
}

describe('Export pcapng: the capture point in view, as tshark reads it', () => {
  for (const s of shippedScenarios()) {
    it(`${s.name}: every captured link's file gives the page's Info and analysis flags, row for row`, async () => {
      const r = await run(s.name);
      const captured = r.world.links.map((l, i) => ({ l, i })).filter(({ l }) => l.capture_interface >= 0);
      expect(captured.map(({ i }) => i)).toContain(defaultCapturePoint(r.world));
      let rows = 0;
      let retransmissions = 0;
      for (const { l, i } of captured) {
        const file = join(dir, `${s.name}-${l.name}.pcapng`);
        writeFileSync(file, linkPcapng(r.pcapng, r.world, i));
        const { page, wireshark } = compare(r, i, file);
        expect(page.length, l.name).toBe(r.trace.frames.filter((f) => f.link === i).length);
        expect(wireshark, l.name).toEqual(page);
        // the stack's comment names the first copy by its No. in this file
        tsharkComments(file).forEach((comment, k) => {
          const n = /of frame (\d+)/.exec(comment)?.[1];
          if (n === undefined) return;
          const segment = (info: string) => /Seq=\d+ .*Len=\d+/.exec(info)?.[0];
          expect({ row: k + 1, first: segment(page[Number(n) - 1]!.info) }).toEqual({ row: k + 1, first: segment(page[k]!.info) });
          retransmissions++;
        });
        rows += page.length;
      }
      expect(rows).toBeGreaterThan(10);
      if (s.name !== 'arduino-slip') expect(retransmissions).toBeGreaterThan(0);
    });
  }

  it('nfc-bridge-1080 opens on its Ethernet link, where the paper captured, and that file has the analysis the page shows', async () => {
    const r = await run('nfc-bridge-1080');
    const eth = defaultCapturePoint(r.world);
    expect(r.world.links[eth]!.name).toBe('eth');
    const file = join(dir, 'nfc-bridge-1080-default.pcapng');
    writeFileSync(file, linkPcapng(r.pcapng, r.world, eth));
    const { page, wireshark } = compare(r, eth, file);
    expect(wireshark).toEqual(page);
    // not a file without analysis: the server's own retransmissions are there
    expect(page.filter((row) => row.flags.includes('tcp.analysis.retransmission')).length).toBeGreaterThan(0);
  });

  it("Export all links: Wireshark marks the bridge's copies on the second link, as the page's note says", async () => {
    const r = await run('nfc-bridge-1080');
    const file = join(dir, 'nfc-bridge-1080-all.pcapng');
    writeFileSync(file, r.pcapng);
    const flags = tsharkFlags(file);
    const info = tsharkColumns(file);
    // The file's frames in order, each with its link: the engine writes them as they are sent.
    const frames = r.trace.frames.filter((f) => r.world.links[f.link]!.capture_interface >= 0);
    expect(flags.length).toBe(frames.length);
    const model = buildRunModel(r);
    let differing = 0;
    frames.forEach((f, k) => {
      const row = model.link(f.link).analysis.rows[model.link(f.link).rowOf.get(f.id)!]!;
      if (row.info !== info[k]!.info || [...row.flags].sort().join() !== flags[k]!.join()) differing++;
    });
    // the SYN forwarded onto the second link is already a "retransmission" of the first copy
    const copies = flags.filter((fl) => fl.includes('tcp.analysis.retransmission') || fl.includes('tcp.analysis.keep_alive')).length;
    const pageCopies = r.world.links.reduce(
      (n, _, i) =>
        n +
        model.link(i).analysis.rows.filter((row) => row.flags.includes('tcp.analysis.retransmission') || row.flags.includes('tcp.analysis.keep_alive')).length,
      0,
    );
    expect(copies).toBeGreaterThan(pageCopies);
    expect(differing).toBeGreaterThan(0);
  });
});
