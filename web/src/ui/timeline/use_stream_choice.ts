// Which stream the graphs show: by default the stream of the selected frame (in the
// direction of its data), else the first TCP stream of the capture point; the user may pick
// another stream or reverse the direction until the selection changes again.
import { useMemo, useState } from 'react';
import type { RunModel } from '../../core/run/run_model.ts';
import { streamsOf } from './graph_model.ts';
import { dataDirection, defaultChoice, streamLabel, type StreamChoice } from './tcp_streams.ts';

export interface StreamOption {
  value: string;
  label: string;
}

export function useStreamChoice(run: RunModel | null, captureLink: number, selected: number | null) {
  const [manual, setManual] = useState<StreamChoice | null>(null);
  const [seenSelection, setSeenSelection] = useState(selected);
  if (selected !== seenSelection) {
    // A new selection picks its own stream (React's "adjust state on a prop change").
    setSeenSelection(selected);
    setManual(null);
  }
  const auto = useMemo(() => {
    if (!run) return null;
    const f = selected === null ? undefined : run.result.trace.frame(selected);
    let sel = null;
    if (f) {
      const v = run.link(f.link);
      const r = v.rowOf.get(f.id);
      const row = r === undefined ? undefined : v.analysis.rows[r];
      if (row) sel = { link: f.link, row };
    }
    return defaultChoice((l) => streamsOf(run, l), captureLink, sel);
  }, [run, captureLink, selected]);
  const choice = manual ?? auto;
  const options = useMemo<StreamOption[]>(
    () =>
      run
        ? run.result.world.links.flatMap((l, i) => streamsOf(run, i).map((s) => ({ value: `${i}:${s.stream}`, label: `${l.name} · ${streamLabel(s, 'a')}` })))
        : [],
    [run],
  );
  const pick = (value: string) => {
    if (!run) return;
    const [link, stream] = value.split(':').map(Number) as [number, number];
    const info = streamsOf(run, link).find((s) => s.stream === stream);
    if (info) setManual({ link, stream, from: dataDirection(info) });
  };
  const reverse = () => {
    if (choice) setManual({ ...choice, from: choice.from === 'a' ? 'b' : 'a' });
  };
  return { choice, options, pick, reverse };
}
