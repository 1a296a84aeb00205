// Ping the board: count, size and interval as for Linux ping, its lines and statistics, and
// the least RTT the line allows for that size beside what was measured.
import { useState } from 'react';
import type { LiveSession } from './live_session.ts';
import { BOARD_ADDR } from './live_scenario.ts';
import { pingTheoryMs } from './serial_theory.ts';
import { useAppOutput } from './use_app_output.ts';
import { NumberField, ToolOutput } from './tool_parts.tsx';

export function PingTool(props: { session: LiveSession | null; usable: boolean }) {
  const { session, usable } = props;
  const [count, setCount] = useState(10);
  const [size, setSize] = useState(56);
  const [gap, setGap] = useState(1000);
  const { out, start } = useAppOutput(session);
  const theory = session ? pingTheoryMs(size, session.baud) : 0;
  return (
    <details className="tool" open>
      <summary>Ping {BOARD_ADDR}</summary>
      <div className="tool-fields">
        <NumberField label="Count" value={count} min={1} max={1000} onChange={setCount} />
        <NumberField label="Size" value={size} min={0} max={548} onChange={setSize} />
        <NumberField label="Interval (ms)" value={gap} min={10} max={60000} onChange={setGap} />
      </div>
      <div className="tool-actions">
        <button type="button" disabled={!usable || out.running} onClick={() => start({ type: 'ping', to: BOARD_ADDR, count, size, interval_ms: gap })}>
          Ping
        </button>
        <button type="button" disabled={!usable || !out.running || out.app === null} onClick={() => out.app !== null && session?.closeApp(out.app)}>
          Stop
        </button>
      </div>
      {session && (
        <p className="tool-note" data-testid="ping-theory">
          Least RTT for {size} bytes at {session.baud} baud: {theory.toFixed(1)} ms (2 × {size + 28 + 2} bytes × 10 bits, no escapes)
        </p>
      )}
      <ToolOutput label="Ping output" lines={out.lines} />
    </details>
  );
}
