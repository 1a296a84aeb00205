// The throughput tool's limits, read from frames the engine made (a board of the simulator
// standing in for the firmware), against tshark reading the same frames: the MSS, window
// and round trip follow what the board says on the wire, whatever its configuration.
import { describe, expect, it } from 'vitest';
import { runScenario } from '../../core/engine/run.ts';
import { runTshark } from '../../core/packets/testing/tshark.ts';
import type { Scenario } from '../../core/scenarios/types.ts';
import { lineLimits } from './throughput_limits.ts';

const BOARD = '10.0.7.2';

function echoRun(board: { mtu: number; rcvBuf: number }, connections: number): Scenario {
  return {
    version: 1,
    name: 'limits',
    title: 'echo throughput',
    seed: 1,
    duration_ms: 60_000,
    hosts: [
      { name: 'pc', addr: '10.0.7.1/24' },
      { name: 'board', addr: `${BOARD}/24`, stack: { tcp_max_pcbs: 4, tcp_rcv_buf: board.rcvBuf, tcp_snd_buf: 1024 } },
    ],
    links: [{ name: 'serial', type: 'serial', a: 'pc', b: 'board', baud: 57600, framing: 'slip', mtu: board.mtu }],
    apps: [
      { type: 'tcp_echo_server', host: 'board', port: 7 },
      { type: 'tcp_echo_client', host: 'pc', to: 'board', port: 7, bytes: 3000, connections },
    ],
  } as Scenario;
}

async function limitsAndTshark(s: Scenario) {
  const r = await runScenario(JSON.stringify(s));
  const frames = r.trace.frames.filter((f) => f.link === 0);
  const limits = lineLimits(frames, { sinceUs: 0, board: BOARD, port: 7, framing: 'slip', baud: 57600 });
  const rows = runTshark(frames.map((f) => ({ timeUs: f.tSent, bytes: f.bytes })));
  const fromBoard = rows.filter((row) => row.source === BOARD && row.protocol !== 'ICMP');
  const window = Math.max(...fromBoard.map((row) => Number(row.values['tcp.window_size'])));
  const rtts = fromBoard
    .filter((row) => row.values['tcp.analysis.ack_rtt'] !== '' && Number(rows[Number(row.values['tcp.analysis.acks_frame']) - 1]!.values['tcp.len']) > 0)
    .map((row) => Number(row.values['tcp.analysis.ack_rtt']) * 1e6);
  return { limits: limits!, window, rttUs: rtts.reduce((a, b) => a + b, 0) / rtts.length, rttSamples: rtts.length };
}

describe('lineLimits', () => {
  it("MTU 576, a 256-byte receive buffer: MSS 536, the seed's 86 % ceiling, the window and round trip tshark reads", async () => {
    const { limits, window, rttUs, rttSamples } = await limitsAndTshark(echoRun({ mtu: 576, rcvBuf: 256 }, 1));
    expect(limits.mss).toBe(536);
    expect(limits.mssDefault).toBe(false);
    expect([limits.dataHeader, limits.ackHeader]).toEqual([40, 40]);
    expect([limits.dataFrame, limits.ackFrame]).toEqual([578, 42]);
    expect(limits.ceiling).toBeCloseTo(536 / 620, 12);
    expect(limits.window).toBe(window);
    expect(limits.window).toBeLessThanOrEqual(256);
    expect(limits.rttSamples).toBe(rttSamples);
    expect(limits.rttUs).toBeCloseTo(rttUs, 3);
    expect(limits.connections).toBe(1);
    expect(limits.atOnce).toBe(1);
    expect(limits.windowBound).toBeCloseTo(((window / (rttUs / 1e6)) * 10) / 57600, 6);
  });

  it('MTU 296 and a larger buffer: the MSS and window move with the board, and so does the ceiling', async () => {
    const { limits, window } = await limitsAndTshark(echoRun({ mtu: 296, rcvBuf: 2048 }, 1));
    expect(limits.mss).toBe(256);
    expect(limits.ceiling).toBeCloseTo(256 / (256 + 42 + 42), 12);
    expect(limits.window).toBe(window);
    expect(limits.window).toBeGreaterThan(256);
  });

  it('three connections served at once count three windows per round trip', async () => {
    const { limits } = await limitsAndTshark(echoRun({ mtu: 576, rcvBuf: 256 }, 3));
    expect(limits.connections).toBe(3);
    expect(limits.atOnce).toBe(3);
    expect(limits.windowBound).toBeCloseTo((((3 * limits.usualWindow) / (limits.rttUs / 1e6)) * 10) / 57600, 6);
  });

  it("a board that offers a connection alone two segments and each of several one: the bound counts the window it offered most, as tshark's windows say", async () => {
    const s = echoRun({ mtu: 576, rcvBuf: 256 }, 3);
    s.hosts[1] = { name: 'board', addr: `${BOARD}/24`, stack: { tcp_responder: true, tcp_responder_wnd: 1072 } };
    s.apps = s.apps!.filter((a) => a.type === 'tcp_echo_client');
    const r = await runScenario(JSON.stringify(s));
    const frames = r.trace.frames.filter((f) => f.link === 0);
    const limits = lineLimits(frames, { sinceUs: 0, board: BOARD, port: 7, framing: 'slip', baud: 57600 })!;
    const windows = runTshark(frames.map((f) => ({ timeUs: f.tSent, bytes: f.bytes })))
      .filter((row) => row.source === BOARD)
      .map((row) => Number(row.values['tcp.window_size']));
    const count = (w: number) => windows.filter((x) => x === w).length;
    // the first connection's SYN-ACK, alone: two segments; the rest, shared: one each
    expect(limits.window).toBe(Math.max(...windows));
    expect(limits.window).toBe(1072);
    expect(limits.usualWindow).toBe(536);
    expect(count(536)).toBeGreaterThan(count(1072));
    expect(limits.windowBound).toBeCloseTo((((limits.atOnce * 536) / (limits.rttUs / 1e6)) * 10) / 57600, 6);
  });

  it('a board serving more connections than it gives windows at once: the closed windows are counted apart, as tshark shows them', async () => {
    const s = echoRun({ mtu: 576, rcvBuf: 256 }, 12);
    s.hosts[0] = { name: 'pc', addr: '10.0.7.1/24', stack: { tcp_max_pcbs: 16 } };
    s.hosts[1] = { name: 'board', addr: `${BOARD}/24`, stack: { tcp_responder: true, tcp_responder_wnd: 1072 } };
    s.apps = s.apps!.filter((a) => a.type === 'tcp_echo_client');
    const r = await runScenario(JSON.stringify(s));
    const frames = r.trace.frames.filter((f) => f.link === 0);
    const limits = lineLimits(frames, { sinceUs: 0, board: BOARD, port: 7, framing: 'slip', baud: 57600 })!;
    const fromBoard = runTshark(frames.map((f) => ({ timeUs: f.tSent, bytes: f.bytes }))).filter((row) => row.source === BOARD && !/\bRST\b/.test(row.info));
    const zero = fromBoard.filter((row) => Number(row.values['tcp.window_size']) === 0).length;
    expect(zero).toBeGreaterThan(0);
    expect(limits.zeroWindows).toBe(zero);
    expect(limits.usualWindow).toBe(536);
    expect(limits.minWindow).toBeGreaterThan(0);
    // at once: the most connections within their data and holding an open window, as
    // tshark's streams, lengths and windows say; fewer than the 12, which take turns
    const rows = runTshark(frames.map((f) => ({ timeUs: f.tSent, bytes: f.bytes }))).filter((row) => row.values['tcp.stream'] !== '');
    const span = new Map<string, [number, number]>();
    rows.forEach((row, i) => {
      if (Number(row.values['tcp.len']) === 0) return;
      const s = span.get(row.values['tcp.stream']);
      span.set(row.values['tcp.stream'], s ? [s[0], i] : [i, i]);
    });
    const open = new Set<string>();
    let most = 0;
    rows.forEach((row, i) => {
      const stream = row.values['tcp.stream'];
      if (row.source === BOARD && !/\bRST\b/.test(row.info)) {
        if (Number(row.values['tcp.window_size']) > 0) open.add(stream);
        else open.delete(stream);
      }
      most = Math.max(most, [...open].filter((s) => span.has(s) && span.get(s)![0] <= i && i <= span.get(s)![1]).length);
    });
    expect(limits.atOnce).toBe(most);
    expect(most).toBeLessThan(12);
  });

  it('no connection of the run: nothing to bound', async () => {
    const r = await runScenario(JSON.stringify(echoRun({ mtu: 576, rcvBuf: 256 }, 1)));
    const frames = r.trace.frames.filter((f) => f.link === 0);
    expect(lineLimits(frames, { sinceUs: r.virtualUs + 1, board: BOARD, port: 7, framing: 'slip', baud: 57600 })).toBeNull();
  });
});
