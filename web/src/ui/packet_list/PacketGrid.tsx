// The packet list itself: a virtualized ARIA grid. Rows have a fixed height; only those in
// view (plus overscan) are in the DOM, placed in a spacer as tall as all of them, so
// 100 000 rows scroll like 100. The rows keep Wireshark's colours; the selected one is
// highlighted, rows after the playback cursor are dimmed (not sent yet) or, hiding the
// future, not there at all; while playing the list follows the cursor. The Time column is
// on the run's clock, the one the playback bar, the ladder and the graphs use.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { LinkView, RunModel } from '../../core/run/run_model.ts';
import type { PacketRow } from '../../core/packets/index.ts';
import type { TraceFrame } from '../../core/engine/trace_types.ts';
import { fitColumns, type Column } from './grid_columns.ts';
import { stackSaysAt } from './run_context.ts';
import { indexInSorted, keyTarget, lastAtOrBefore, rowWindow, rowsPerPage, scrollToRow } from './virtual.ts';

const FATE_DROPPED = 1;

export interface PacketGridProps {
  run: RunModel;
  view: LinkView;
  /** 0-based rows of the link shown, after the filter (and before the cursor, hiding the future) */
  rows: Int32Array;
  selected: number | null;
  cursorUs: number;
  /** "Hide the future": nothing learnt after this instant is shown (µs), or null */
  horizonUs: number | null;
  playing: boolean;
  rowPx: number;
  onSelect: (frame: TraceFrame) => void;
  /** open the context menu for a frame at a point on the screen */
  onMenu: (frame: TraceFrame, x: number, y: number) => void;
}

/** Seconds on the run's clock, as the Time column and the playback clock write them. */
function clockText(us: number): string {
  return (us / 1e6).toFixed(6);
}

export function PacketGrid({ run, view, rows, selected, cursorUs, horizonUs, playing, rowPx, onSelect, onMenu }: PacketGridProps) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [boxSize, setBoxSize] = useState({ height: 400, width: 800, fontPx: 13 });
  const viewPx = boxSize.height;
  const headPx = rowPx + 2;
  const bodyPx = Math.max(0, viewPx - headPx);
  const frameAt = (p: number): TraceFrame => view.frames[rows[p]!]!;

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    // The type size changes with presenter mode, and with it which columns fit.
    const measure = () => setBoxSize({ height: el.clientHeight, width: el.clientWidth, fontPx: parseFloat(getComputedStyle(el).fontSize) || 13 });
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    measure();
    return () => ro.disconnect();
  }, [rowPx]);

  // Position (in `rows`) of the selected frame, -1 if it is not listed.
  const selRow = selected === null ? undefined : view.rowOf.get(selected);
  const selPos = selRow === undefined ? -1 : indexInSorted(rows, selRow);

  const reveal = (p: number, align: 'nearest' | 'end' = 'nearest') => {
    const el = box.current;
    if (!el || p < 0) return;
    const top = scrollToRow(p, el.scrollTop, bodyPx, rowPx, align);
    if (top !== el.scrollTop) el.scrollTop = top;
  };

  // Another capture point or filter changes the content's height; the browser clamps the
  // scroll position without always telling, so read it back.
  useLayoutEffect(() => {
    if (box.current) setScrollTop(box.current.scrollTop);
  }, [view, rows]);

  // A selection made elsewhere (the ladder, the graphs) scrolls its row into view. Only a
  // new selection or new rows do: Play stopping must not jump back to the selected row, and
  // `reveal` (made anew each render) only reads the box's ref.
  useEffect(() => {
    if (!playing) reveal(selPos);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on purpose, see above
  }, [selected, view, rows]);

  // The cursor leads: the last row sent by it stays in view (while playing at the bottom,
  // the newest row last; after a step or a scrub with the least scrolling).
  // (`reveal` and `frameAt` are made anew each render from rows and view, listed here.)
  useEffect(() => {
    reveal(
      lastAtOrBefore(rows.length, (p) => frameAt(p).tSent, cursorUs),
      playing ? 'end' : 'nearest',
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- on purpose, see above
  }, [cursorUs, playing, rows, view]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    if ((e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey)) && selPos >= 0) {
      e.preventDefault();
      const r = box.current?.querySelector('[aria-selected="true"]')?.getBoundingClientRect();
      onMenu(frameAt(selPos), r ? r.left + 40 : 100, r ? r.bottom : 100);
      return;
    }
    const p = keyTarget(e.key, selPos, rows.length, rowsPerPage(bodyPx, rowPx));
    if (p === null) return;
    e.preventDefault();
    onSelect(frameAt(p));
    reveal(p);
  };

  // Widths of No. and Time from the longest values, so 6-digit frame numbers fit.
  const lastFrame = view.frames[view.frames.length - 1];
  const fit = fitColumns(boxSize.width, boxSize.fontPx, String(view.frames.length).length, clockText(lastFrame?.tSent ?? 0).length);
  const w = rowWindow(scrollTop, bodyPx, rowPx, rows.length);
  const items = [];
  for (let p = w.first; p < w.end; p++) {
    const i = rows[p]!;
    const f = view.frames[i]!;
    const r = view.analysis.rows[i];
    if (!r) continue;
    const isSel = p === selPos;
    const says = stackSaysAt(run, view, f, horizonUs);
    const dropped = f.fate === FATE_DROPPED && (horizonUs === null || f.tEnd <= horizonUs);
    const cls = ['pl-row', isSel ? 'pl-selected' : '', f.tSent > cursorUs ? 'pl-future' : ''].join(' ');
    items.push(
      <div
        key={f.id}
        id={`pl-row-${f.id}`}
        className={cls}
        role="row"
        aria-rowindex={p + 2}
        aria-selected={isSel}
        style={{ top: p * rowPx, height: rowPx, ...(r.colour.name ? { background: r.colour.bg, color: r.colour.fg } : {}) }}
        title={r.colour.name ? `Coloring rule: ${r.colour.name}` : undefined}
        onClick={() => onSelect(f)}
        onContextMenu={(e) => {
          e.preventDefault();
          onSelect(f);
          onMenu(f, e.clientX, e.clientY);
        }}
      >
        {fit.columns.map((c) =>
          c === 'Stack says' ? (
            <div key={c} role="gridcell" className="pl-says" title={says || undefined}>
              {dropped && (
                <span className="pl-drop-mark" aria-hidden="true">
                  ✕
                </span>
              )}
              <span>{says}</span>
              {isSel && (
                <button
                  type="button"
                  className="pl-more"
                  aria-label={`Actions for frame ${r.no}`}
                  aria-haspopup="menu"
                  tabIndex={-1}
                  onClick={(e) => {
                    e.stopPropagation();
                    const b = e.currentTarget.getBoundingClientRect();
                    onMenu(f, b.left, b.bottom);
                  }}
                >
                  ⋯
                </button>
              )}
            </div>
          ) : (
            <div key={c} role="gridcell" className={NUMERIC.has(c) ? 'pl-num' : undefined} title={c === 'Info' ? r.info : undefined}>
              {cellText(c, r, f)}
            </div>
          ),
        )}
      </div>,
    );
  }

  const offsetS = (view.frames[0]?.tSent ?? 0) / 1e6;
  return (
    <div
      ref={box}
      style={{ '--pl-cols': fit.template } as React.CSSProperties}
      className="pl-grid"
      role="grid"
      aria-label="Packets"
      aria-rowcount={rows.length + 1}
      aria-colcount={fit.columns.length}
      aria-activedescendant={selPos >= w.first && selPos < w.end ? `pl-row-${frameAt(selPos).id}` : undefined}
      tabIndex={0}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      onKeyDown={onKeyDown}
    >
      <div
        className="pl-head"
        role="row"
        aria-rowindex={1}
        style={{ height: headPx }}
        title={fit.hidden.length ? `Not shown, for want of room: ${fit.hidden.join(', ')} (maximise the pane to see them)` : undefined}
      >
        {fit.columns.map((c) => (
          <div key={c} role="columnheader" className={NUMERIC.has(c) ? 'pl-num' : undefined} title={c === 'Time' ? timeTitle(offsetS) : undefined}>
            {c}
          </div>
        ))}
      </div>
      <div className="pl-body" role="rowgroup" style={{ height: rows.length * rowPx }}>
        {items}
      </div>
    </div>
  );
}

const NUMERIC = new Set<Column>(['No.', 'Time', 'Length']);

function cellText(c: Exclude<Column, 'Stack says'>, r: PacketRow, f: TraceFrame): string | number {
  switch (c) {
    case 'No.':
      return r.no;
    case 'Time':
      return clockText(f.tSent);
    case 'Source':
      return r.source;
    case 'Destination':
      return r.destination;
    case 'Protocol':
      return r.protocol;
    case 'Length':
      return r.length;
    case 'Info':
      return r.info;
  }
}

/** The Time column's note: which clock, and how Wireshark's differs on this capture point. */
function timeTitle(offsetS: number): string {
  const clock = "Seconds on the run's clock, the one the playback bar, the ladder and the graphs use.";
  return offsetS > 0 ? `${clock} Wireshark counts from this capture's first packet: its times are ${offsetS.toFixed(6)} s less.` : clock;
}
