// The page: scenario bar, parameters, playback, and the four linked views (packet list,
// details and bytes, ladder, graphs) sharing one cursor and one selection.
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { DetailsPane } from '../packet_list/DetailsPane.tsx';
import { PacketListPane } from '../packet_list/PacketListPane.tsx';
import { GraphsPane } from '../timeline/GraphsPane.tsx';
import { LadderPane } from '../timeline/LadderPane.tsx';
import { ErrorBanner } from './ErrorBanner.tsx';
import { PaneSplitter } from './PaneSplitter.tsx';
import { PlaybackBar } from './PlaybackBar.tsx';
import { ScenarioBar } from './ScenarioBar.tsx';
import { getState, runNow, setState, subscribeState, useApp, type PaneId } from '../common/store.ts';
import { stateFromUrl, urlFromState } from './url_sync.ts';
import './layout.css';

// Loaded when first shown, not in the first download: the replays' table (with the seeds'
// figures and their judging), a lesson's panel (with the lesson engine and its validator),
// the parameters (folded below 1500 px), the two ladders side by side (with the runs'
// differences) and the live tools (the emulated board's worker is fetched only when it is
// connected).
const ReplayTable = lazy(() => import('./ReplayTable.tsx').then((m) => ({ default: m.ReplayTable })));
const LessonPanel = lazy(() => import('./LessonPanel.tsx').then((m) => ({ default: m.LessonPanel })));
const ParamsPanel = lazy(() => import('./ParamsPanel.tsx').then((m) => ({ default: m.ParamsPanel })));
const CompareLadder = lazy(() => import('../timeline/CompareLadder.tsx').then((m) => ({ default: m.CompareLadder })));
// The live tools come with live_page.ts, which makes the session the page's run (entered
// from the picker or from a link).
const SerialPanel = lazy(() => Promise.all([import('../serial/SerialPanel.tsx'), import('./live_page.ts')]).then(([m]) => ({ default: m.SerialPanel })));

export function App() {
  // At projector sizes the packet list needs the width; the parameters are one click away.
  const [showParams, setShowParams] = useState(() => window.innerWidth >= 1500);
  // Live, the side panel holds the connection and the tools, always shown: nothing works without it.
  const mode = useApp((s) => s.mode);
  const maximised = useApp((s) => s.maximised);
  // A lesson takes the side panel (the parameters stay one click away below it).
  const lessonOpen = useApp((s) => s.lesson !== null);
  // Side by side (what-if rules, a lesson step's change), the ladder pane shows two runs.
  const sideBySide = useApp((s) => s.sideBySide);
  // The split between the panes: the list's share of the width, the top row's of the height
  // (null until the splitter is dragged: then the default below).
  const [split, setSplit] = useState<{ col: number; row: number | null }>({ col: 0.53, row: null });
  // A replay's table takes the top of the window: the top row (the packet list and the
  // ladder) keeps most of what is left, so that at 1280 x 720 the list still shows ten rows
  // with the table open (folded, the list grows).
  const hasReplay = useApp((s) => s.mode === 'scenario' && s.base.reference !== undefined);
  const rowShare = split.row ?? (hasReplay ? 0.66 : 0.52);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // Escape closes an open menu first; only then does it restore the panes.
      if (e.key !== 'Escape' || !getState().maximised || document.querySelector('[role="menu"]')) return;
      setState({ maximised: null });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  useEffect(() => {
    void stateFromUrl().then(runNow);
    // A link pasted over the current one (only the hash changes, the page stays) runs too.
    const onHash = () => void stateFromUrl().then(runNow);
    window.addEventListener('hashchange', onHash);
    const unsubscribe = subscribeState(urlFromState);
    return () => {
      window.removeEventListener('hashchange', onHash);
      unsubscribe();
    };
  }, []);
  return (
    <div className="app">
      <ScenarioBar />
      <ErrorBanner />
      <PlaybackBar />
      <Suspense fallback={null}>{hasReplay && <ReplayTable />}</Suspense>
      <div className={`app-body${mode === 'live' ? ' live' : lessonOpen ? ' lesson-open' : showParams ? '' : ' params-hidden'}`}>
        <aside className="side">
          {mode === 'live' ? (
            <Suspense fallback={<p className="muted">Loading the live tools…</p>}>
              <SerialPanel />
            </Suspense>
          ) : (
            <>
              <Suspense fallback={null}>{lessonOpen && <LessonPanel />}</Suspense>
              <button type="button" className="side-toggle" onClick={() => setShowParams(!showParams)} aria-expanded={showParams} aria-label="Parameters panel">
                {showParams ? '◀ Parameters' : '▶'}
              </button>
              <Suspense fallback={null}>{showParams && <ParamsPanel />}</Suspense>
            </>
          )}
        </aside>
        <main
          className="app-main"
          data-maximised={maximised ?? undefined}
          style={{
            gridTemplateColumns: `minmax(0, ${split.col}fr) 6px minmax(0, ${1 - split.col}fr)`,
            gridTemplateRows: `minmax(0, ${rowShare}fr) 6px minmax(0, ${1 - rowShare}fr)`,
          }}
        >
          <Pane id="list" label="Packet list" maximised={maximised}>
            <PacketListPane />
          </Pane>
          <Pane id="ladder" label="Ladder diagram" maximised={maximised}>
            {sideBySide ? (
              <Suspense fallback={null}>
                <CompareLadder pair={sideBySide} />
              </Suspense>
            ) : (
              <LadderPane />
            )}
          </Pane>
          <Pane id="details" label="Packet details" maximised={maximised}>
            <DetailsPane />
          </Pane>
          <Pane id="graphs" label="Graphs" maximised={maximised}>
            <GraphsPane />
          </Pane>
          {!maximised && (
            <>
              <PaneSplitter
                orientation="vertical"
                value={split.col}
                onChange={(col) => setSplit((s) => ({ ...s, col }))}
                label="Width of the packet list and the details"
              />
              <PaneSplitter
                orientation="horizontal"
                value={rowShare}
                onChange={(row) => setSplit((s) => ({ ...s, row }))}
                label="Height of the packet list and the ladder"
              />
            </>
          )}
        </main>
      </div>
    </div>
  );
}

/** One of the four panes, in its place in the grid, or alone over all of it when maximised
 *  (the others stay mounted, hidden, so they keep their zoom and scroll). */
function Pane(props: { id: PaneId; label: string; maximised: PaneId | null; children: ReactNode }) {
  const { id, label, maximised, children } = props;
  return (
    <section className={`pane pane-${id}`} aria-label={label} hidden={maximised !== null && maximised !== id}>
      {children}
    </section>
  );
}
