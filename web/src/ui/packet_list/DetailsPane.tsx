// The details pane: the selected frame's tree (Wireshark's wording), its bytes, and how it
// went on the wire. The frame is shown even when it belongs to another capture point
// (selected on the ladder, say): it is dissected with its own link's analysis. Nothing is
// selected when the page opens: the body (the trees, the bytes, the wire) is fetched with
// the first selection, not in the first download.
import { lazy, Suspense, useState } from 'react';
import { MaximiseButton } from '../common/MaximiseButton.tsx';
import { useApp } from '../common/store.ts';
import './details.css';

const DetailsBody = lazy(() => import('./DetailsBody.tsx').then((m) => ({ default: m.DetailsBody })));

/** Wireshark opens nothing by default; the transport layer open is more useful here. */
const INITIALLY_OPEN = ['/tcp', '/udp', '/icmp'];

export function DetailsPane() {
  const run = useApp((s) => s.run);
  const link = useApp((s) => s.link);
  const selected = useApp((s) => s.selected);
  const horizonUs = useApp((s) => (s.hideFuture ? s.cursorUs : null));
  // Kept across frames, as Wireshark keeps open subtrees and the selected field.
  const expanded = useState<ReadonlySet<string>>(() => new Set(INITIALLY_OPEN));
  const selKey = useState<string | null>(null);
  const src = useState(0);

  const frame = selected === null ? undefined : run?.result.trace.frame(selected);
  const view = frame && run ? run.link(frame.link) : undefined;
  const no = frame && view ? view.rowOf.get(frame.id) : undefined;

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
  return (
    <Suspense fallback={<Title text={`Frame ${no + 1} on ${view.name}`} />}>
      <DetailsBody run={run} view={view} frame={frame} no={no} link={link} horizonUs={horizonUs} expanded={expanded} selKey={selKey} src={src} />
    </Suspense>
  );
}

export function Title({ text }: { text: string }) {
  return (
    <div className="pane-title">
      <span className="pd-title-text">{text}</span>
      <MaximiseButton pane="details" />
    </div>
  );
}
