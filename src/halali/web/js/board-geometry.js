// The drawing, the pointer and the keyboard's cells must agree to the unit on where every square and
// exit of the forest board lies, so its measures are kept here once, in the SVG's own units.

import { DIRS, squareXY } from "./forest.js";

export const CELL = 100;
export const MARGIN = 76;
export const VIEW = CELL * 7 + MARGIN * 2;

export function squareOrigin(square) {
  const [f, r] = squareXY(square);
  return [MARGIN + f * CELL, MARGIN + (6 - r) * CELL];
}

// Where each exit sits beyond the board's edge: the centre of the arrow and its rotation.
const EXIT_OFFSET = 50; // from the board's edge: the coordinates sit nearer, the exits further out
export const EXIT_GEOMETRY = {
  N: { x: MARGIN + 3.5 * CELL, y: MARGIN - EXIT_OFFSET, rot: 0 },
  E: { x: MARGIN + 7 * CELL + EXIT_OFFSET, y: MARGIN + 3.5 * CELL, rot: 90 },
  S: { x: MARGIN + 3.5 * CELL, y: MARGIN + 7 * CELL + EXIT_OFFSET, rot: 180 },
  W: { x: MARGIN - EXIT_OFFSET, y: MARGIN + 3.5 * CELL, rot: 270 },
};

/** A square's or an exit's box in board units, for the keyboard's cells. */
export function boxOf(key) {
  const g = EXIT_GEOMETRY[key];
  if (g) {
    const horizontal = key === "E" || key === "W";
    return horizontal ? { x: g.x - 21, y: g.y - 58, w: 42, h: 116 } : { x: g.x - 58, y: g.y - 21, w: 116, h: 42 };
  }
  const [x, y] = squareOrigin(key);
  return { x, y, w: CELL, h: CELL };
}

/** The square or exit under a point in board units: {square} / {exit} / null. */
export function hitAt(pt) {
  const f = Math.floor((pt.x - MARGIN) / CELL);
  const r = 6 - Math.floor((pt.y - MARGIN) / CELL);
  if (f >= 0 && f < 7 && r >= 0 && r < 7) return { square: "abcdefg"[f] + (r + 1) };
  for (const d of DIRS) {
    const g = EXIT_GEOMETRY[d];
    const horizontal = d === "E" || d === "W";
    const [w, h] = horizontal ? [MARGIN, 2 * CELL] : [2 * CELL, MARGIN];
    if (Math.abs(pt.x - g.x) <= w / 2 + 4 && Math.abs(pt.y - g.y) <= h / 2 + 4) return { exit: d };
  }
  return null;
}
