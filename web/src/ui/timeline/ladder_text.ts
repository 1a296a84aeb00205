// The ladder's texts as boxes. Every ladder text is monospace (DejaVu Sans Mono, the font
// Chromium picks for var(--mono)), so a text's box is known from its length and size
// without measuring the page: the layout can be pure, and the SVG draws each text exactly
// where its box says (text-anchor start at `tx`, baseline at `ty`).
import type { DrawingText } from './text_size.ts';

export type TextKind = 'name' | 'detail' | 'tick' | 'label' | 'reason' | 'timer' | 'group' | 'cursor';

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface TextBox extends Rect {
  kind: TextKind;
  text: string;
  /** font size, px */
  px: number;
  /** where the text is drawn: its start and its baseline */
  tx: number;
  ty: number;
}

/** Font metrics of DejaVu Sans Mono as Chromium lays it out (measured: a 16 px text's box
 *  runs from 15 px above its baseline to 4 px below), rounded up to stay on the safe side. */
const ASCENT_EM = 0.96;
const DESCENT_EM = 0.28;
/** Glyphs advance 0.602 em; sub-pixel positioning adds a little. */
const WIDTH_SLACK = 1.01;
/** Room around a text inside its box (a retransmission's dark background fills the box). */
const PAD_X = 3;
const PAD_Y = 1;

/** Width of one character at `px` (the drawing text gives it at its own size). */
export function charPxAt(text: DrawingText, px: number): number {
  return (text.charPx / text.px) * px;
}

export function boxHeight(px: number): number {
  return Math.ceil(px * (ASCENT_EM + DESCENT_EM)) + 2 * PAD_Y;
}

export function boxWidth(chars: number, charPx: number): number {
  return Math.ceil(chars * charPx * WIDTH_SLACK) + 2 * PAD_X;
}

/** The box of `s` at `px` with its top-left corner at (x, y). */
export function textBox(kind: TextKind, s: string, px: number, charPx: number, x: number, y: number): TextBox {
  const w = boxWidth(s.length, charPx);
  return { kind, text: s, px, x, y, w, h: boxHeight(px), tx: x + PAD_X, ty: y + PAD_Y + Math.ceil(px * ASCENT_EM) };
}

/** The same box moved so that its left edge is at `x` and its top at `y`. */
export function moveBox(b: TextBox, x: number, y: number): TextBox {
  return { ...b, x, y, tx: b.tx + x - b.x, ty: b.ty + y - b.y };
}

/** The text cut to `maxPx` with an ellipsis, or null when fewer than `min` characters fit
 *  (the tooltip always has the whole text). */
export function fitText(s: string, maxPx: number, charPx: number, min = 8): string | null {
  const n = Math.floor((maxPx - 2 * PAD_X) / (charPx * WIDTH_SLACK));
  if (s.length <= n) return s;
  return n >= min ? `${s.slice(0, n - 1)}…` : null;
}

/** Words of a label; a bracketed flag list ("[PSH, ACK]", "[SYN]…[FIN, ACK]") is one word. */
const WORDS = /(?:\[[^\]]*\]|[^\s[])+/g;

/** The text cut after a whole word to fit `maxPx`, with an ellipsis; null when fewer than
 *  `minWords` words fit. Cutting inside a word ("Seq…") would tell less than leaving it out. */
export function fitWords(s: string, maxPx: number, charPx: number, minWords = 1): string | null {
  if (fitText(s, maxPx, charPx, Infinity) === s) return s;
  const words = s.match(WORDS) ?? [];
  for (let n = words.length - 1; n >= minWords; n--) {
    const cut = `${words.slice(0, n).join(' ')}…`;
    if (fitText(cut, maxPx, charPx, Infinity) === cut) return cut;
  }
  return null;
}

export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

export function inside(a: Rect, r: Rect): boolean {
  return a.x >= r.x && a.y >= r.y && a.x + a.w <= r.x + r.w && a.y + a.h <= r.y + r.h;
}

const CELL = 48;
/** A repair moves at most this many texts out of a spot, and goes this many moves deep. */
const REPAIR_MOVES = 3;
const REPAIR_DEPTH = 3;
const REPAIR_BUDGET = 1500;
const REPAIR_TOTAL = 6000;

/** The boxes placed so far, in a grid of cells so that a test looks only at its neighbours. */
export class Occupancy {
  private readonly cells = new Map<number, Rect[]>();

  constructor(readonly bounds: Rect) {}

  private keys(r: Rect): number[] {
    const out: number[] = [];
    const cx0 = Math.floor(r.x / CELL);
    const cx1 = Math.floor((r.x + r.w) / CELL);
    const cy0 = Math.floor(r.y / CELL);
    const cy1 = Math.floor((r.y + r.h) / CELL);
    for (let cy = cy0; cy <= cy1; cy++) for (let cx = cx0; cx <= cx1; cx++) out.push(cy * 65536 + cx);
    return out;
  }

  /** Inside the bounds and clear of everything placed (and of `extra`, boxes not yet added). */
  fits(r: Rect, extra: readonly Rect[] = []): boolean {
    if (!inside(r, this.bounds)) return false;
    for (const k of this.keys(r)) for (const o of this.cells.get(k) ?? []) if (intersects(r, o)) return false;
    return !extra.some((o) => intersects(r, o));
  }

  add(r: Rect): void {
    for (const k of this.keys(r)) {
      const c = this.cells.get(k);
      if (c) c.push(r);
      else this.cells.set(k, [r]);
    }
  }

  remove(r: Rect): void {
    for (const k of this.keys(r)) {
      const c = this.cells.get(k);
      const i = c ? c.indexOf(r) : -1;
      if (i >= 0) c!.splice(i, 1);
    }
  }

  /** The boxes placed that `r` would overlap. */
  overlapping(r: Rect): Rect[] {
    const out = new Set<Rect>();
    for (const k of this.keys(r)) for (const o of this.cells.get(k) ?? []) if (intersects(r, o)) out.add(o);
    return [...out];
  }

  /** The first candidate that fits, added; null when none does. */
  place<T extends Rect>(candidates: Iterable<T>): T | null {
    for (const c of candidates) {
      if (this.fits(c)) {
        this.add(c);
        return c;
      }
    }
    return null;
  }
}

/** Something to place: where it may go (best first), and what to do with where it went. */
export interface Placeable {
  candidates(): Iterable<TextBox>;
  set(box: TextBox | null): void;
}

/** Places texts first come, first served; a text that matters may ask for a repair: when
 *  each of its spots is taken, one that a few other repairable texts block is freed by
 *  moving them to other spots of theirs (which may move others in turn, REPAIR_DEPTH deep).
 *  Every change is journaled so that a repair that fails changes nothing. */
export class Placer {
  readonly occ: Occupancy;
  /** where each repairable text is, and whose each such box is */
  private readonly at = new Map<Placeable, Rect>();
  private readonly owner = new Map<Rect, Placeable>();
  private readonly undo: (() => void)[] = [];
  /** spots this repair, and all repairs to come, may still look at: a layout costs a few
   *  milliseconds, whatever the crowd */
  private budget = 0;
  private left = REPAIR_TOTAL;

  constructor(bounds: Rect) {
    this.occ = new Occupancy(bounds);
  }

  place(p: Placeable, repair = false): TextBox | null {
    let box = this.occ.place(p.candidates());
    if (!box && repair) {
      this.budget = Math.min(this.left, REPAIR_BUDGET);
      this.left -= this.budget;
      for (const c of p.candidates()) {
        const mark = this.undo.length;
        if (this.take(c, REPAIR_DEPTH)) {
          box = c;
          // texts moved out of the way learn where they went
          for (const [q, r] of this.at) q.set(r as TextBox);
          break;
        }
        this.rollback(mark);
      }
    }
    this.undo.length = 0;
    if (box && repair) this.own(p, box);
    p.set(box);
    return box;
  }

  /** Takes `c` (added), moving what is in its way; false when it cannot (then roll back). */
  private take(c: TextBox, depth: number): boolean {
    if (--this.budget < 0 || !inside(c, this.occ.bounds)) return false;
    const blockers = this.occ.overlapping(c);
    if (blockers.length > (depth > 0 ? REPAIR_MOVES : 0) || !blockers.every((b) => this.owner.has(b))) return false;
    const moving = blockers.map((b) => this.owner.get(b)!);
    for (const b of blockers)
      this.journal(
        () => this.occ.remove(b),
        () => this.occ.add(b),
      );
    this.journal(
      () => this.occ.add(c),
      () => this.occ.remove(c),
    );
    for (const q of moving) {
      let moved = false;
      for (const to of q.candidates()) {
        const mark = this.undo.length;
        if (this.take(to, depth - 1)) {
          this.own(q, to);
          moved = true;
          break;
        }
        this.rollback(mark);
      }
      if (!moved) return false;
    }
    return true;
  }

  private own(p: Placeable, r: Rect): void {
    const before = this.at.get(p);
    this.journal(
      () => {
        if (before) this.owner.delete(before);
        this.at.set(p, r);
        this.owner.set(r, p);
      },
      () => {
        this.owner.delete(r);
        if (before) {
          this.at.set(p, before);
          this.owner.set(before, p);
        } else this.at.delete(p);
      },
    );
  }

  private journal(doIt: () => void, undoIt: () => void): void {
    doIt();
    this.undo.push(undoIt);
  }

  private rollback(mark: number): void {
    while (this.undo.length > mark) this.undo.pop()!();
  }
}
