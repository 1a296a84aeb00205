// A tool's run of one application of the live session: its output lines (ping's, the
// client's), the data it received, and its final report, as React state.
import { useCallback, useState } from 'react';
import { AppRecordKind, type TraceAppRecord } from '../engine/trace_types.ts';
import type { LiveSession } from './live_session.ts';

export interface AppOutput {
  lines: string[];
  report: TraceAppRecord | null;
  running: boolean;
  app: number | null;
}

const IDLE: AppOutput = { lines: [], report: null, running: false, app: null };
const decoder = new TextDecoder();

export function useAppOutput(session: LiveSession | null) {
  const [out, setOut] = useState<AppOutput>(IDLE);
  const start = useCallback(
    (app: Record<string, unknown>, firstLines: string[] = []): number | null => {
      if (!session) return null;
      setOut({ ...IDLE, lines: firstLines, running: true });
      try {
        const index = session.startApp(app, (rec) =>
          setOut((o) => {
            if (rec.kind === AppRecordKind.Report) return { ...o, report: rec, running: false, lines: rec.text ? [...o.lines, ...rec.text.split('\n')] : o.lines };
            if (rec.kind === AppRecordKind.Data) return { ...o, lines: [...o.lines, decoder.decode(rec.data).replace(/\r?\n$/, '')] };
            return { ...o, lines: [...o.lines, rec.text] };
          }),
        );
        setOut((o) => ({ ...o, app: index }));
        return index;
      } catch (e) {
        setOut({ ...IDLE, lines: [...firstLines, e instanceof Error ? e.message : String(e)] });
        return null;
      }
    },
    [session],
  );
  const note = useCallback((line: string) => setOut((o) => ({ ...o, lines: [...o.lines, line] })), []);
  return { out, start, note };
}
