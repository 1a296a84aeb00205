// The live side panel: connect to a board (Web Serial, or the emulated Arduino), the line's
// state and counters, and the tools. Everything the tools do shows in the packet list,
// ladder and graphs as it happens; after the line ends the capture stays and exports.
import { EchoConsole } from './EchoConsole.tsx';
import { lineHealth } from './line_health.ts';
import { connect, disconnect, hasWebSerial, setBaud, unplugEmulated, useLive, type LiveKind } from './live_store.ts';
import { PingTool } from './PingTool.tsx';
import { DiscardTool, ProbeTool } from './PortTools.tsx';
import { ThroughputTool } from './ThroughputTool.tsx';
import './serial.css';

const BAUDS = [2400, 9600, 19200, 38400, 57600, 115200];

const STATUS_TEXT = {
  idle: 'Not connected',
  starting: 'Connected; waiting for the board to start (opening the port resets an Uno)…',
  up: 'Connected',
  ended: 'Disconnected',
} as const;

/** While a connection is made, the line says what is being connected: the session still
 *  in the store is the one before, and neither its name nor its counters are this one's. */
function connectingText(kind: LiveKind | null, baud: number): string {
  return kind === 'usb' ? `Connecting to a board over Web Serial at ${baud} baud: choose its port…` : `Connecting to the emulated Arduino at ${baud} baud…`;
}

export function SerialPanel() {
  const status = useLive((s) => s.status);
  const kind = useLive((s) => s.kind);
  const baud = useLive((s) => s.baud);
  const message = useLive((s) => s.message);
  const session = useLive((s) => s.session);
  const emulated = useLive((s) => s.emulated);
  useLive((s) => s.version); // the counters follow the session
  const webSerial = hasWebSerial();
  const lineUp = status === 'starting' || status === 'up';
  const usable = status === 'up';
  const connecting = status === 'connecting';
  const health = session && !connecting ? lineHealth(session.trace, session.world, session.bytesIn, session.baud) : null;

  return (
    <div className="serial-panel" aria-label="Arduino connection">
      <h2 className="serial-title">Arduino 10.0.7.2 over SLIP</h2>
      <div className="tool-fields">
        <label className="tool-field">
          Baud rate{' '}
          <select value={baud} onChange={(e) => setBaud(Number(e.target.value))} disabled={lineUp}>
            {BAUDS.map((b) => (
              <option key={b} value={b}>
                {b}
              </option>
            ))}
          </select>
        </label>
      </div>
      <div className="tool-actions">
        <button type="button" disabled={!webSerial || lineUp || status === 'connecting'} onClick={() => void connect('usb')}>
          Connect Arduino
        </button>
        <button type="button" disabled={lineUp || status === 'connecting'} onClick={() => void connect('emulated')}>
          Connect emulated Arduino
        </button>
      </div>
      {!webSerial && (
        <p className="tool-note" role="note">
          This browser has no Web Serial (Firefox and Safari lack it). The emulated Arduino runs the same firmware here in the page; for a real board use Chrome
          or Edge.
        </p>
      )}
      <p className="live-status" role="status" data-testid="live-status">
        {status === 'connecting' ? connectingText(kind, baud) : STATUS_TEXT[status]}
        {session && !connecting ? ` — ${session.label}, ${session.baud} baud, 8N1` : ''}
      </p>
      {message && (
        <p className="live-problem" role="alert">
          {message}
        </p>
      )}
      {lineUp && (
        <div className="tool-actions">
          <button type="button" onClick={() => void disconnect()}>
            Disconnect
          </button>
          {kind === 'emulated' && (
            <button type="button" onClick={unplugEmulated} title="What pulling the USB cable does">
              Unplug
            </button>
          )}
        </div>
      )}
      {session && health && (
        <dl className="live-counters" aria-label="Line counters">
          <dt>Bytes in / out</dt>
          <dd>
            {session.bytesIn} / {session.bytesOut}
          </dd>
          <dt>Frames in / out</dt>
          <dd>
            {health.framesIn} / {health.framesOut}
          </dd>
          <dt>Bad frames</dt>
          <dd data-testid="bad-frames">{health.badTotal}</dd>
          {[...health.bad].map(([why, n]) => (
            <dd key={why} className="muted">
              {n} × {why}
            </dd>
          ))}
          {emulated && (
            <>
              <dt>Emulation speed</dt>
              <dd>{Math.round(emulated.speed * 100)} % of real time</dd>
              <dt>Emulation adds</dt>
              <dd data-testid="model-latency">
                {emulated.latency.toBoard.mean.toFixed(2)} ms to the board, {emulated.latency.fromBoard.mean.toFixed(2)} ms back (means; max{' '}
                {emulated.latency.toBoard.max.toFixed(1)} / {emulated.latency.fromBoard.max.toFixed(1)} ms)
              </dd>
            </>
          )}
        </dl>
      )}
      {health?.problem && (
        <p className="live-problem" role="alert" data-testid="line-problem">
          {health.problem}
        </p>
      )}
      <PingTool session={session} usable={usable} />
      <EchoConsole session={session} usable={usable} />
      <ProbeTool session={session} usable={usable} />
      <DiscardTool session={session} usable={usable} />
      <ThroughputTool session={session} usable={usable} />
    </div>
  );
}
