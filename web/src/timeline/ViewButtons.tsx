// The zoom, fit and export buttons the ladder and the graphs share: one time scale, the
// same controls, so a student finds them in the same place in every time view.
import { useEffect, useState } from 'react';

interface ViewButtonsProps {
  enabled: boolean;
  zoomBy: (factor: number) => void;
  fit: () => void;
  fitTitle: string;
  exportSvg: () => void;
  exportPng: () => void;
  /** What the exports save, e.g. "the ladder" or "both graphs". */
  exportWhat: string;
  /** The view as Mermaid text, for a "Mermaid" button that copies it (null: nothing yet). */
  mermaid?: () => string | null;
}

export function ViewButtons({ enabled, zoomBy, fit, fitTitle, exportSvg, exportPng, exportWhat, mermaid }: ViewButtonsProps) {
  return (
    <>
      <button type="button" aria-label="Zoom in" title="Zoom in (or the mouse wheel)" disabled={!enabled} onClick={() => zoomBy(2)}>
        +
      </button>
      <button type="button" aria-label="Zoom out" title="Zoom out" disabled={!enabled} onClick={() => zoomBy(0.5)}>
        −
      </button>
      <button type="button" aria-label="Fit" title={fitTitle} disabled={!enabled} onClick={fit}>
        Fit
      </button>
      <button type="button" aria-label="Export SVG" title={`Save ${exportWhat} as SVG`} disabled={!enabled} onClick={exportSvg}>
        SVG
      </button>
      <button type="button" aria-label="Export PNG" title={`Save ${exportWhat} as PNG`} disabled={!enabled} onClick={exportPng}>
        PNG
      </button>
      {mermaid && <CopyMermaid enabled={enabled} text={mermaid} what={exportWhat} />}
    </>
  );
}

/** Copies to the clipboard and says so on the button for a moment (nothing else shows it). */
function CopyMermaid({ enabled, text, what }: { enabled: boolean; text: () => string | null; what: string }) {
  const [said, setSaid] = useState<string | null>(null);
  useEffect(() => {
    if (!said) return;
    const t = setTimeout(() => setSaid(null), 1500);
    return () => clearTimeout(t);
  }, [said]);
  const copy = () => {
    const t = text();
    if (t === null) return;
    // No clipboard outside a secure context (http other than localhost).
    (navigator.clipboard ? navigator.clipboard.writeText(t) : Promise.reject(new Error('no clipboard'))).then(
      () => setSaid('Copied'),
      () => setSaid('Not copied'),
    );
  };
  return (
    <button type="button" aria-label="Copy as Mermaid" title={`Copy ${what} as a Mermaid sequenceDiagram`} disabled={!enabled} onClick={copy}>
      {said ?? 'Mermaid'}
    </button>
  );
}
