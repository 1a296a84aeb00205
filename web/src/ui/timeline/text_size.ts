// The size of every text the ladder and the graphs draw, in CSS pixels. Presenter mode is
// for the back row of a classroom at 1280x720: nothing in a drawing is smaller than 16 px.
// Everything that places text (label widths, header and margin heights) derives from these.
export interface DrawingText {
  /** labels on arrows, drop reasons, timer labels, axis ticks, legends */
  px: number;
  /** lifeline names in the ladder's header */
  namePx: number;
  /** the width of one character of the monospace labels (DejaVu Sans Mono: 0.602 em) */
  charPx: number;
}

const MONO_EM = 0.602;

function drawingText(px: number, namePx: number): DrawingText {
  return { px, namePx, charPx: px * MONO_EM };
}

export const NORMAL_TEXT = drawingText(11, 12);
export const PRESENTER_TEXT = drawingText(16, 17);

export function textFor(presenter: boolean): DrawingText {
  return presenter ? PRESENTER_TEXT : NORMAL_TEXT;
}
