// The packet list's context menu: "what if this frame were dropped, or late?". Each item
// adds a targeted fault rule (app/what_if.ts) and the store runs the scenario again.
import { useEffect, useRef } from 'react';

export interface RowMenuItem {
  label: string;
  disabled?: boolean;
  run: () => void;
}

export interface RowMenuProps {
  x: number;
  y: number;
  /** what the menu is about, for screen readers ("Frame 12") */
  title: string;
  items: RowMenuItem[];
  /** shown under the items (why they are disabled) */
  note?: string;
  onClose: (refocus: boolean) => void;
}

export function RowMenu({ x, y, title, items, note, onClose }: RowMenuProps) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    // Keep the menu inside the window.
    const r = el.getBoundingClientRect();
    el.style.left = `${Math.max(0, Math.min(x, window.innerWidth - r.width - 4))}px`;
    el.style.top = `${Math.max(0, Math.min(y, window.innerHeight - r.height - 4))}px`;
    el.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
    const away = (e: Event) => {
      if (!el.contains(e.target as Node)) onClose(false);
    };
    window.addEventListener('pointerdown', away, true);
    window.addEventListener('blur', () => onClose(false), { once: true });
    return () => window.removeEventListener('pointerdown', away, true);
  }, [x, y, onClose]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const buttons = [...(ref.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)') ?? [])];
    const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (e.key === 'Escape' || e.key === 'Tab') {
      e.preventDefault();
      onClose(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const n = buttons.length;
      if (n) buttons[(i + (e.key === 'ArrowDown' ? 1 : n - 1) + n) % n]!.focus();
    }
    e.stopPropagation();
  };

  return (
    <div ref={ref} className="pl-menu" role="menu" aria-label={title} style={{ left: x, top: y }} onKeyDown={onKeyDown}>
      {items.map((it) => (
        <button
          key={it.label}
          type="button"
          role="menuitem"
          disabled={it.disabled}
          onClick={() => {
            onClose(true);
            it.run();
          }}
        >
          {it.label}
        </button>
      ))}
      {note && <div className="pl-menu-note">{note}</div>}
    </div>
  );
}
