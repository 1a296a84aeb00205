// The seed's throughput table, live: N echo connections opened at once, each sending its
// bytes and reading them back; the application data rate each way as a share of the line,
// beside the seed's figure for the same N, and beside what bounds it, read from the run's
// own frames (throughput_limits.ts): the ceiling of the MSS and framing, the board's window
// per round trip, and the time the line carried data.
import { useRef, useState } from 'react';
import { AppRecordKind, type TraceAppRecord } from '../../core/engine/trace_types.ts';
import type { LiveSession } from './live_session.ts';
import { BOARD_ADDR } from './live_scenario.ts';
import type { LiveFraming } from './serial_theory.ts';
import { SEED_THROUGHPUT, summarize, type ThroughputResult } from './throughput.ts';
import { lineLimits, type LineLimits } from './throughput_limits.ts';
import { NumberField, ToolOutput } from './tool_parts.tsx';

const ECHO_PORT = 7;

interface RunState {
  session: LiveSession | null;
  lines: string[];
  running: boolean;
  result: ThroughputResult | null;
  limits: LineLimits | null;
}

/** What each connection sends by default: a stream, as the seed measured, not a burst. */
export const STREAM_BYTES = 16_384;

export function ThroughputTool(props: { session: LiveSession | null; usable: boolean }) {
  const { session, usable } = props;
  const [n, setN] = useState(1);
  // The seed streamed "as fast as possible": 16 KB is some 3 s of the line for one
  // connection, where 1 KB is mostly the handshake and the first round trip.
  const [bytes, setBytes] = useState(STREAM_BYTES);
  const [state, setState] = useState<RunState>({ session, lines: [], running: false, result: null, limits: null });
  const reports = useRef<TraceAppRecord[]>([]);
  // a run belongs to its session: a new one starts afresh, one whose line ended is over
  const own = state.session === session ? state : { session, lines: [], running: false, result: null, limits: null };
  const running = own.running && session?.ended === null;

  const run = () => {
    if (!session) return;
    const startedUs = session.nowUs();
    reports.current = [];
    const update = (f: (s: RunState) => RunState) => setState((s) => (s.session === session ? f(s) : s));
    setState({
      session,
      running: true,
      result: null,
      limits: null,
      lines: [`${n} connection${n > 1 ? 's' : ''} to ${BOARD_ADDR}:${ECHO_PORT}, ${bytes} bytes each...`],
    });
    const finish = (rec: TraceAppRecord) => {
      if (rec.kind !== AppRecordKind.Report) return;
      reports.current.push(rec);
      if (reports.current.length < n) return;
      const result = summarize(reports.current, startedUs, session.baud);
      const framing = liveFraming(session);
      const frames = session.trace.frames.filter((f) => f.link === 0);
      const limits = lineLimits(frames, { sinceUs: startedUs, board: BOARD_ADDR, port: ECHO_PORT, framing, baud: session.baud });
      update((s) => ({
        ...s,
        running: false,
        result,
        limits,
        lines: [
          ...s.lines,
          `${result.completed} of ${result.connections} completed${result.failed ? `, ${result.failed} failed` : ''}`,
          `${result.bytesEachWay} bytes each way in ${result.seconds.toFixed(3)} s`,
          ...(limits ? [] : ['no data crossed the line: nothing to measure']),
        ],
      }));
    };
    try {
      for (let i = 0; i < n; i++) session.startApp({ type: 'tcp_echo_client', to: BOARD_ADDR, port: ECHO_PORT, bytes }, finish);
    } catch (e) {
      update((s) => ({ ...s, running: false, lines: [...s.lines, e instanceof Error ? e.message : String(e)] }));
    }
  };

  return (
    <details className="tool">
      <summary>Throughput</summary>
      <div className="tool-fields">
        <NumberField label="Connections" value={n} min={1} max={50} onChange={setN} />
        <NumberField label="Bytes each" value={bytes} min={1} max={1_000_000} onChange={setBytes} />
        <button type="button" disabled={!usable || running} onClick={run}>
          Run
        </button>
      </div>
      <p className="tool-note">
        Each connection sends its bytes to the echo port and reads them back. Beside the share of the line: what bounds it, read from the run's own frames.
      </p>
      <ToolOutput label="Throughput output" lines={session?.ended && own.running ? [...own.lines, `the line ended: ${session.ended}`] : own.lines} />
      {own.result && own.limits && <Limits result={own.result} limits={own.limits} framing={session ? liveFraming(session) : 'slip'} />}
    </details>
  );
}

function liveFraming(session: LiveSession): LiveFraming {
  const link = session.scenario.links.find((l) => l.type === 'external');
  return (link?.type === 'external' && link.framing) || 'slip';
}

/** "21.9 %", the sign kept with its number (a no-break space) when the text wraps. */
const pct = (share: number) => `${(100 * share).toFixed(1)}\u00a0%`;

function Limits(props: { result: ThroughputResult; limits: LineLimits; framing: LiveFraming }) {
  const { result: r, limits: l, framing } = props;
  const seed = SEED_THROUGHPUT[r.connections];
  const rttMs = (l.rttUs / 1000).toFixed(1);
  return (
    <dl className="live-counters" aria-label="Throughput and its limits">
      <dt>Measured</dt>
      <dd data-testid="tp-share">
        {pct(r.share)} of the line{seed ? ` (seed: ${Math.round(100 * seed)}\u00a0%)` : ''}
      </dd>
      <dt>Ceiling</dt>
      <dd data-testid="tp-ceiling">
        {pct(l.ceiling)} of the line: MSS {l.mss} ({l.mssDefault ? "no MSS option in the board's SYN-ACK: RFC 1122's default" : "the board's SYN-ACK"}) over{' '}
        {framing.toUpperCase()}, {l.mss} B of data per {l.dataFrame} B data frame + {l.ackFrame} B ACK-only frame
      </dd>
      <dt>Board's window</dt>
      <dd data-testid="tp-window">
        {l.usualWindow} bytes (SYN-ACK {l.synAckWindow}
        {l.minWindow < l.usualWindow ? `, as low as ${l.minWindow}` : ''}
        {l.window > l.usualWindow ? `, as high as ${l.window}` : ''}
        {l.zeroWindows ? `; closed ${l.zeroWindows} times` : ''})
      </dd>
      <dt>Round trip</dt>
      <dd data-testid="tp-rtt">{l.rttSamples ? `${rttMs} ms (data to the board's ACK, mean of ${l.rttSamples})` : 'not measured (no ACK of data)'}</dd>
      <dt>At once</dt>
      <dd data-testid="tp-at-once">
        {l.atOnce} of {l.connections} connection{l.connections > 1 ? 's' : ''} with data on the line
        {l.zeroWindows ? ' and a window open' : ''}
      </dd>
      <dt>Window allows</dt>
      <dd data-testid="tp-window-bound">
        {l.windowBound === null ? 'not known (no round trip)' : `${pct(l.windowBound)} of the line (${l.atOnce} × ${l.usualWindow} bytes per ${rttMs} ms)`}
      </dd>
      <dt>Why</dt>
      <dd data-testid="tp-why">{why(r, l, rttMs)}</dd>
    </dl>
  );
}

/** Which bound holds the figure down, in the run's own numbers. */
function why(r: ThroughputResult, l: LineLimits, rttMs: string): string {
  const each = l.atOnce > 1 ? ` on each of ${l.atOnce} connections at once` : '';
  const bound =
    l.windowBound !== null && l.windowBound < l.ceiling
      ? `The board advertises a ${l.usualWindow}-byte window: at most ${l.usualWindow} bytes per round trip of ${rttMs} ms${each}, so at most ${pct(l.windowBound)} of the line (the framing alone would allow ${pct(l.ceiling)}).`
      : `The line is the limit: at most ${pct(l.ceiling)} with MSS ${l.mss}${l.windowBound !== null ? `; the window would allow ${pct(l.windowBound)}` : ''}.`;
  const busy = l.busyUs / 1e6;
  const idle =
    r.seconds > 0 && busy < 0.95 * r.seconds
      ? ` Data was on the line ${busy.toFixed(3)} s of the ${r.seconds.toFixed(3)} s; the rest went to handshakes, waiting for a connection, and closes.`
      : '';
  const turns = l.zeroWindows
    ? ` The board closed a window ${l.zeroWindows} times: the connections beyond those it serves at once wait their turn with no window, and are told when it comes.`
    : '';
  return bound + turns + idle;
}
