// The details tree (Wireshark's middle pane) as an ARIA tree: click or Enter to select,
// arrows to move, Right/Left to open and close, as in Wireshark. Generated fields keep
// their [brackets]; expert infos are coloured by severity.
import { useEffect, useId, useMemo, useRef } from 'react';
import type { DetailNode } from '../../core/packets/types.ts';
import { visibleNodes } from './tree_model.ts';

export interface DetailTreeProps {
  tree: DetailNode[];
  expanded: ReadonlySet<string>;
  selectedKey: string | null;
  onSelect: (key: string) => void;
  onToggle: (key: string, open: boolean) => void;
}

export function expertClass(n: DetailNode): string {
  return n.expert ? `pd-expert-${n.expert.severity}` : '';
}

export function DetailTree({ tree, expanded, selectedKey, onSelect, onToggle }: DetailTreeProps) {
  const rows = useMemo(() => visibleNodes(tree, expanded), [tree, expanded]);
  const box = useRef<HTMLDivElement>(null);
  const idp = useId();
  const at = rows.findIndex((r) => r.key === selectedKey);

  useEffect(() => {
    box.current?.querySelector('[aria-selected="true"]')?.scrollIntoView({ block: 'nearest' });
  }, [selectedKey, rows]);

  const onKeyDown = (e: React.KeyboardEvent) => {
    const cur = rows[at];
    let next = -1;
    switch (e.key) {
      case 'ArrowDown':
        next = Math.min(rows.length - 1, at + 1);
        break;
      case 'ArrowUp':
        next = Math.max(0, at - 1);
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = rows.length - 1;
        break;
      case 'ArrowRight':
        if (cur?.hasChildren && !cur.expanded) onToggle(cur.key, true);
        else if (cur?.expanded) next = at + 1;
        break;
      case 'ArrowLeft':
        if (cur?.expanded) onToggle(cur.key, false);
        else if (cur && cur.depth > 0) next = rows.findLastIndex((r, i) => i < at && r.depth === cur.depth - 1);
        break;
      case 'Enter':
      case ' ':
        if (cur?.hasChildren) onToggle(cur.key, !cur.expanded);
        break;
      default:
        return;
    }
    e.preventDefault();
    e.stopPropagation();
    if (next >= 0 && rows[next]) onSelect(rows[next]!.key);
  };

  return (
    <div
      ref={box}
      className="pd-tree"
      role="tree"
      aria-label="Packet details"
      tabIndex={0}
      aria-activedescendant={at >= 0 ? `${idp}-${at}` : undefined}
      onKeyDown={onKeyDown}
      onFocus={() => {
        if (at < 0 && rows[0]) onSelect(rows[0].key);
      }}
    >
      {rows.map((r, i) => (
        <div
          key={r.key}
          id={`${idp}-${i}`}
          role="treeitem"
          aria-level={r.depth + 1}
          aria-selected={i === at}
          aria-expanded={r.hasChildren ? r.expanded : undefined}
          className={`pd-node${i === at ? ' pd-selected' : ''}${r.node.generated ? ' pd-generated' : ''}`}
          style={{ paddingLeft: 4 + r.depth * 16 }}
          title={r.node.field}
          onClick={() => onSelect(r.key)}
          onDoubleClick={() => r.hasChildren && onToggle(r.key, !r.expanded)}
        >
          <span
            className="pd-twisty"
            aria-hidden="true"
            onClick={(e) => {
              if (!r.hasChildren) return;
              e.stopPropagation();
              onToggle(r.key, !r.expanded);
              onSelect(r.key);
            }}
          >
            {r.hasChildren ? (r.expanded ? '▾' : '▸') : ''}
          </span>
          <span className={expertClass(r.node)}>{r.node.label}</span>
        </div>
      ))}
    </div>
  );
}
