// The page: scenario bar, parameters, playback, and the four linked views (packet list,
// details and bytes, ladder, graphs) sharing one cursor and one selection.
import { useEffect, useState } from 'react';
import { DetailsPane } from '../packets/view/DetailsPane.tsx';
import { PacketListPane } from '../packets/view/PacketListPane.tsx';
import { GraphsPane } from '../timeline/GraphsPane.tsx';
import { LadderPane } from '../timeline/LadderPane.tsx';
import { ErrorBanner } from './ErrorBanner.tsx';
import { ParamsPanel } from './ParamsPanel.tsx';
import { PlaybackBar } from './PlaybackBar.tsx';
import { ReplayTable } from './ReplayTable.tsx';
import { ScenarioBar } from './ScenarioBar.tsx';
import { SerialPanel } from '../serial/SerialPanel.tsx';
import { runNow, subscribeState, useApp } from './store.ts';
import { stateFromUrl, urlFromState } from './url_sync.ts';
import './layout.css';

export function App() {
  // At projector sizes the packet list needs the width; the parameters are one click away.
  const [showParams, setShowParams] = useState(() => window.innerWidth >= 1500);
  // Live, the side panel holds the connection and the tools, always shown: nothing works without it.
  const mode = useApp((s) => s.mode);
  useEffect(() => {
    stateFromUrl();
    void runNow();
    // A link pasted over the current one (only the hash changes, the page stays) runs too.
    const onHash = () => {
      stateFromUrl();
      void runNow();
    };
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
      {mode === 'scenario' && <ReplayTable />}
      <div className={`app-body${mode === 'live' ? ' live' : showParams ? '' : ' params-hidden'}`}>
        <aside className="side">
          {mode === 'live' ? (
            <SerialPanel />
          ) : (
            <>
              <button type="button" className="side-toggle" onClick={() => setShowParams(!showParams)} aria-expanded={showParams} aria-label="Parameters panel">
                {showParams ? '◀ Parameters' : '▶'}
              </button>
              {showParams && <ParamsPanel />}
            </>
          )}
        </aside>
        <main className="app-main">
          <section className="pane" aria-label="Packet list">
            <PacketListPane />
          </section>
          <section className="pane" aria-label="Ladder diagram">
            <LadderPane />
          </section>
          <section className="pane" aria-label="Packet details">
            <DetailsPane />
          </section>
          <section className="pane" aria-label="Graphs">
            <GraphsPane />
          </section>
        </main>
      </div>
    </div>
  );
}
