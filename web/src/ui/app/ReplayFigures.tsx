// The seed's packet lists (Wireshark figures) under the replay table, each beside the same
// link's capture in its run, row by row: a student reads the paper's list and ours in one
// place and sees where they part. Times are from each list's first TCP row.
import type { FigureComparison, FigureLine } from '../../core/replay/figures.ts';

function Cells(props: { line: FigureLine | null }) {
  const l = props.line;
  if (!l)
    return (
      <>
        <td />
        <td />
        <td />
      </>
    );
  return (
    <>
      <td>{l.no}</td>
      <td>{l.time.toFixed(6)}</td>
      <td>
        <span className="muted">
          {l.source} → {l.destination}
          {l.protocol === 'TCP' ? '' : ` ${l.protocol}`}
        </span>{' '}
        {l.info}
      </td>
    </>
  );
}

export function ReplayFigures(props: { figures: readonly FigureComparison[] }) {
  return (
    <>
      {props.figures.map((f, i) => (
        <details key={i} className="replay-figure">
          <summary>
            {f.label} beside run {f.run || '(as written)'}, link {f.link}: {f.same} of {f.compared} TCP rows the same segment
          </summary>
          {f.note && <p className="muted">{f.note}</p>}
          <table className="replay-figure-table">
            <thead>
              <tr>
                <th>Seed</th>
                <th>Time</th>
                <th>Seed's row</th>
                <th title="Same segment: the Info columns agree but for the window">Same</th>
                <th>Ours</th>
                <th>Time</th>
                <th>Our row</th>
              </tr>
            </thead>
            <tbody>
              {f.pairs.map((p, j) => (
                <tr key={j} className={p.same === false ? 'differs' : undefined}>
                  <Cells line={p.seed} />
                  <td>{p.same === null ? '' : p.same ? '=' : '✗'}</td>
                  <Cells line={p.ours} />
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ))}
    </>
  );
}
