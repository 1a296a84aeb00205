// Problems in words, above everything, each dismissible; the last good run stays on screen.
import { setState, useApp } from '../common/store.ts';

export function ErrorBanner() {
  const error = useApp((s) => s.error);
  const url = useApp((s) => s.urlProblems);
  return (
    <>
      {[
        { text: url, clear: () => setState({ urlProblems: null }) },
        { text: error, clear: () => setState({ error: null }) },
      ].map(
        (m, i) =>
          m.text && (
            <div key={i} className="error-banner" role="alert">
              <span style={{ flex: 1 }}>{m.text}</span>
              <button type="button" onClick={m.clear} aria-label="Dismiss">
                ×
              </button>
            </div>
          ),
      )}
    </>
  );
}
