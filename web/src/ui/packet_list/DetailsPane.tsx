// The details pane: the selected frame's tree (Wireshark's wording), its bytes, and how it
// went on the wire. The frame is shown even when it belongs to another capture point
// (selected on the ladder, say): it is dissected with its own link's analysis.
import { useCallback, useMemo, useState } from 'react';
import { MaximiseButton } from '../common/MaximiseButton.tsx';
import { useApp } from '../common/store.ts';
import { dissectFrame, type Dissection } from '../../core/packets/index.ts';
import { DetailTree } from './DetailTree.tsx';
import { HexDump } from './HexDump.tsx';
import { linksOf, stackSaysAt } from './run_context.ts';
import { ancestorKeys, collectExperts, findByKey, highlightOf, innermostKeyAt } from './tree_model.ts';
import { WireView } from './WireView.tsx';
import { nfcPausesOf } from './wire_model.ts';
import './details.css';

/** Wireshark opens nothing by default; the transport layer open is more useful here. */
const INITIALLY_OPEN = ['/tcp', '/udp', '/icmp'];

export function DetailsPane() {
  const run = useApp((s) => s.run);
  const link = useApp((s) => s.link);
  const selected = useApp((s) => s.selected);
  const horizonUs = useApp((s) => (s.hideFuture ? s.cursorUs : null));
  // Kept across frames, as Wireshark keeps open subtrees and the selected field.
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set(INITIALLY_OPEN));
  const [selKey, setSelKey] = useState<string | null>(null);
  const [src, setSrc] = useState(0);

  const frame = selected === null ? undefined : run?.result.trace.frame(selected);
  const view = frame && run ? run.link(frame.link) : undefined;
  const no = frame && view ? view.rowOf.get(frame.id) : undefined;
  const dis = useMemo((): Dissection | string | null => {
    if (!view || no === undefined) return null;
    try {
      return dissectFrame(view.analysis, no + 1);
    } catch (e) {
      return `This frame could not be dissected: ${e instanceof Error ? e.message : String(e)}`;
    }
  }, [view, no]);

  const toggle = useCallback((key: string, open: boolean) => {
    setExpanded((s) => {
      const n = new Set(s);
      if (open) n.add(key);
      else n.delete(key);
      return n;
    });
  }, []);
  const reveal = useCallback((key: string) => {
    setSelKey(key);
    setExpanded((s) => new Set([...s, ...ancestorKeys(key)]));
  }, []);

  if (!run) return <Title text="Packet details" />;
  if (!frame || !view || no === undefined) {
    return (
      <>
        <Title text="Packet details" />
        <div className="pd-empty">Select a packet in the list, the ladder or a graph.</div>
      </>
    );
  }
  if (horizonUs !== null && frame.tSent > horizonUs) {
    return (
      <>
        <Title text="Packet details" />
        <div className="pd-empty">The selected frame is not sent yet: the future is hidden.</div>
      </>
    );
  }
  const tree = typeof dis === 'object' && dis ? dis.tree : [];
  const node = selKey ? findByKey(tree, selKey) : undefined;
  const hl = highlightOf(node);
  const sources = [{ name: `Frame (${frame.bytes.length} bytes)`, bytes: frame.bytes }, ...(typeof dis === 'object' && dis ? dis.sources : [])];
  const shownSrc = hl ? hl.src : Math.min(src, sources.length - 1);
  const experts = collectExperts(tree);
  const links = linksOf(run);
  const elsewhere = frame.link !== link;

  return (
    <>
      <Title text={`Frame ${no + 1} on ${view.name}`} />
      <div className="pd-body">
        {elsewhere && (
          <div className="pd-note">
            This frame crossed {links[frame.link]?.label ?? view.name}, not the capture point shown in the list; numbers and analysis are that link's.
          </div>
        )}
        {typeof dis === 'string' && <div className="pd-empty">{dis}</div>}
        {experts.length > 0 && (
          <div className="pd-experts" aria-label="Expert infos">
            {experts.map((e) => (
              <button key={e.key} type="button" className={`pd-expert-${e.expert.severity}`} onClick={() => reveal(e.key)}>
                {e.expert.message}
              </button>
            ))}
          </div>
        )}
        <DetailTree tree={tree} expanded={expanded} selectedKey={node ? selKey : null} onSelect={setSelKey} onToggle={toggle} />
        <HexDump
          sources={sources}
          src={shownSrc}
          onSrc={(i) => {
            setSrc(i);
            if (hl && hl.src !== i) setSelKey(null);
          }}
          highlight={hl && hl.src === shownSrc ? hl : null}
          onPick={(off) => {
            const key = innermostKeyAt(tree, off, shownSrc);
            if (key) reveal(key);
          }}
        />
        {horizonUs !== null && frame.tEnd > horizonUs ? (
          <div className="pd-note">On its way: how it fares on the wire shows once it has (the future is hidden).</div>
        ) : (
          <WireView
            frame={frame}
            link={links[frame.link]}
            nfcPauses={nfcPausesOf(run.result.trace.linkEvents, frame.id)}
            dropTexts={run.result.world.drop_reason_texts}
            stackSays={stackSaysAt(run, view, frame, horizonUs)}
            highlight={hl && hl.src === 0 ? hl : null}
            onPick={(off) => {
              const key = innermostKeyAt(tree, off, 0);
              if (key) reveal(key);
            }}
          />
        )}
      </div>
    </>
  );
}

function Title({ text }: { text: string }) {
  return (
    <div className="pane-title">
      <span className="pd-title-text">{text}</span>
      <MaximiseButton pane="details" />
    </div>
  );
}
