// A TCP connection to the board's echo (7) or discard (9) service, typed into like telnet:
// each line goes out as one segment, what comes back is shown as it arrives, and the
// output is a transcript that marks which is which (transcript.ts).
import { useState } from 'react';
import type { LiveSession } from './live_session.ts';
import { BOARD_ADDR } from './live_scenario.ts';
import { useAppOutput } from './use_app_output.ts';
import { ToolOutput } from './tool_parts.tsx';
import { TRANSCRIPT_KEY } from './transcript.ts';

export function EchoConsole(props: { session: LiveSession | null; usable: boolean }) {
  const { session, usable } = props;
  const [port, setPort] = useState(7);
  const [text, setText] = useState('');
  const { out, start, note, sent } = useAppOutput(session, 'transcript');
  const open = out.running && out.app !== null;
  const send = () => {
    if (!session || out.app === null || text === '') return;
    const bytes = new TextEncoder().encode(`${text}\n`);
    const taken = session.sendToApp(out.app, bytes);
    sent(text);
    if (taken < bytes.length) note(`(only ${taken} of ${bytes.length} bytes fit in the send buffer)`);
    setText('');
  };
  return (
    <details className="tool" open>
      <summary>TCP console</summary>
      <div className="tool-fields">
        <label className="tool-field">
          Port{' '}
          <select value={port} onChange={(e) => setPort(Number(e.target.value))} disabled={open}>
            <option value={7}>7 (echo)</option>
            <option value={9}>9 (discard)</option>
          </select>
        </label>
      </div>
      <div className="tool-actions">
        <button
          type="button"
          disabled={!usable || out.running}
          onClick={() => start({ type: 'tcp_client', to: BOARD_ADDR, port }, [`Trying ${BOARD_ADDR}...`])}
        >
          Connect
        </button>
        <button type="button" disabled={!open} onClick={() => out.app !== null && session?.closeApp(out.app)}>
          Close
        </button>
      </div>
      <form
        className="tool-actions"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <input aria-label="Text to send" value={text} onChange={(e) => setText(e.target.value)} disabled={!open} placeholder="type a line" />
        <button type="submit" disabled={!open || text === ''}>
          Send
        </button>
      </form>
      {out.lines.length > 0 && (
        <p className="tool-note" data-testid="console-key">
          {TRANSCRIPT_KEY}
        </p>
      )}
      <ToolOutput label="Console output" lines={out.lines} marked />
    </details>
  );
}
