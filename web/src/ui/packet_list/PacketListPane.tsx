// The packet list pane: capture point, display filter, the list, and the "what if" menu.
// Reads the store (run, link, cursor, playing, selection, presenter) and writes the
// selection, the capture point and what-if rules; all the logic lives in .ts files.
import { useCallback, useMemo, useState } from 'react';
import { MaximiseButton } from '../common/MaximiseButton.tsx';
import { select, setState, useApp } from '../common/store.ts';
import { WhatIfMenuLazy as WhatIfMenu } from '../common/WhatIfMenuLazy.tsx';
import type { TraceFrame } from '../../core/engine/trace_types.ts';
import { FilterBox, type RowFilter } from './FilterBox.tsx';
import { PacketGrid } from './PacketGrid.tsx';
import { lastAtOrBefore } from './virtual.ts';
import { linksOf } from './run_context.ts';
import './packet_list.css';

interface MenuState {
  frame: TraceFrame;
  x: number;
  y: number;
}

/** The list before any run is shown: the progress line is in the top bar. */
function emptyText(status: string, cancelled: boolean): string {
  if (status === 'running') return 'The first run is going on (its progress is in the top bar).';
  return cancelled ? 'Run cancelled: no run to show. Press Run to start one.' : 'No run yet.';
}

export function PacketListPane() {
  const run = useApp((s) => s.run);
  const link = useApp((s) => s.link);
  const cursorUs = useApp((s) => s.cursorUs);
  const playing = useApp((s) => s.playing);
  const selected = useApp((s) => s.selected);
  const presenter = useApp((s) => s.presenter);
  const hideFuture = useApp((s) => s.hideFuture);
  const status = useApp((s) => s.status);
  const cancelled = useApp((s) => s.cancelled);
  const [filter, setFilter] = useState<{ rows: RowFilter | null }>({ rows: null });
  const [menu, setMenu] = useState<MenuState | null>(null);

  const links = useMemo(() => (run ? linksOf(run) : []), [run]);
  const linkIndex = run ? Math.min(link, run.result.world.links.length - 1) : 0;
  const view = run && linkIndex >= 0 ? run.link(linkIndex) : null;
  const filtered = useMemo(() => (!view ? new Int32Array(0) : filter.rows ? filter.rows(view.analysis) : everyRow(view.analysis.rows.length)), [view, filter]);
  // Hiding the future, the list ends at the last frame sent by the cursor (a new array only
  // when that count changes, not on every step of the playback clock).
  const shown = view && hideFuture ? lastAtOrBefore(filtered.length, (p) => view.frames[filtered[p]!]!.tSent, cursorUs) + 1 : filtered.length;
  const rows = useMemo(() => filtered.subarray(0, shown), [filtered, shown]);
  const offsetS = (view?.frames[0]?.tSent ?? 0) / 1e6;

  const onApply = useCallback((rows: RowFilter | null) => setFilter({ rows }), []);
  const onSelect = useCallback((f: TraceFrame) => select(f.id), []);
  const onMenu = useCallback((frame: TraceFrame, x: number, y: number) => setMenu({ frame, x, y }), []);
  const closeMenu = useCallback((refocus: boolean) => {
    setMenu(null);
    if (refocus) document.querySelector<HTMLElement>('.pl-grid')?.focus();
  }, []);

  const menuFor = (m: MenuState) => <WhatIfMenu frameId={m.frame.id} x={m.x} y={m.y} onClose={closeMenu} />;

  return (
    <>
      <div className="pane-title pl-toolbar">
        <label>
          Capture point
          <select value={linkIndex} disabled={!run} onChange={(e) => setState({ link: Number(e.target.value) })}>
            {links.map((l) => (
              <option key={l.index} value={l.index}>
                {l.label}
                {l.inPcap ? '' : ' (not in the pcap)'}
              </option>
            ))}
          </select>
        </label>
        <FilterBox onApply={onApply} />
        {view && (
          <span className="pl-count" aria-live="polite">
            {countText(rows.length, filtered.length, view.frames.length, hideFuture)}
          </span>
        )}
        {offsetS > 0 && (
          <span className="pl-count" title="Time is on the run's clock everywhere; Wireshark counts from this capture's first packet">
            Wireshark time = Time − {offsetS.toFixed(3)} s
          </span>
        )}
        <MaximiseButton pane="list" />
      </div>
      {!run && <div className="pl-empty">{emptyText(status, cancelled)}</div>}
      {view && view.frames.length === 0 && <div className="pl-empty">No frames crossed this link.</div>}
      {run && view && view.frames.length > 0 && (
        <PacketGrid
          run={run}
          view={view}
          rows={rows}
          selected={selected}
          cursorUs={cursorUs}
          horizonUs={hideFuture ? cursorUs : null}
          playing={playing}
          rowPx={presenter ? 26 : 20}
          onSelect={onSelect}
          onMenu={onMenu}
        />
      )}
      {menu && menuFor(menu)}
    </>
  );
}

/** "18 packets", "Displayed: 3 of 18", or hiding the future "7 packets so far". */
function countText(shown: number, matching: number, all: number, hideFuture: boolean): string {
  if (hideFuture) return matching === all ? `${shown} packets so far` : `Displayed: ${shown} so far (filtered)`;
  return shown === all ? `${all} packets` : `Displayed: ${shown} of ${all}`;
}

/** The rows of a capture point with no filter: all of them, in order. */
function everyRow(n: number): Int32Array {
  return Int32Array.from({ length: n }, (_, i) => i);
}
