// The zoom, fit and export controls the ladder and the graphs share: one time scale, the
// same controls, so a student finds them in the same place in every time view. The exports
// sit behind one "Export" menu: in a presenter's 470 px pane the header has room for the
// zoom buttons and the pane's Maximise button, not for four more.
import { useEffect, useRef, useState } from 'react';

interface ViewButtonsProps {
  enabled: boolean;
  zoomBy: (factor: number) => void;
  fit: () => void;
  fitTitle: string;
  exportSvg: () => void;
  exportPng: () => void;
  /** What the exports save, e.g. "the ladder" or "both graphs". */
  exportWhat: string;
  /** The view as Mermaid text, for a "Copy as Mermaid" item (null: nothing yet); a promise,
   *  since the writer loads when first used. */
  mermaid?: () => Promise<string | null>;
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
      <ExportMenu enabled={enabled} exportSvg={exportSvg} exportPng={exportPng} exportWhat={exportWhat} mermaid={mermaid} />
    </>
  );
}

type ExportProps = Pick<ViewButtonsProps, 'enabled' | 'exportSvg' | 'exportPng' | 'exportWhat' | 'mermaid'>;

function ExportMenu({ enabled, exportSvg, exportPng, exportWhat, mermaid }: ExportProps) {
  const [open, setOpen] = useState(false);
  // What the last copy did, on the button for a moment (nothing else shows it).
  const [said, setSaid] = useState<string | null>(null);
  const box = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    if (!said) return;
    const t = setTimeout(() => setSaid(null), 1500);
    return () => clearTimeout(t);
  }, [said]);
  useEffect(() => {
    if (!open) return;
    box.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const away = (e: Event) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    window.addEventListener('pointerdown', away, true);
    return () => window.removeEventListener('pointerdown', away, true);
  }, [open]);

  const choose = (act: () => void) => () => {
    setOpen(false);
    act();
  };
  const copyMermaid = async () => {
    const t = await mermaid?.();
    if (!t) return;
    // No clipboard outside a secure context (http other than localhost).
    (navigator.clipboard ? navigator.clipboard.writeText(t) : Promise.reject(new Error('no clipboard'))).then(
      () => setSaid('Copied'),
      () => setSaid('Not copied'),
    );
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      setOpen(false);
      box.current?.querySelector<HTMLButtonElement>('button')?.focus();
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    e.preventDefault();
    const items = [...(box.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const at = items.indexOf(document.activeElement as HTMLButtonElement);
    items[(at + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length]?.focus();
  };

  return (
    <span className="tl-export" ref={box} onKeyDown={onKeyDown}>
      <button type="button" aria-haspopup="menu" aria-expanded={open} title={`Save or copy ${exportWhat}`} disabled={!enabled} onClick={() => setOpen(!open)}>
        {said ?? 'Export ▾'}
      </button>
      {open && (
        <div className="tl-export-menu" role="menu" aria-label={`Export ${exportWhat}`}>
          <button type="button" role="menuitem" aria-label="Export SVG" title={`Save ${exportWhat} as SVG`} onClick={choose(exportSvg)}>
            SVG
          </button>
          <button type="button" role="menuitem" aria-label="Export PNG" title={`Save ${exportWhat} as PNG`} onClick={choose(exportPng)}>
            PNG
          </button>
          {mermaid && (
            <button
              type="button"
              role="menuitem"
              aria-label="Copy as Mermaid"
              title={`Copy ${exportWhat} as a Mermaid sequenceDiagram`}
              onClick={choose(() => void copyMermaid())}
            >
              Mermaid (copy)
            </button>
          )}
        </div>
      )}
    </span>
  );
}
