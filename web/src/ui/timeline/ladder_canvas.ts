// Arrows on a canvas when there are too many for the DOM (Scene.canvas): one path per
// colour, no labels (the tooltip tells). The SVG above it keeps the lifelines, the timers,
// the cursor and the selected arrow, and an export draws everything as SVG again.
import type { ArrowMark, Scene } from './ladder_scene.ts';

export interface CanvasColours {
  fg: string;
  bad: string;
  drop: string;
}

/** The theme's colours, read from the page's CSS variables (a canvas cannot use var()). */
export function themeColours(el: Element): CanvasColours {
  const cs = getComputedStyle(el);
  const v = (name: string, dflt: string) => cs.getPropertyValue(name).trim() || dflt;
  return { fg: v('--fg', '#1a1a1a'), bad: v('--bad-tcp-fg', '#fd4a4a'), drop: v('--drop', '#c62828') };
}

export function drawArrowsCanvas(canvas: HTMLCanvasElement, scene: Scene, colours: CanvasColours): void {
  const dpr = globalThis.devicePixelRatio || 1;
  const w = Math.round(scene.width * dpr);
  const h = Math.round(scene.height * dpr);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, scene.width, scene.height);
  if (!scene.canvas) return;
  const groups: [string, (a: ArrowMark) => boolean, number][] = [
    [colours.fg, (a) => !a.retx && !a.drop, 1],
    [colours.bad, (a) => !!a.retx && !a.drop, 1.4],
    [colours.drop, (a) => !!a.drop, 1.2],
  ];
  for (const [colour, pick, width] of groups) {
    const batch = scene.arrows.filter((a) => pick(a) && !a.selected);
    ctx.strokeStyle = colour;
    ctx.lineWidth = width;
    // One stroked path per colour; arrowheads as open chevrons in the same path (filling
    // thousands of small triangles costs far more than stroking them).
    ctx.beginPath();
    for (const a of batch) {
      for (const s of a.segments) {
        ctx.moveTo(s.x1, s.y1);
        ctx.lineTo(s.x2, s.y2);
      }
      if (a.head) {
        ctx.moveTo(a.head[1]![0], a.head[1]![1]);
        ctx.lineTo(a.head[0]![0], a.head[0]![1]);
        ctx.lineTo(a.head[2]![0], a.head[2]![1]);
      }
      if (a.cross) {
        const { x, y } = a.cross;
        ctx.moveTo(x - 4, y - 4);
        ctx.lineTo(x + 4, y + 4);
        ctx.moveTo(x - 4, y + 4);
        ctx.lineTo(x + 4, y - 4);
      }
    }
    ctx.stroke();
  }
}
