// The texts of the ladder's frame, each in an area of its own: the lifelines' names and
// details in the header, the time axis's tick labels in the gutter left of the plot.
import { ticks as d3Ticks, type ScaleLinear } from '../common/d3.ts';
import { boxHeight, charPxAt, fitText, moveBox, textBox, type TextBox, type TextKind } from './ladder_text.ts';
import type { Lifeline } from '../../core/run/lifelines.ts';
import type { DrawingText } from './text_size.ts';
import { secondsTickFormat, tickCount } from './time_axis.ts';

/** A tick label fits this many characters ("1.00002"); a longer one is left out. */
export const TICK_CHARS = 7;
export const TICK_LEN = 6;

export interface Tick {
  t: number;
  y: number;
  label: TextBox;
}

/** Lifeline names and details, centred on their columns, cut (with an ellipsis) to the room
 *  between the neighbouring columns so that neighbours never touch. */
export function headerTexts(lifelines: readonly Lifeline[], laneX: readonly number[], text: DrawingText, width: number): TextBox[] {
  const nameTop = 2;
  const detailTop = nameTop + boxHeight(text.namePx);
  const out: TextBox[] = [];
  lifelines.forEach((l, i) => {
    const x = laneX[i]!;
    const left = i > 0 ? (x - laneX[i - 1]!) / 2 - 1 : x - 1;
    const right = i + 1 < laneX.length ? (laneX[i + 1]! - x) / 2 - 1 : width - 1 - x;
    const room = 2 * Math.max(0, Math.min(left, right));
    const rows: [TextKind, string, number, number][] = [
      ['name', l.label, text.namePx, nameTop],
      ['detail', l.detail, text.px, detailTop],
    ];
    for (const [kind, s, px, top] of rows) {
      const charPx = charPxAt(text, px);
      const fitted = fitText(s, room, charPx, 2);
      if (!fitted) continue;
      const b = textBox(kind, fitted, px, charPx, 0, 0);
      out.push(moveBox(b, x - b.w / 2, top));
    }
  });
  return out;
}

/** Ticks of the time axis between t0 and t1: as many as the text size leaves room for, each
 *  label right of nothing, left of its tick, wholly below the header; fewer ticks until no
 *  two labels touch. */
export function tickMarks(t0: number, t1: number, y: ScaleLinear<number, number>, text: DrawingText, headerH: number, height: number, axisW: number): Tick[] {
  const area = { x: 0, y: headerH, w: axisW - TICK_LEN - 1, h: height - headerH };
  for (let n = tickCount(height - headerH, text.px, 3); n >= 1; n = Math.min(n - 1, Math.floor(n / 1.5))) {
    const ts = d3Ticks(t0, t1, n);
    const format = secondsTickFormat(ts);
    const out: Tick[] = [];
    let clash = false;
    for (const t of ts) {
      const s = format(t);
      const b = textBox('tick', s, text.px, text.charPx, 0, 0);
      const box = moveBox(b, area.x + area.w - b.w, y(t) - b.h / 2);
      if (box.x < 0 || box.y < area.y || box.y + box.h > area.y + area.h) continue;
      const prev = out[out.length - 1];
      if (prev && box.y < prev.label.y + prev.label.h && prev.label.y < box.y + box.h) clash = true;
      out.push({ t, y: y(t), label: box });
    }
    if (!clash) return out;
  }
  return [];
}
