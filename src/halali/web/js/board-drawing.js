// The forest board's picture, kept apart from what a click or a drag means: the table, the replay and
// the rules page all show positions through it, and it draws only the letters it is given, so a
// face-down tile ("?") can only ever come out as its back.

import { KINDS, tileBack, tileFace } from "./art.js";
import { CELL, EXIT_GEOMETRY, MARGIN, VIEW, squareOrigin } from "./board-geometry.js";
import { DIRS, allSquares, isFaceDown, parseAction, squareXY } from "./forest.js";

const NS = "http://www.w3.org/2000/svg";

// A visitor who asks the system for less motion (prefers-reduced-motion) sees every action at once:
// no tile slides, flips or glides back. Asked at each action, so a change of the setting counts at once.
const STILL = typeof matchMedia === "function" ? matchMedia("(prefers-reduced-motion: reduce)") : { matches: false };

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (parent) parent.appendChild(e);
  return e;
}

// The mark on a face-down tile shown with its face: the back's green laid over it in stripes and a
// dashed frame, so it can never be taken for a revealed tile.
const PEEK_MARK = `<g class="peek-mark">
  <rect x="3" y="3" width="94" height="94" rx="12" class="peek-veil"/>
  <path d="M3 25 L25 3 M3 55 L55 3 M3 85 L85 3 M15 97 L97 15 M45 97 L97 45 M75 97 L97 75" class="peek-stripes"/>
  <rect x="5" y="5" width="90" height="90" rx="11" class="peek-frame"/></g>`;

// A tile's shadow on the forest floor: two soft offsets under its edge.
const TILE_SHADOW = `<g class="tile-shadow" aria-hidden="true">
  <rect x="2" y="4.5" width="96" height="96" rx="13" fill="rgba(0, 0, 0, 0.16)"/>
  <rect x="3" y="4" width="94" height="94" rx="12" fill="rgba(0, 0, 0, 0.22)"/></g>`;

export class BoardDrawing {
  /** The board's frame, squares, coordinates and exits, with empty layers for what changes. */
  constructor(host) {
    this.tiles = new Map(); // square -> <g>
    const svg = el("svg", {
      viewBox: `0 0 ${VIEW} ${VIEW}`,
      class: "board",
      "data-testid": "board",
    });
    this.svg = svg;
    const defs = el("defs", {}, svg);
    defs.innerHTML = `
      <radialGradient id="floor" cx="50%" cy="45%" r="70%">
        <stop offset="0" stop-color="#7da25a"/><stop offset="1" stop-color="#4f7536"/>
      </radialGradient>
      <filter id="lift" x="-20%" y="-20%" width="140%" height="150%">
        <feDropShadow dx="0" dy="6" stdDeviation="6" flood-opacity="0.45"/>
      </filter>`;
    el("rect", { x: 4, y: 4, width: VIEW - 8, height: VIEW - 8, rx: 26, class: "board-frame" }, svg);
    el("rect", { x: MARGIN - 8, y: MARGIN - 8, width: 7 * CELL + 16, height: 7 * CELL + 16, rx: 14, fill: "url(#floor)" }, svg);
    // The picture is for the eye: a reader gets the grid's labelled cells (board-keys.js) instead,
    // not the tiles' value badges or the arrows as stray text.
    const cells = el("g", { class: "cells", "aria-hidden": "true" }, svg);
    for (const sq of allSquares()) {
      const [x, y] = squareOrigin(sq);
      const [f, r] = squareXY(sq);
      el("rect", {
        x: x + 1.5, y: y + 1.5, width: CELL - 3, height: CELL - 3, rx: 10,
        class: `cell ${(f + r) % 2 ? "cell-a" : "cell-b"}`, "data-square": sq,
      }, cells);
    }
    const labels = el("g", { class: "coords", "aria-hidden": "true" }, svg);
    for (let i = 0; i < 7; i++) {
      const fx = MARGIN + i * CELL + CELL / 2;
      const file = el("text", { x: fx, y: MARGIN + 7 * CELL + 27, "text-anchor": "middle" }, labels);
      file.textContent = "abcdefg"[i];
      const ry = MARGIN + (6 - i) * CELL + CELL / 2 + 7;
      const rank = el("text", { x: MARGIN - 20, y: ry, "text-anchor": "middle" }, labels);
      rank.textContent = String(i + 1);
    }
    this.exitLayer = el("g", { class: "exits", "aria-hidden": "true" }, svg);
    for (const d of DIRS) {
      const g = EXIT_GEOMETRY[d];
      const exit = el("g", {
        class: "exit", "data-exit": d, "data-testid": `exit-${d}`,
        transform: `translate(${g.x} ${g.y}) rotate(${g.rot})`,
      }, this.exitLayer);
      el("rect", { x: -58, y: -21, width: 116, height: 42, rx: 12, class: "exit-pad" }, exit);
      el("path", { d: "M0 -18 L22 1 L9 1 L9 17 L-9 17 L-9 1 L-22 1 Z", class: "exit-arrow" }, exit);
    }
    const hidden = { "aria-hidden": "true" };
    this.markLayer = el("g", { class: "marks", ...hidden }, svg);
    this.tileLayer = el("g", { class: "tiles", ...hidden }, svg);
    this.targetLayer = el("g", { class: "targets", ...hidden }, svg);
    this.bestLayer = el("g", { class: "best-layer", "data-testid": "best-layer", ...hidden }, svg);
    this.dragLayer = el("g", { class: "drag", ...hidden }, svg);
    host.appendChild(svg);
  }

  /**
   * The tiles of ``position``, the movable and revealable ones marked from the parsed ``legal``
   * actions. With the ``previous`` position, ``lastAction`` is shown turning its tile over or sliding
   * it, unless the player ``dropped`` it there: then it already is where it belongs.
   */
  drawTiles(position, legal, lastAction, previous, dropped) {
    // A tile whose square and letter are unchanged is kept as it is: an action redraws the squares it
    // changed, not the whole board (a phone repaints a few tiles, not all 49).
    this.dragLayer.replaceChildren();
    const movable = new Set(legal.filter((a) => a.from).map((a) => a.from));
    const revealable = new Set(legal.filter((a) => a.type === "reveal").map((a) => a.to));
    const kept = new Map();
    for (const [sq, letter] of Object.entries(position.board)) {
      const old = this.tiles.get(sq);
      let g = old && old.dataset.letter === letter && old.parentNode === this.tileLayer
        && !old.classList.contains("leaving") ? old : null;
      if (g) {
        const [x, y] = squareOrigin(sq);
        const at = `translate(${x}px, ${y}px)`;
        if (g.style.transform !== at) g.style.transform = at;
      } else {
        g = this.drawTile(sq, letter);
      }
      g.classList.toggle("movable", movable.has(sq));
      g.classList.toggle("revealable", revealable.has(sq));
      kept.set(sq, g);
    }
    for (const child of [...this.tileLayer.children]) if (kept.get(child.dataset.square) !== child) child.remove();
    // In the board's order, as drawn afresh (a later square's tile lies above an earlier one's).
    let before = this.tileLayer.firstChild;
    for (const g of kept.values()) {
      if (g === before) before = g.nextSibling;
      else this.tileLayer.insertBefore(g, before);
    }
    this.tiles = kept;
    const last = lastAction;
    if (!previous || !last || STILL.matches) return;
    if (last.type === "reveal" && isFaceDown(previous.board[last.to]) && !isFaceDown(position.board[last.to])) {
      this.flip(last.to);
    } else if ((last.type === "move" || last.type === "capture") && previous.board[last.from]
      && !position.board[last.from] && !dropped) {
      this.slide(last.from, last.to);
    }
  }

  drawTile(sq, letter) {
    const [x, y] = squareOrigin(sq);
    const down = isFaceDown(letter);
    // A lowercase letter is a face-down tile whose face is known (the deal of a finished game, on
    // the replay page): drawn face up but marked, so it never reads as a revealed tile.
    const peek = down && letter !== "?" && !!KINDS[letter.toUpperCase()];
    const g = el("g", {
      class: `tile ${down ? "face-down" : "face-up"}${peek ? " peek" : ""}`,
      "data-square": sq,
      "data-testid": `tile-${sq}`,
      "data-tile": down ? "?" : letter,
      "data-letter": letter,
    });
    if (peek) g.dataset.peek = letter.toUpperCase();
    g.style.transform = `translate(${x}px, ${y}px)`;
    const inner = el("g", { class: "tile-inner" }, g);
    // The shadow is a shape, not an SVG filter: a filter is painted again, in software, whenever
    // anything near it changes (each frame of a slide), and that was most of a move's cost.
    inner.innerHTML = TILE_SHADOW + (peek ? `${tileFace(letter.toUpperCase())}${PEEK_MARK}` : down ? tileBack() : tileFace(letter));
    return g;
  }

  flip(sq) {
    const g = this.tiles.get(sq);
    if (!g) return;
    const inner = g.querySelector(".tile-inner");
    const face = inner.innerHTML;
    inner.innerHTML = TILE_SHADOW + tileBack();
    g.classList.add("flipping");
    const half = { duration: 140, easing: "ease-in", fill: "forwards" };
    inner.animate([{ transform: "scaleX(1)" }, { transform: "scaleX(0)" }], half).finished.then(() => {
      inner.innerHTML = face;
      return inner.animate([{ transform: "scaleX(0)" }, { transform: "scaleX(1)" }], { ...half, easing: "ease-out" }).finished;
    }).then(() => g.classList.remove("flipping")).catch(() => {});
  }

  slide(from, to) {
    const g = this.tiles.get(to);
    if (!g) return;
    const [x0, y0] = squareOrigin(from);
    const [x1, y1] = squareOrigin(to);
    g.animate([{ transform: `translate(${x0}px, ${y0}px)` }, { transform: `translate(${x1}px, ${y1}px)` }],
      { duration: 220, easing: "ease-out" });
  }

  /** The last action (parsed, or null) framed: its source, its target, or its exit lit. */
  drawMarks(lastAction) {
    this.markLayer.replaceChildren();
    for (const ex of this.exitLayer.children) ex.classList.remove("last", "target");
    const a = lastAction;
    if (!a) return;
    const mark = (sq, cls) => {
      const [x, y] = squareOrigin(sq);
      el("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 12, class: `mark ${cls}`, "data-mark": sq }, this.markLayer);
    };
    if (a.from) mark(a.from, "mark-from");
    if (a.to) mark(a.to, "mark-to");
    if (a.type === "exit") this.exitLayer.querySelector(`[data-exit="${a.dir}"]`).classList.add("last");
  }

  /**
   * Draw the engine's suggestion over the board (the replay's best action, a hint at the table): an
   * arrow for a move, a capture or an exit, a ring for a reveal; ``null`` clears it.
   */
  suggest(text) {
    const layer = this.bestLayer;
    layer.replaceChildren();
    const a = text ? parseAction(text.replace(/=.$/, "")) : null;
    layer.dataset.best = a ? a.text : "";
    if (!a) return;
    const centre = (sq) => squareOrigin(sq).map((v) => v + CELL / 2);
    if (a.type === "reveal") {
      const [x, y] = centre(a.to);
      el("circle", { cx: x, cy: y, r: 40, class: "best-ring", "data-square": a.to }, layer);
    } else if (a.from) {
      const [x0, y0] = centre(a.from);
      let [x1, y1] = a.to ? centre(a.to) : [x0, y0];
      if (a.type === "exit") {
        const d = { N: [0, -1], S: [0, 1], E: [1, 0], W: [-1, 0] }[a.dir];
        x1 = x0 + d[0] * 130;
        y1 = y0 + d[1] * 130;
      }
      const len = Math.hypot(x1 - x0, y1 - y0) || 1;
      const [ux, uy] = [(x1 - x0) / len, (y1 - y0) / len];
      const [tx, ty] = [x1 - ux * 18, y1 - uy * 18];
      el("line", { x1: x0, y1: y0, x2: tx, y2: ty, class: "best-arrow", "data-from": a.from }, layer);
      el("path", { d: `M${x1} ${y1} L${tx - uy * 16} ${ty + ux * 16} L${tx + uy * 16} ${ty - ux * 16} Z`, class: "best-head" }, layer);
    }
  }

  /** The tile on ``from`` shown selected and where its ``actions`` go; no square clears them. */
  drawTargets(from, actions) {
    this.targetLayer.replaceChildren();
    for (const ex of this.exitLayer.children) ex.classList.remove("target");
    for (const g of this.tiles.values()) g.classList.remove("selected");
    if (!from) return;
    this.tiles.get(from)?.classList.add("selected");
    for (const a of actions) {
      if (a.type === "exit") {
        this.exitLayer.querySelector(`[data-exit="${a.dir}"]`).classList.add("target");
        continue;
      }
      const [x, y] = squareOrigin(a.to);
      if (a.type === "capture") {
        el("rect", { x: x + 5, y: y + 5, width: CELL - 10, height: CELL - 10, rx: 14, class: "target capture", "data-target": a.to }, this.targetLayer);
      } else {
        el("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 16, class: "target move", "data-target": a.to }, this.targetLayer);
      }
    }
  }

  /** The target or exit under a dragged tile (a hit, or null) lit. */
  markOver(h) {
    for (const t of this.targetLayer.children) t.classList.toggle("over", !!h && t.dataset.target === h.square);
    for (const ex of this.exitLayer.children) ex.classList.toggle("over", !!h && ex.dataset.exit === h.exit);
  }

  /** Lift a tile above the others, to follow the pointer. */
  lift(g) {
    g.classList.add("dragging");
    this.dragLayer.appendChild(g);
  }

  /** A lifted tile centred on a point in board units, a little larger. */
  follow(g, pt) {
    const half = (CELL * 1.08) / 2;
    g.style.transform = `translate(${pt.x - half}px, ${pt.y - half}px) scale(1.08)`;
  }

  /** Lay a lifted tile back among the others: on ``square``, or fading as it leaves by an exit. */
  settle(g, square) {
    g.classList.remove("dragging");
    this.tileLayer.appendChild(g);
    if (square) {
      const [x, y] = squareOrigin(square);
      g.style.transform = `translate(${x}px, ${y}px)`;
    } else {
      g.classList.add("leaving");
    }
  }

  /** A lifted tile gliding back to ``square``, where it came from. */
  snapBack(g, square) {
    const start = g.style.transform;
    this.settle(g, square);
    if (STILL.matches) return;
    const [x, y] = squareOrigin(square);
    g.animate([{ transform: start }, { transform: `translate(${x}px, ${y}px)` }], { duration: 200, easing: "ease-out" });
  }
}
