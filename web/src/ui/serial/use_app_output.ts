// A tool's run of one application of the live session: its output lines (ping's, the
// client's), the data it received, and its final report, as React state. The run belongs
// to its session: a new session starts the tool afresh, and a session whose line ended
// ends the run (a ping has printed its statistics by then, live_session.ts).
import { useCallback, useState } from 'react';
import { AppRecordKind, type TraceAppRecord } from '../../core/engine/trace_types.ts';
import type { LiveSession } from './live_session.ts';
import { addLine, addReceived, MARK_INFO, MARK_SENT, type Transcript } from './transcript.ts';

export interface AppOutput {
  lines: string[];
  report: TraceAppRecord | null;
  running: boolean;
  app: number | null;
}

/** `plain`: the app's lines as it prints them; `transcript`: marked as sent, received and
 *  about the connection (transcript.ts), received bytes cut into lines. */
export type OutputStyle = 'plain' | 'transcript';

interface RunState extends AppOutput {
  session: LiveSession | null;
  /** received text waits for its newline (transcript style) */
  open: boolean;
  decoder: TextDecoder;
}

function idle(session: LiveSession | null): RunState {
  return { session, lines: [], report: null, running: false, app: null, open: false, decoder: new TextDecoder() };
}

export function useAppOutput(session: LiveSession | null, style: OutputStyle = 'plain') {
  const [run, setRun] = useState<RunState>(() => idle(session));
  const info = useCallback((text: string) => (style === 'transcript' ? MARK_INFO + text : text), [style]);
  /** A change to the run of this session; a run of an older session is left alone. */
  const update = useCallback((f: (r: RunState) => RunState) => setRun((r) => (r.session === session ? f(r) : r)), [session]);
  const start = useCallback(
    (app: Record<string, unknown>, firstLines: string[] = []): number | null => {
      if (!session) return null;
      setRun({ ...idle(session), lines: firstLines.map(info), running: true });
      try {
        const index = session.startApp(app, (rec) => update((r) => withRecord(r, rec, style, info)));
        update((r) => ({ ...r, app: index }));
        return index;
      } catch (e) {
        setRun({ ...idle(session), lines: [...firstLines.map(info), info(e instanceof Error ? e.message : String(e))] });
        return null;
      }
    },
    [session, style, info, update],
  );
  const note = useCallback((line: string) => update((r) => ({ ...r, ...addLine(r, info(line)) })), [info, update]);
  const sent = useCallback((line: string) => update((r) => ({ ...r, ...addLine(r, MARK_SENT + line) })), [update]);
  return { out: view(run, session, info), start, note, sent };
}

/** What the tool shows: nothing of another session's run; a run whose line ended is over. */
function view(run: RunState, session: LiveSession | null, info: (t: string) => string): AppOutput {
  if (run.session !== session) return idle(session);
  const ended = session?.ended ?? null;
  if (!run.running || ended === null) return run;
  return { ...run, running: false, lines: [...run.lines, info(`the line ended: ${ended}`)] };
}

function withRecord(r: RunState, rec: TraceAppRecord, style: OutputStyle, info: (t: string) => string): RunState {
  if (rec.kind === AppRecordKind.Data) {
    const text = r.decoder.decode(rec.data, { stream: true });
    if (style === 'transcript') return { ...r, ...addReceived(r, text) };
    return { ...r, lines: [...r.lines, text.replace(/\r?\n$/, '')] };
  }
  // a line record is a line even when empty (ping's blank line before its statistics)
  const lines = rec.kind === AppRecordKind.Report && !rec.text ? [] : rec.text.split('\n');
  const t = lines.reduce<Transcript>((acc, l) => addLine(acc, info(l)), r);
  if (rec.kind === AppRecordKind.Report) return { ...r, ...t, report: rec, running: false };
  return { ...r, ...t };
}
