// The ladder's look, as a style sheet inside its own <svg>: the page's theme variables
// apply on screen, and an export carries the same rules with the variables resolved, so a
// saved SVG looks like the screen. Class names start with "ld-" because a style element in
// inline SVG applies to the whole document. Sizes are not here: every text carries the
// scene's size as an attribute (ladder_svg.ts), and all of them are monospace so that the
// layout knows their widths (ladder_text.ts); no rule here may set a font size or family.
export const LADDER_CSS = `
.ld-root { font-family: var(--mono); user-select: none; }
.ld-bg { fill: var(--bg); }
.ld-lifeline { stroke: var(--muted); stroke-width: 1; }
.ld-lifeline.module { stroke-dasharray: 4 3; }
.ld-header-bg { fill: var(--panel); stroke: var(--border); }
.ld-name { fill: var(--fg); font-weight: 700; }
.ld-detail { fill: var(--muted); }
.ld-axis text { fill: var(--muted); }
.ld-axis path, .ld-axis line { stroke: var(--border); }
.ld-arrow { cursor: pointer; }
.ld-line { fill: none; stroke: var(--fg); stroke-width: 1.2; }
.ld-head { fill: var(--fg); }
.ld-hold { fill: none; stroke: var(--fg); stroke-width: 4; stroke-linecap: butt; opacity: 0.5; }
.ld-tags { pointer-events: none; }
.ld-label { fill: var(--fg); paint-order: stroke; stroke: var(--bg); stroke-width: 3px; stroke-linejoin: round; }
.ld-hit { fill: none; stroke: transparent; stroke-width: 10; pointer-events: stroke; }
.ld-arrow.retx .ld-line { stroke: var(--bad-tcp-fg); stroke-width: 1.6; }
.ld-arrow.retx .ld-head { fill: var(--bad-tcp-fg); }
.ld-tag.retx .ld-label { fill: var(--bad-tcp-fg); stroke: none; }
.ld-label-bg { fill: var(--bad-tcp-bg); rx: 2px; }
.ld-arrow.dropped .ld-line { stroke: var(--drop); stroke-dasharray: 5 2; }
.ld-cross { fill: none; stroke: var(--drop); stroke-width: 2.2; }
.ld-reason { fill: var(--drop); paint-order: stroke; stroke: var(--bg); stroke-width: 3px; stroke-linejoin: round; }
.ld-arrow.open .ld-line { stroke-dasharray: 2 3; }
.ld-arrow.selected .ld-line { stroke: var(--accent); stroke-width: 2.6; }
.ld-arrow.selected .ld-head { fill: var(--accent); }
.ld-tag.selected .ld-label { fill: var(--accent); font-weight: 700; }
.ld-tag.selected .ld-label-bg { stroke: var(--accent); stroke-width: 1.5; }
.ld-timer.rto { fill: var(--accent); opacity: 0.35; }
.ld-timer.delack { fill: var(--muted); opacity: 0.45; }
.ld-timer-end.expire { stroke: var(--bad-tcp-fg); stroke-width: 2.5; }
.ld-timer-end.stop, .ld-timer-end.cancel, .ld-timer-end.rearm, .ld-timer-end.closed { stroke: var(--muted); stroke-width: 1.5; }
.ld-timer-end.fire { stroke: var(--accent); stroke-width: 2.5; }
.ld-timer-end.open { stroke: none; }
.ld-timer-label { fill: var(--muted); paint-order: stroke; stroke: var(--bg); stroke-width: 3px; }
.ld-tag.running .ld-timer-label { fill: var(--accent); font-weight: 700; }
.ld-group { cursor: pointer; }
.ld-bracket { fill: none; stroke: var(--accent); stroke-width: 1.5; }
.ld-group-hit { fill: none; stroke: transparent; stroke-width: 10; pointer-events: stroke; }
.ld-group-bg { fill: var(--bg); stroke: var(--accent); stroke-width: 1; rx: 3px; }
.ld-group-label { fill: var(--accent); paint-order: stroke; stroke: var(--bg); stroke-width: 3px; stroke-linejoin: round; }
.ld-fade { fill: var(--bg); opacity: 0.5; pointer-events: none; }
.ld-cursor { stroke: var(--cursor); stroke-width: 1.5; pointer-events: none; }
.ld-cursor-label { fill: var(--cursor); pointer-events: none; paint-order: stroke; stroke: var(--bg); stroke-width: 3px; }
`;
