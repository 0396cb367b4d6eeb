// The state diagram of an operation's type, drawn server-side as SVG from the state table (src/domain/state-table.ts)
// — so it can never disagree with what the sandbox does: a box per status, an arrow per move some command makes
// (its commands in the arrow's title and in the list under it). The path this operation took (its history) is
// drawn heavier and in the accent colour, its current status filled; the same path is told in words (the image's
// description), so it is never colour alone.
import { COMMANDS, STATE_TABLE, type Command } from '../../domain/state-table.js';
import type { OperationKind, Status } from '../../domain/operation.js';
import { esc } from '../pages/i18n.js';

export interface Move {
  from: string | null;
  to: string;
}

interface Edge {
  from: Status;
  to: Status;
  commands: Command[];
}

const NODE_W = 170;
const NODE_H = 38;
const COL = 230;
const ROW = 76;
const PAD = 12;

/** Every move of `kind`'s table: from → to with the commands that make it. */
export function edgesOf(kind: OperationKind): Edge[] {
  const edges = new Map<string, Edge>();
  for (const [from, cells] of Object.entries(STATE_TABLE[kind]) as Array<[Status, Record<Command, string>]>) {
    for (const c of COMMANDS) {
      const to = cells[c];
      if (to === '=' || to.startsWith('!')) continue;
      const key = `${from}>${to}`;
      const e = edges.get(key) ?? { from, to: to as Status, commands: [] };
      e.commands.push(c);
      edges.set(key, e);
    }
  }
  return [...edges.values()];
}

/** Each status's column: the longest path to it from the first status (the table's moves only go forward). */
function columns(kind: OperationKind, edges: readonly Edge[]): Map<Status, number> {
  const statuses = Object.keys(STATE_TABLE[kind]) as Status[];
  const col = new Map<Status, number>(statuses.map((s) => [s, 0]));
  for (let i = 0; i < statuses.length; i++)
    for (const e of edges) col.set(e.to, Math.max(col.get(e.to)!, col.get(e.from)! + 1));
  return col;
}

/** `wide`: the table's order left to right (a desktop); `tall`: top to bottom (a phone). */
export type Orientation = 'wide' | 'tall';

function layout(kind: OperationKind, edges: readonly Edge[], o: Orientation) {
  const col = columns(kind, edges);
  const rows = new Map<number, number>();
  const at = new Map<Status, { x: number; y: number }>();
  for (const [s, c] of col) {
    const r = rows.get(c) ?? 0;
    rows.set(c, r + 1);
    at.set(s, o === 'wide' ? { x: PAD + c * COL, y: PAD + r * ROW } : { x: PAD + r * (NODE_W + 24), y: PAD + c * ROW });
  }
  const steps = Math.max(...col.values());
  const across = Math.max(...rows.values());
  if (o === 'tall') return { at, width: PAD * 2 + across * (NODE_W + 24) - 24, height: PAD * 2 + steps * ROW + NODE_H };
  return { at, width: PAD * 2 + steps * COL + NODE_W, height: PAD * 2 + (across - 1) * ROW + NODE_H };
}

/** The curve of an arrow from box `a` to box `b`: right side to left side (wide), bottom to top (tall). */
function curve(a: { x: number; y: number }, b: { x: number; y: number }, o: Orientation): string {
  if (o === 'wide') {
    const [x1, y1, x2, y2] = [a.x + NODE_W, a.y + NODE_H / 2, b.x, b.y + NODE_H / 2];
    const mid = (x1 + x2) / 2;
    return `M${x1} ${y1} C${mid} ${y1} ${mid} ${y2} ${x2 - 6} ${y2}`;
  }
  const [x1, y1, x2, y2] = [a.x + NODE_W / 2, a.y + NODE_H, b.x + NODE_W / 2, b.y];
  const mid = (y1 + y2) / 2;
  return `M${x1} ${y1} C${x1} ${mid} ${x2} ${mid} ${x2} ${y2 - 6}`;
}

/** The moves the operation made, as `from>to` keys, and the statuses it has been in. */
function pathOf(history: readonly Move[]): { moves: Set<string>; visited: Set<string>; words: string[] } {
  const moves = new Set<string>();
  const visited = new Set<string>();
  const words: string[] = [];
  for (const h of history) {
    if (h.from !== null) moves.add(`${h.from}>${h.to}`);
    visited.add(h.to);
    words.push(h.to);
  }
  return { moves, visited, words };
}

/**
 * The SVG of `kind`'s states with `history`'s path highlighted and `current` filled, laid out `o` (the page has
 * both; its stylesheet shows the one that fits: ids are prefixed by the orientation).
 */
export function stateDiagram(
  kind: OperationKind,
  history: readonly Move[],
  current: string,
  title: string,
  o: Orientation = 'wide',
): string {
  const edges = edgesOf(kind);
  const { at, width, height } = layout(kind, edges, o);
  const path = pathOf(history);
  const arrows = edges.map((e) => {
    const on = path.moves.has(`${e.from}>${e.to}`);
    const d = curve(at.get(e.from)!, at.get(e.to)!, o);
    return `<g class="edge${on ? ' on' : ''}" data-edge="${e.from}:${e.to}"><title>${esc(`${e.from} → ${e.to}: ${e.commands.join(', ')}`)}</title><path d="${d}" marker-end="url(#${o}-arrow${on ? '-on' : ''})"/></g>`;
  });
  const nodes = [...at].map(([s, p]) => {
    const cls = `${path.visited.has(s) ? ' on' : ''}${s === current ? ' now' : ''}`;
    return `<g class="node${cls}" data-status="${s}"><rect x="${p.x}" y="${p.y}" width="${NODE_W}" height="${NODE_H}" rx="8"/><text x="${p.x + NODE_W / 2}" y="${p.y + NODE_H / 2 + 5}" text-anchor="middle">${s === current ? '● ' : ''}${esc(s)}</text></g>`;
  });
  const marker = (id: string, fill: string) =>
    `<marker id="${id}" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="10" markerHeight="10" orient="auto-start-reverse"><path d="M0 0L10 5L0 10z" fill="${fill}"/></marker>`;
  return `<svg class="diagram ${o}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${o}-dg-title ${o}-dg-desc" xmlns="http://www.w3.org/2000/svg">
<title id="${o}-dg-title">${esc(title)}</title><desc id="${o}-dg-desc">${esc(path.words.join(' → '))}</desc>
<defs>${marker(`${o}-arrow`, '#8a93a2')}${marker(`${o}-arrow-on`, '#1a56b0')}</defs>${arrows.join('')}${nodes.join('')}</svg>`;
}

/** The table's moves in words, under the diagram. */
export function movesList(kind: OperationKind): string {
  const items = edgesOf(kind).map(
    (e) => `<li><span class="mono">${esc(e.from)} → ${esc(e.to)}</span>: ${esc(e.commands.join(', '))}</li>`,
  );
  return `<ul class="moves">${items.join('')}</ul>`;
}
