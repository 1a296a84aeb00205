// The packet list pane: capture point, display filter, the list, and the "what if" menu.
// Reads the store (run, link, cursor, playing, selection, presenter) and writes the
// selection, the capture point and what-if rules; all the logic lives in .ts files.
import { useCallback, useMemo, useState } from 'react';
import { addRule, select, setState, useApp } from '../../app/store.ts';
import { ruleForFrame } from '../../app/what_if.ts';
import { FAULT_DUPLICATE, type TraceFrame } from '../../engine/trace_types.ts';
import { FilterBox } from './FilterBox.tsx';
import { filterRows, type RowPredicate } from './filter.ts';
import { PacketGrid } from './PacketGrid.tsx';
import { RowMenu } from './RowMenu.tsx';
import { linksOf } from './run_context.ts';
import './packet_list.css';

interface MenuState {
  frame: TraceFrame;
  x: number;
  y: number;
}

export function PacketListPane() {
  const run = useApp((s) => s.run);
  const ran = useApp((s) => s.ran);
  const link = useApp((s) => s.link);
  const cursorUs = useApp((s) => s.cursorUs);
  const playing = useApp((s) => s.playing);
  const selected = useApp((s) => s.selected);
  const presenter = useApp((s) => s.presenter);
  const [filter, setFilter] = useState<{ test: RowPredicate | null }>({ test: null });
  const [menu, setMenu] = useState<MenuState | null>(null);

  const links = useMemo(() => (run ? linksOf(run, ran) : []), [run, ran]);
  const linkIndex = run ? Math.min(link, run.result.world.links.length - 1) : 0;
  const view = run && linkIndex >= 0 ? run.link(linkIndex) : null;
  const rows = useMemo(() => (view ? filterRows(view.analysis, filter.test) : new Int32Array(0)), [view, filter]);

  const onApply = useCallback((test: RowPredicate | null) => setFilter({ test }), []);
  const onSelect = useCallback((f: TraceFrame) => select(f.id), []);
  const onMenu = useCallback((frame: TraceFrame, x: number, y: number) => setMenu({ frame, x, y }), []);
  const closeMenu = useCallback((refocus: boolean) => {
    setMenu(null);
    if (refocus) document.querySelector<HTMLElement>('.pl-grid')?.focus();
  }, []);

  const menuFor = (m: MenuState) => {
    const dup = (m.frame.faults & FAULT_DUPLICATE) !== 0;
    const no = view?.rowOf.get(m.frame.id);
    const what = (action: 'drop' | 'delay') => () => {
      if (view) addRule(ruleForFrame(view.frames, m.frame, view.name, action));
    };
    return (
      <RowMenu
        x={m.x}
        y={m.y}
        title={`Frame ${no === undefined ? m.frame.id : no + 1}`}
        items={[
          { label: 'Drop this frame', disabled: dup, run: what('drop') },
          { label: 'Delay this frame by 200 ms', disabled: dup, run: what('delay') },
        ]}
        note={dup ? 'An extra copy made by a duplicate rule: no rule can target it.' : 'Adds a fault rule and runs the scenario again.'}
        onClose={closeMenu}
      />
    );
  };

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
            {rows.length === view.frames.length ? `${rows.length} packets` : `Displayed: ${rows.length} of ${view.frames.length}`}
          </span>
        )}
      </div>
      {!run && <div className="pl-empty">No run yet.</div>}
      {view && view.frames.length === 0 && <div className="pl-empty">No frames crossed this link.</div>}
      {run && view && view.frames.length > 0 && (
        <PacketGrid
          run={run}
          view={view}
          rows={rows}
          selected={selected}
          cursorUs={cursorUs}
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
