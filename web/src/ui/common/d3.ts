// The parts of D3 the page draws with, in one list. Importing 'd3' whole brings
// d3-transition, which its side effects keep in the bundle whether used or not, and d3-zoom,
// which the views replace with a zoom along one axis (ui/timeline/use_axis_zoom.ts): about
// 8 KB of the page's first download (docs/performance.md).
export * from 'd3-array';
export * from 'd3-axis';
export * from 'd3-scale';
export * from 'd3-selection';
export * from 'd3-shape';
