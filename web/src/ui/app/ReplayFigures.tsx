// The seed's packet lists (Wireshark figures) under the replay table, each aligned row by
// row with the same link's capture in its run (core/replay/align.ts states the rule): every
// row marked in words and by a sign, not by colour alone, the fields that differ named and
// in bold, the counts in the summary. Times are from each list's first TCP row.
import type { AlignField, AlignedRow, AlignRow, Segment } from '../../core/replay/align.ts';
import { alignmentSummary, markText, type FigureComparison } from '../../core/replay/figures.ts';

const SIGN = { matched: '=', differing: '≠', missing: '−', extra: '+' } as const;
const FIELDS: readonly AlignField[] = ['seq', 'ack', 'len', 'length'];

function Side(props: { row: (AlignRow & Segment) | null; differs: readonly AlignField[] }) {
  const r = props.row;
  // Seven empty cells, not one spanning them, so each column keeps its alignment.
  if (!r) return Array.from({ length: 7 }, (_, k) => <td key={k} />);
  return (
    <>
      <td>{r.no}</td>
      <td>{r.time.toFixed(6)}</td>
      <td title={`${r.source} → ${r.destination} ${r.protocol}: ${r.info}`}>{r.flags}</td>
      {FIELDS.map((f) => (
        <td key={f} className={props.differs.includes(f) ? 'differs' : undefined}>
          {r[f] ?? ''}
        </td>
      ))}
    </>
  );
}

function Row(props: { row: AlignedRow }) {
  const r = props.row;
  return (
    <tr className={r.mark} data-mark={r.mark}>
      <td>
        {SIGN[r.mark]} {markText(r)}
      </td>
      <td>{(r.seed ?? r.ours)!.direction}</td>
      <Side row={r.seed} differs={r.differs} />
      <Side row={r.ours} differs={r.differs} />
    </tr>
  );
}

export function ReplayFigures(props: { figures: readonly FigureComparison[] }) {
  const fields = ['Time', 'Flags', 'Seq', 'Ack', 'Len', 'Length'];
  return (
    <>
      {props.figures.map((f, i) => (
        <details key={i} className="replay-figure">
          <summary>{alignmentSummary(f)}</summary>
          {f.note && <p className="muted">{f.note}</p>}
          <table className="replay-figure-table">
            <thead>
              <tr>
                <th title="matched: same direction, flags, Seq, Ack, Len and Length (time not asked); differs: same direction and flags, the fields named differ; missing: the seed's row, none of ours; extra: ours, none of the seed's">
                  Mark
                </th>
                <th>Direction</th>
                <th>Seed</th>
                {fields.map((c) => (
                  <th key={`s${c}`}>{c}</th>
                ))}
                <th>Ours</th>
                {fields.map((c) => (
                  <th key={`o${c}`}>{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {f.rows.map((r, j) => (
                <Row key={j} row={r} />
              ))}
            </tbody>
          </table>
        </details>
      ))}
    </>
  );
}
