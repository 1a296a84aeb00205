// The zoom, fit and export buttons the ladder and the graphs share: one time scale, the
// same controls, so a student finds them in the same place in every time view.
interface ViewButtonsProps {
  enabled: boolean;
  zoomBy: (factor: number) => void;
  fit: () => void;
  fitTitle: string;
  exportSvg: () => void;
  exportPng: () => void;
  /** What the exports save, e.g. "the ladder" or "both graphs". */
  exportWhat: string;
}

export function ViewButtons({ enabled, zoomBy, fit, fitTitle, exportSvg, exportPng, exportWhat }: ViewButtonsProps) {
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
    </>
  );
}
