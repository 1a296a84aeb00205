// The body of the details pane for one selected frame (DetailsPane.tsx holds what is kept
// across frames): the expert infos, the dissection tree, the bytes and the wire.
import { useCallback, useMemo, type Dispatch, type SetStateAction } from 'react';
import type { TraceFrame } from '../../core/engine/trace_types.ts';
import { dissectFrame, type Dissection } from '../../core/packets/index.ts';
import type { LinkView, RunModel } from '../../core/run/run_model.ts';
import { DetailTree } from './DetailTree.tsx';
import { Title } from './DetailsPane.tsx';
import { HexDump } from './HexDump.tsx';
import { linksOf, stackSaysAt } from './run_context.ts';
import { ancestorKeys, collectExperts, findByKey, highlightOf, innermostKeyAt } from './tree_model.ts';
import { WireView } from './WireView.tsx';
import { nfcPausesOf } from './wire_model.ts';

type Held<T> = [T, Dispatch<SetStateAction<T>>];

export interface DetailsBodyProps {
  run: RunModel;
  view: LinkView;
  frame: TraceFrame;
  /** the frame's row in its link's list */
  no: number;
  /** the capture point shown in the list */
  link: number;
  horizonUs: number | null;
  expanded: Held<ReadonlySet<string>>;
  selKey: Held<string | null>;
  src: Held<number>;
}

export function DetailsBody(props: DetailsBodyProps) {
  const { run, view, frame, no, link, horizonUs } = props;
  const [expanded, setExpanded] = props.expanded;
  const [selKey, setSelKey] = props.selKey;
  const [src, setSrc] = props.src;
  const dis = useMemo((): Dissection | string => {
    try {
      return dissectFrame(view.analysis, no + 1);
    } catch (e) {
      return `This frame could not be dissected: ${e instanceof Error ? e.message : String(e)}`;
    }
  }, [view, no]);

  const toggle = useCallback(
    (key: string, open: boolean) => {
      setExpanded((s) => {
        const n = new Set(s);
        if (open) n.add(key);
        else n.delete(key);
        return n;
      });
    },
    [setExpanded],
  );
  const reveal = useCallback(
    (key: string) => {
      setSelKey(key);
      setExpanded((s) => new Set([...s, ...ancestorKeys(key)]));
    },
    [setExpanded, setSelKey],
  );

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
