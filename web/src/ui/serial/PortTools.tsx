// Two one-shot tools: a port probe (a handshake and nothing more: "Connection refused" is
// the board's RST for a port it does not serve) and a discard run (N bytes to port 9, the
// rate they went at).
import { useState } from 'react';
import type { LiveSession } from './live_session.ts';
import { BOARD_ADDR } from './live_scenario.ts';
import { lineShare } from './serial_theory.ts';
import { useAppOutput } from './use_app_output.ts';
import { NumberField, ToolOutput } from './tool_parts.tsx';

export function ProbeTool(props: { session: LiveSession | null; usable: boolean }) {
  const { session, usable } = props;
  const [port, setPort] = useState(8);
  const { out, start } = useAppOutput(session);
  return (
    <details className="tool" open>
      <summary>Port probe</summary>
      <div className="tool-fields">
        <NumberField label="Port" value={port} min={1} max={65535} onChange={setPort} />
        <button
          type="button"
          disabled={!usable || out.running}
          onClick={() => start({ type: 'tcp_client', to: BOARD_ADDR, port, probe: true }, [`Probing ${BOARD_ADDR}:${port}...`])}
        >
          Probe
        </button>
      </div>
      <ToolOutput label="Probe output" lines={out.lines} />
    </details>
  );
}

export function DiscardTool(props: { session: LiveSession | null; usable: boolean }) {
  const { session, usable } = props;
  const [bytes, setBytes] = useState(2048);
  const { out, start } = useAppOutput(session);
  const r = out.report;
  return (
    <details className="tool">
      <summary>Discard</summary>
      <div className="tool-fields">
        <NumberField label="Bytes" value={bytes} min={1} max={10_000_000} onChange={setBytes} />
        <button
          type="button"
          disabled={!usable || out.running}
          onClick={() => start({ type: 'tcp_echo_client', to: BOARD_ADDR, port: 9, bytes, send_only: true }, [`Sending ${bytes} bytes to ${BOARD_ADDR}:9...`])}
        >
          Send
        </button>
      </div>
      <ToolOutput
        label="Discard output"
        lines={[
          ...out.lines,
          ...(r && session
            ? [
                r.error === 0 && r.elapsedUs > 0
                  ? `${r.bytes} bytes in ${(r.elapsedUs / 1e6).toFixed(3)} s: ${Math.round(r.bytes / (r.elapsedUs / 1e6))} B/s, ${(100 * lineShare(r.bytes / (r.elapsedUs / 1e6), session.baud)).toFixed(1)} % of the line`
                  : `failed after ${r.bytes} bytes (error ${r.error})`,
              ]
            : []),
        ]}
      />
    </details>
  );
}
