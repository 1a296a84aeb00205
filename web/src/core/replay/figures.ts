// A seed's packet list (a Wireshark figure) beside the same link's capture in a run: row by
// row, in order, the seed's TCP rows paired with ours. Shown, not judged: the judged
// figures (latency, segments, retransmissions) are rows of the reference block; this is
// what a reader compares by eye, with each pair marked where the segment is the same.

import { analyzeCapture } from '../packets/index.ts';
import type { FigureRow, ReferenceFigure } from '../scenarios/reference.ts';
import type { RunView } from './metrics.ts';

/** One line of a packet list: the seed's or ours, its time from that list's first TCP row. */
export interface FigureLine extends FigureRow {
  no: number;
}

export interface FigurePair {
  seed: FigureLine | null;
  ours: FigureLine | null;
  /** Same segment: the Info columns agree but for the window (see sameSegment). null when
   *  one side has no row, or the seed's row is not TCP (ARP's rows, in both lists, are not
   *  paired: only the TCP rows are). */
  same: boolean | null;
}

export interface FigureComparison {
  label: string;
  /** what the transcription corrected (the figure's note) */
  note?: string;
  run: string;
  link: string;
  pairs: FigurePair[];
  /** Pairs that are the same segment, and pairs with a TCP row on both sides. */
  same: number;
  compared: number;
}

/** The Info column without the advertised window, whose printed value the seed's figures
 *  do not always keep (OCR), with runs of spaces made one. */
function segmentOf(info: string): string {
  return info
    .replace(/\s*Win=\S+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function sameSegment(a: string, b: string): boolean {
  return segmentOf(a) === segmentOf(b);
}

function fromSeed(rows: readonly FigureRow[]): FigureLine[] {
  const t0 = rows.find((r) => r.protocol === 'TCP')?.time ?? 0;
  return rows.map((r, i) => ({ no: i + 1, ...r, time: r.time - t0 }));
}

function fromRun(figure: ReferenceFigure, view: RunView): FigureLine[] {
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

/** Pairs the seed's rows with the run's: a seed row that is not TCP stands alone; the TCP
 *  rows pair in order, and whichever list is longer ends with unpaired rows. */
export function compareFigure(figure: ReferenceFigure, view: RunView): FigureComparison {
  const seed = fromSeed(figure.rows);
  const ours = fromRun(figure, view).filter((r) => r.protocol === 'TCP');
  const pairs: FigurePair[] = [];
  let o = 0;
  for (const s of seed) {
    if (s.protocol !== 'TCP') {
      pairs.push({ seed: s, ours: null, same: null });
      continue;
    }
    const mine = ours[o++] ?? null;
    pairs.push({ seed: s, ours: mine, same: mine ? sameSegment(s.info, mine.info) : null });
  }
  for (; o < ours.length; o++) pairs.push({ seed: null, ours: ours[o]!, same: null });
  const compared = pairs.filter((p) => p.same !== null);
  return {
    label: figure.label,
    ...(figure.note === undefined ? {} : { note: figure.note }),
    run: figure.run ?? '',
    link: figure.link,
    pairs,
    same: compared.filter((p) => p.same).length,
    compared: compared.length,
  };
}
