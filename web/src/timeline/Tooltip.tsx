// A tooltip beside the pointer, on the side with more room (so it never runs off the pane).
export interface TipState {
  lines: string[];
  /** pointer position in the pane body */
  x: number;
  y: number;
  /** the body's width */
  width: number;
}

export function Tooltip({ tip }: { tip: TipState }) {
  const left = tip.x < tip.width / 2;
  const style = left ? { left: tip.x + 14, top: tip.y + 14 } : { right: tip.width - tip.x + 14, top: tip.y + 14 };
  return (
    <div className="tl-tooltip" role="tooltip" style={style}>
      {tip.lines.join('\n')}
    </div>
  );
}
