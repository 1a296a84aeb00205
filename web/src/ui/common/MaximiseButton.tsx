// The button at the end of every pane's header: show this pane alone over the whole window
// (a ladder a room can read from the back), and back. Escape restores too (App.tsx).
import { setState, useApp, type PaneId } from './store.ts';

export function MaximiseButton({ pane }: { pane: PaneId }) {
  const maximised = useApp((s) => s.maximised === pane);
  return (
    <button
      type="button"
      className="pane-maximise"
      aria-label={maximised ? 'Restore' : 'Maximise'}
      aria-pressed={maximised}
      title={maximised ? 'Back to the four panes (Escape)' : 'Show this pane alone over the whole window (Escape restores)'}
      onClick={() => setState({ maximised: maximised ? null : pane })}
    >
      {maximised ? '⤡' : '⤢'}
    </button>
  );
}
