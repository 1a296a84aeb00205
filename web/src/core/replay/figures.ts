// A seed's packet list (a Wireshark figure) beside the same link's capture in a run, aligned
// row by row (align.ts states the rule): each row matched, differing (the fields named),
// missing from ours or extra in ours. Shown, not judged: the judged figures (latency,
// segments, retransmissions) are rows of the reference block; this is what a reader
// compares by eye, with each row marked.

import { analyzeCapture } from '../packets/index.ts';
import type { FigureRow, ReferenceFigure } from '../scenarios/reference.ts';
import { alignRows, sameSequence, type AlignedRow, type AlignRow, type Alignment } from './align.ts';
import type { RunView } from './metrics.ts';

/** In how many of a run's repetitions (tick placements) the capture has the seed's
 *  sequence of TCP segments exactly. */
export interface Placements {
  run: string;
  reproduced: number;
  of: number;
}

export interface FigureComparison extends Alignment {
  label: string;
  /** what the transcription corrected (the figure's note) */
  note?: string;
  run: string;
  link: string;
  placements?: Placements;
}

/** The seed's rows, times from its first TCP row. */
function fromSeed(rows: readonly FigureRow[]): AlignRow[] {
  const t0 = rows.find((r) => r.protocol === 'TCP')?.time ?? 0;
  return rows.map((r, i) => ({ no: i + 1, ...r, time: r.time - t0 }));
}

/** The figure's link in a run as Wireshark lists it, times from its first TCP row. */
function fromRun(figure: ReferenceFigure, view: RunView): AlignRow[] {
  const link = view.world.links.findIndex((l) => l.name === figure.link);
  const frames = view.trace.frames.filter((f) => f.link === link);
  const rows = analyzeCapture(frames.map((f) => ({ timeUs: f.tSent, bytes: f.bytes, ethernet: f.ethernet })));
  const t0 = rows.find((r) => r.protocol === 'TCP')?.timeS ?? 0;
  return rows.map((r) => ({
    no: r.no,
    time: r.timeS - t0,
    source: r.source,
    destination: r.destination,
    protocol: r.protocol,
    length: r.length,
    info: r.info,
  }));
}

/** The seed's packet list aligned with the run's capture of the figure's link. */
export function compareFigure(figure: ReferenceFigure, view: RunView): FigureComparison {
  return {
    label: figure.label,
    ...(figure.note === undefined ? {} : { note: figure.note }),
    run: figure.run ?? '',
    link: figure.link,
    ...alignRows(fromSeed(figure.rows), fromRun(figure, view)),
  };
}

/** Whether a run's capture has the figure's sequence of TCP segments exactly (align.ts). */
export function reproducesFigure(figure: ReferenceFigure, view: RunView): boolean {
  return sameSequence(fromSeed(figure.rows), fromRun(figure, view));
}

const FIELD_NAME = { seq: 'Seq', ack: 'Ack', len: 'Len', length: 'Length' } as const;

/** A row's mark in words, the same in the CLI and the page: "matched", "differs: Seq, Ack",
 *  "missing" (the seed's row, none of ours), "extra" (ours, none of the seed's). */
export function markText(r: AlignedRow): string {
  return r.mark === 'differing' ? `differs: ${r.differs.map((f) => FIELD_NAME[f]).join(', ')}` : r.mark;
}

/** The figure's counts in one line. */
export function alignmentSummary(f: FigureComparison): string {
  const counts = `${f.matched} of ${f.seedRows} rows matched, ${f.differing} differing, ${f.missing} missing, ${f.extra} extra`;
  const p = f.placements;
  const placed = p ? `; the seed's sequence of TCP segments in ${p.reproduced} of ${p.of} tick placements (run ${p.run})` : '';
  return `${f.label} beside run ${f.run || '(as written)'}, link ${f.link}: ${counts}${placed}`;
}
