// The packet list itself: a virtualized ARIA grid. Rows have a fixed height; only those in
// view (plus overscan) are in the DOM, placed in a spacer as tall as all of them, so
// 100 000 rows scroll like 100. The rows keep Wireshark's colours; the selected one is
// highlighted, rows after the playback cursor are dimmed (not sent yet), and while playing
// the list follows the cursor.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { LinkView, RunModel } from '../../app/run_model.ts';
import type { TraceFrame } from '../../engine/trace_types.ts';
import { stackSaysOn } from './run_context.ts';
import { indexInSorted, keyTarget, lastAtOrBefore, rowWindow, rowsPerPage, scrollToRow } from './virtual.ts';

export const COLUMNS = ['No.', 'Time', 'Source', 'Destination', 'Protocol', 'Length', 'Info', 'Stack says'] as const;

export interface PacketGridProps {
  run: RunModel;
  view: LinkView;
  /** 0-based rows of the link shown, after the filter */
  rows: Int32Array;
  selected: number | null;
  cursorUs: number;
  playing: boolean;
  rowPx: number;
  onSelect: (frame: TraceFrame) => void;
  /** open the context menu for a frame at a point on the screen */
  onMenu: (frame: TraceFrame, x: number, y: number) => void;
}

export function PacketGrid({ run, view, rows, selected, cursorUs, playing, rowPx, onSelect, onMenu }: PacketGridProps) {
  const box = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewPx, setViewPx] = useState(400);
  const headPx = rowPx + 2;
  const bodyPx = Math.max(0, viewPx - headPx);
  const frameAt = (p: number): TraceFrame => view.frames[rows[p]!]!;

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setViewPx(el.clientHeight));
    ro.observe(el);
    setViewPx(el.clientHeight);
    return () => ro.disconnect();
  }, []);

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

  // A selection made elsewhere (the ladder, the graphs) scrolls its row into view.
  useEffect(() => {
    if (!playing) reveal(selPos);
  }, [selected, view, rows]);

  // While playing, keep the last row sent by the cursor in view, at the bottom.
  useEffect(() => {
    if (!playing) return;
    reveal(lastAtOrBefore(rows.length, (p) => frameAt(p).tSent, cursorUs), 'end');
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

  const w = rowWindow(scrollTop, bodyPx, rowPx, rows.length);
  const items = [];
  for (let p = w.first; p < w.end; p++) {
    const i = rows[p]!;
    const f = view.frames[i]!;
    const r = view.analysis.rows[i];
    if (!r) continue;
    const isSel = p === selPos;
    const says = stackSaysOn(run, view, f);
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
        <div role="gridcell" className="pl-num">{r.no}</div>
        <div role="gridcell" className="pl-num">{r.timeS.toFixed(6)}</div>
        <div role="gridcell">{r.source}</div>
        <div role="gridcell">{r.destination}</div>
        <div role="gridcell">{r.protocol}</div>
        <div role="gridcell" className="pl-num">{r.length}</div>
        <div role="gridcell" title={r.info}>{r.info}</div>
        <div role="gridcell" className="pl-says" title={says || undefined}>
          {f.fate === 1 && (
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
      </div>,
    );
  }

  // Widths of No. and Time from the longest values, so 6-digit frame numbers fit.
  const last = view.analysis.rows[view.analysis.rows.length - 1];
  const widths = {
    '--pl-no': `${Math.max(3, String(view.frames.length).length)}ch`,
    '--pl-time': `${Math.max(4, (last?.timeS ?? 0).toFixed(6).length)}ch`,
  } as React.CSSProperties;

  return (
    <div
      ref={box}
      style={widths}
      className="pl-grid"
      role="grid"
      aria-label="Packets"
      aria-rowcount={rows.length + 1}
      aria-colcount={COLUMNS.length}
      aria-activedescendant={selPos >= w.first && selPos < w.end ? `pl-row-${frameAt(selPos).id}` : undefined}
      tabIndex={0}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      onKeyDown={onKeyDown}
    >
      <div className="pl-head" role="row" aria-rowindex={1} style={{ height: headPx }}>
        {COLUMNS.map((c, k) => (
          <div key={c} role="columnheader" className={k === 0 || k === 1 || k === 5 ? 'pl-num' : undefined}>
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

