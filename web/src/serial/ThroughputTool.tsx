// The seed's throughput table, live: N echo connections opened at once, each sending its
// bytes and reading them back; the application data rate each way as a share of the line,
// beside the seed's figure for the same N.
import { useRef, useState } from 'react';
import { AppRecordKind, type TraceAppRecord } from '../engine/trace_types.ts';
import type { LiveSession } from './live_session.ts';
import { BOARD_ADDR } from './live_scenario.ts';
import { SEED_THROUGHPUT, summarize } from './throughput.ts';
import { NumberField, ToolOutput } from './tool_parts.tsx';

export function ThroughputTool(props: { session: LiveSession | null; usable: boolean }) {
  const { session, usable } = props;
  const [n, setN] = useState(1);
  const [bytes, setBytes] = useState(1024);
  const [lines, setLines] = useState<string[]>([]);
  const [running, setRunning] = useState(false);
  const reports = useRef<TraceAppRecord[]>([]);

  const run = () => {
    if (!session) return;
    const startedUs = session.nowUs();
    reports.current = [];
    setRunning(true);
    setLines([`${n} connection${n > 1 ? 's' : ''} to ${BOARD_ADDR}:7, ${bytes} bytes each...`]);
    const finish = (rec: TraceAppRecord) => {
      if (rec.kind !== AppRecordKind.Report) return;
      reports.current.push(rec);
      if (reports.current.length < n) return;
      const r = summarize(reports.current, startedUs, session.baud);
      const seed = SEED_THROUGHPUT[n];
      setLines((l) => [
        ...l,
        `${r.completed} of ${r.connections} completed${r.failed ? `, ${r.failed} failed` : ''}`,
        `${r.bytesEachWay} bytes each way in ${r.seconds.toFixed(3)} s: ${(100 * r.share).toFixed(1)} % of the line${seed ? ` (seed: ${Math.round(100 * seed)} %)` : ''}`,
      ]);
      setRunning(false);
    };
    try {
      for (let i = 0; i < n; i++) session.startApp({ type: 'tcp_echo_client', to: BOARD_ADDR, port: 7, bytes }, finish);
    } catch (e) {
      setLines((l) => [...l, e instanceof Error ? e.message : String(e)]);
      setRunning(false);
    }
  };

  return (
    <details className="tool">
      <summary>Throughput</summary>
      <div className="tool-fields">
        <NumberField label="Connections" value={n} min={1} max={30} onChange={setN} />
        <NumberField label="Bytes each" value={bytes} min={1} max={1_000_000} onChange={setBytes} />
        <button type="button" disabled={!usable || running} onClick={run}>
          Run
        </button>
      </div>
      <p className="tool-note">
        The echo firmware serves one connection at a time; the others wait in SYN retransmissions. With two or more, an ACK and a data segment sent back to back can overrun its 128-byte serial buffer while it sends, and that connection then waits out the retransmission timer.
      </p>
      <ToolOutput label="Throughput output" lines={lines} />
    </details>
  );
}
