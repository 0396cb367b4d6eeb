// The pages' charts, drawn server-side as SVG (no library, no script): a step chart of amounts over sandbox time
// (the Balances page) and a bar chart of amounts with horizontal bands (the Pool page). Positions are computed from
// the amounts as numbers (pixels only); the exact decimal strings travel in data attributes and titles. Each chart
// is an image with a title and a description, and its figures are also in a table beside it (never colour alone:
// each line also has its own dash pattern).
import { esc } from '../../pages/i18n.js';

export const W = 720;
export const H = 260;
const LEFT = 118;
const RIGHT = 12;
const TOP = 12;
const BOTTOM = 28;

export interface Scale {
  x(v: number): number;
  y(v: number): number;
}

/**
 * A linear scale of [x0, x1] × [y0, y1] onto the plot area, or onto the band of it from `top` to `bottom` (pixels
 * from the top); a zero span is widened so it draws.
 */
export function scale(x0: number, x1: number, y0: number, y1: number, top = TOP, bottom = H - BOTTOM): Scale {
  const xs = x1 > x0 ? x1 - x0 : 1;
  const ys = y1 > y0 ? y1 - y0 : 1;
  const fx = (W - LEFT - RIGHT) / xs;
  const fy = (bottom - top) / ys;
  return {
    x: (v) => Math.round((LEFT + (v - x0) * fx) * 10) / 10,
    y: (v) => Math.round((bottom - (v - y0) * fy) * 10) / 10,
  };
}

/** The y axis: 0 (when in range) and the ends, labelled with `label`. */
export function yAxis(s: Scale, y0: number, y1: number, label: (v: number) => string): string {
  const ticks = [...new Set([y0, 0, y1])].filter((v) => v >= y0 && v <= y1);
  if (ticks.length === 3 && Math.abs(s.y(ticks[1]!) - s.y(ticks[0]!)) < 14) ticks.splice(1, 1);
  const lines = ticks.map(
    (v) =>
      `<line class="grid" x1="${LEFT}" x2="${W - RIGHT}" y1="${s.y(v)}" y2="${s.y(v)}"/><text class="tick" x="${LEFT - 6}" y="${s.y(v) + 4}" text-anchor="end">${esc(label(v))}</text>`,
  );
  return `<g class="axis" aria-hidden="true">${lines.join('')}</g>`;
}

/** An x-axis label at each end. */
export function xLabels(first: string, last: string, height = H): string {
  return `<g class="axis" aria-hidden="true"><text class="tick" x="${LEFT}" y="${height - 8}">${esc(first)}</text><text class="tick" x="${W - RIGHT}" y="${height - 8}" text-anchor="end">${esc(last)}</text></g>`;
}

/** A step line through (x, y) points: flat until the next x, then up or down. */
export function stepPath(points: ReadonlyArray<[number, number]>): string {
  let d = '';
  points.forEach(([x, y], i) => {
    d += i === 0 ? `M${x} ${y}` : `H${x}V${y}`;
  });
  if (points.length) d += `H${W - RIGHT}`;
  return d;
}

/** The SVG element with its title and description (an image to assistive technology). */
export function svg(id: string, cls: string, title: string, desc: string, body: string, height = H): string {
  return `<svg class="chart ${cls}" id="${id}" viewBox="0 0 ${W} ${height}" role="img" aria-labelledby="${id}-t ${id}-d" xmlns="http://www.w3.org/2000/svg"><title id="${id}-t">${esc(title)}</title><desc id="${id}-d">${esc(desc)}</desc>${body}</svg>`;
}

/** A legend: each entry a swatch of the series' class (its colour and dash) and its name. */
export function legend(entries: ReadonlyArray<[cls: string, name: string]>): string {
  const items = entries.map(
    ([cls, name]) =>
      `<li><svg class="swatch" viewBox="0 0 24 8" aria-hidden="true"><line class="${cls}" x1="0" x2="24" y1="4" y2="4"/></svg>${esc(name)}</li>`,
  );
  return `<ul class="legend">${items.join('')}</ul>`;
}

export const PLOT = { LEFT, RIGHT, TOP, BOTTOM };
