// A tooltip beside the pointer, on the side with more room (so it never runs off the pane):
// right or left of it, and above it in the lower half when the pane's height is known.
export interface TipState {
  lines: string[];
  /** pointer position in the pane body */
  x: number;
  y: number;
  /** the body's width */
  width: number;
  /** the body's height, when the tip may go above the pointer */
  height?: number;
}

const OFFSET = 14;

export function Tooltip({ tip }: { tip: TipState }) {
  const horizontal = tip.x < tip.width / 2 ? { left: tip.x + OFFSET } : { right: tip.width - tip.x + OFFSET };
  const vertical = tip.height !== undefined && tip.y > tip.height / 2 ? { bottom: tip.height - tip.y + OFFSET } : { top: tip.y + OFFSET };
  return (
    <div className="tl-tooltip" role="tooltip" style={{ ...horizontal, ...vertical }}>
      {tip.lines.join('\n')}
    </div>
  );
}
