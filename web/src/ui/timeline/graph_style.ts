// The graphs' look, as a style sheet inside each <svg> (like the ladder's: the theme applies
// on screen and an export carries the rules with the variables resolved). Series colours
// follow tcptrace where it has a convention (green ACK line, yellow window line). Every
// text is the one monospace size of text_size.ts, which the layout measures with; the rule
// on `text` overrides the sans-serif 10 px d3's axes set on their groups.
import type { DrawingText } from './text_size.ts';

export function graphCss(text: DrawingText): string {
  return `
.gr-root { user-select: none; }
.gr-root text { font-family: var(--mono); font-size: ${text.px}px; }
.gr-bg { fill: var(--bg); }
.gr-axis text { fill: var(--muted); }
.gr-axis path, .gr-axis line { stroke: var(--border); }
.gr-axis-label { fill: var(--muted); }
.gr-grid line { stroke: var(--border); stroke-opacity: 0.5; }
.gr-grid path { display: none; }
.gr-seg { fill: none; stroke: var(--fg); stroke-width: 1.2; }
.gr-seg.retx { stroke: var(--bad-tcp-fg); stroke-width: 1.6; }
.gr-seg.selected { stroke: var(--accent); stroke-width: 3; }
.gr-r { fill: var(--bad-tcp-fg); font-weight: 700; paint-order: stroke; stroke: var(--bad-tcp-bg); stroke-width: 2.5px; }
.gr-ack { fill: none; stroke: #2e9d3a; stroke-width: 1.3; }
.gr-win { fill: none; stroke: #c9a100; stroke-width: 1.3; }
.gr-cwnd { fill: none; stroke: var(--accent); stroke-width: 1.8; }
.gr-ssthresh { fill: none; stroke: #e8710a; stroke-width: 1.4; stroke-dasharray: 6 3; }
.gr-rto { fill: none; stroke: #9c27b0; stroke-width: 1.4; }
.gr-rto-armed { fill: #9c27b0; }
.gr-srtt { fill: none; stroke: #2e9d3a; stroke-width: 1.4; }
.gr-inf { fill: #e8710a; }
.gr-legend text { fill: var(--fg); }
.gr-legend line { stroke-width: 2.5; }
.gr-note { fill: var(--muted); }
.gr-cursor { stroke: var(--cursor); stroke-width: 1.5; pointer-events: none; }
`;
}
