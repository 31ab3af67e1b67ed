// The forest board: an SVG of 7x7 squares with four exits, tiles drawn by art.js, and the pointer
// handling for clicks, drags (mouse, pen and finger alike, through Pointer Events), hover and long
// press. The board only shows what it is given; whether an action is legal comes from the server's
// list, and anything else is explained and snapped back.

import { KINDS, tileBack, tileFace } from "./art.js";
import { BoardKeys } from "./board-keys.js";
import { DIRS, allSquares, isFaceDown, parseAction, squareXY } from "./forest.js";

const NS = "http://www.w3.org/2000/svg";
const CELL = 100;
const MARGIN = 76;
export const VIEW = CELL * 7 + MARGIN * 2;
const DRAG_THRESHOLD = 6;
const LONG_PRESS_MS = 550;
const HOVER_MS = 350;

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

export function squareOrigin(square) {
  const [f, r] = squareXY(square);
  return [MARGIN + f * CELL, MARGIN + (6 - r) * CELL];
}

// Where each exit sits beyond the board's edge: the centre of the arrow and its rotation.
const EXIT_OFFSET = 50; // from the board's edge: the coordinates sit nearer, the exits further out
const EXIT_GEOMETRY = {
  N: { x: MARGIN + 3.5 * CELL, y: MARGIN - EXIT_OFFSET, rot: 0 },
  E: { x: MARGIN + 7 * CELL + EXIT_OFFSET, y: MARGIN + 3.5 * CELL, rot: 90 },
  S: { x: MARGIN + 3.5 * CELL, y: MARGIN + 7 * CELL + EXIT_OFFSET, rot: 180 },
  W: { x: MARGIN - EXIT_OFFSET, y: MARGIN + 3.5 * CELL, rot: 270 },
};

/** A square's or an exit's box in board units, for the keyboard's cells. */
function boxOf(key) {
  const g = EXIT_GEOMETRY[key];
  if (g) {
    const horizontal = key === "E" || key === "W";
    return horizontal ? { x: g.x - 21, y: g.y - 58, w: 42, h: 116 } : { x: g.x - 58, y: g.y - 21, w: 116, h: 42 };
  }
  const [x, y] = squareOrigin(key);
  return { x, y, w: CELL, h: CELL };
}

export class Board {
  constructor(host, { onAction = () => {}, onIllegal = () => {}, onHint = () => {}, onHintEnd = () => {},
    onAnnounce = () => {} } = {}) {
    this.onAction = onAction;
    this.onAnnounce = onAnnounce;
    this.onIllegal = onIllegal;
    this.onHint = onHint;
    this.onHintEnd = onHintEnd;
    this.position = null; // parsed view
    this.legal = [];
    this.interactive = false; // a seated player at a running game
    this.lastAction = null;
    this.selected = null;
    this.drag = null;
    this.tiles = new Map(); // square -> <g>
    this.build(host);
  }

  build(host) {
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
      </filter>
      <filter id="rest" x="-10%" y="-10%" width="120%" height="130%">
        <feDropShadow dx="0" dy="2" stdDeviation="1.6" flood-opacity="0.35"/>
      </filter>`;
    el("rect", { x: 4, y: 4, width: VIEW - 8, height: VIEW - 8, rx: 26, class: "board-frame" }, svg);
    el("rect", { x: MARGIN - 8, y: MARGIN - 8, width: 7 * CELL + 16, height: 7 * CELL + 16, rx: 14, fill: "url(#floor)" }, svg);
    const cells = el("g", { class: "cells" }, svg);
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
    this.exitLayer = el("g", { class: "exits" }, svg);
    for (const d of DIRS) {
      const g = EXIT_GEOMETRY[d];
      const exit = el("g", {
        class: "exit", "data-exit": d, "data-testid": `exit-${d}`,
        transform: `translate(${g.x} ${g.y}) rotate(${g.rot})`,
      }, this.exitLayer);
      el("rect", { x: -58, y: -21, width: 116, height: 42, rx: 12, class: "exit-pad" }, exit);
      el("path", { d: "M0 -18 L22 1 L9 1 L9 17 L-9 17 L-9 1 L-22 1 Z", class: "exit-arrow" }, exit);
    }
    this.markLayer = el("g", { class: "marks" }, svg);
    this.tileLayer = el("g", { class: "tiles" }, svg);
    this.targetLayer = el("g", { class: "targets" }, svg);
    this.bestLayer = el("g", { class: "best-layer", "data-testid": "best-layer" }, svg);
    this.dragLayer = el("g", { class: "drag" }, svg);
    host.appendChild(svg);
    this.keys = new BoardKeys(this, boxOf, (text) => this.onAnnounce(text));

    svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    svg.addEventListener("pointercancel", (e) => this.cancel(e));
    svg.addEventListener("pointerleave", (e) => {
      if (e.pointerType === "mouse" && !this.drag) this.hoverEnd();
    });
    svg.addEventListener("contextmenu", (e) => e.preventDefault());
  }

  /** Show a position (parsed view), the legal actions of this seat and the last action played. */
  update({ position, legal = [], interactive = false, lastAction = null, positionText = "", ply = 0, animate = true }) {
    const previous = this.position;
    this.position = position;
    this.legal = legal.map(parseAction).filter(Boolean);
    this.interactive = interactive;
    this.lastAction = lastAction ? parseAction(lastAction) : null;
    this.selected = null;
    this.pending = false;
    this.abortDrag();
    this.svg.dataset.position = positionText;
    this.svg.dataset.legal = legal.join(" ");
    this.svg.dataset.ply = String(ply);
    this.svg.classList.toggle("my-turn", interactive && legal.length > 0);
    this.svg.classList.toggle("final-phase", position.final !== null);
    this.renderTiles(previous && animate ? previous : null);
    this.renderMarks();
    this.renderTargets();
  }

  /** The labels are in the page's language: redraw them after a switch. */
  retranslate() {
    this.keys.refresh();
  }

  renderTiles(previous) {
    // A tile the player dropped is already where it belongs: no slide for it.
    const dropped = this.justDropped;
    this.justDropped = false;
    this.tileLayer.replaceChildren();
    this.dragLayer.replaceChildren();
    this.tiles.clear();
    const movable = new Set(this.legal.filter((a) => a.from).map((a) => a.from));
    const revealable = new Set(this.legal.filter((a) => a.type === "reveal").map((a) => a.to));
    for (const [sq, letter] of Object.entries(this.position.board)) {
      const g = this.drawTile(sq, letter);
      if (movable.has(sq)) g.classList.add("movable");
      if (revealable.has(sq)) g.classList.add("revealable");
      this.tiles.set(sq, g);
      this.tileLayer.appendChild(g);
    }
    const last = this.lastAction;
    if (!previous || !last) return;
    if (last.type === "reveal" && isFaceDown(previous.board[last.to]) && !isFaceDown(this.position.board[last.to])) {
      this.flip(last.to);
    } else if ((last.type === "move" || last.type === "capture") && previous.board[last.from]
      && !this.position.board[last.from] && !dropped) {
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
    });
    if (peek) g.dataset.peek = letter.toUpperCase();
    g.style.transform = `translate(${x}px, ${y}px)`;
    const inner = el("g", { class: "tile-inner", filter: "url(#rest)" }, g);
    inner.innerHTML = peek ? `${tileFace(letter.toUpperCase())}${PEEK_MARK}` : down ? tileBack() : tileFace(letter);
    return g;
  }

  flip(sq) {
    const g = this.tiles.get(sq);
    if (!g) return;
    const inner = g.querySelector(".tile-inner");
    const face = inner.innerHTML;
    inner.innerHTML = tileBack();
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

  renderMarks() {
    this.markLayer.replaceChildren();
    for (const ex of this.exitLayer.children) ex.classList.remove("last", "target");
    const a = this.lastAction;
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

  actionsFrom(sq) {
    return this.legal.filter((a) => a.from === sq);
  }

  renderTargets(from = null) {
    this.targetLayer.replaceChildren();
    for (const ex of this.exitLayer.children) ex.classList.remove("target");
    for (const g of this.tiles.values()) g.classList.remove("selected");
    this.keys?.refresh();
    if (!from) return;
    this.tiles.get(from)?.classList.add("selected");
    for (const a of this.actionsFrom(from)) {
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

  /** The square or exit under a client point: {square} / {exit} / null. */
  hit(clientX, clientY) {
    const pt = this.svgPoint(clientX, clientY);
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

  svgPoint(clientX, clientY) {
    const p = this.svg.createSVGPoint();
    p.x = clientX;
    p.y = clientY;
    return p.matrixTransform(this.svg.getScreenCTM().inverse());
  }

  /** Hand an action to the page, once: input waits for the server's next word. */
  send(text) {
    this.pending = true;
    this.onAction(text);
  }

  /** The server refused the action: input is open again (the page redraws the last position). */
  refused() {
    this.pending = false;
  }

  pointerDown(e) {
    if (!e.isPrimary || !this.position || this.pending) return;
    const h = this.hit(e.clientX, e.clientY);
    this.hoverEnd();
    if (!h) {
      this.deselect();
      return;
    }
    e.preventDefault();
    const sq = h.square;
    const letter = sq ? this.position.board[sq] : null;
    this.press = { id: e.pointerId, x: e.clientX, y: e.clientY, hit: h, letter, type: e.pointerType, moved: false };
    clearTimeout(this.pressTimer);
    if (letter && !isFaceDown(letter)) {
      this.pressTimer = setTimeout(() => this.longPress(), LONG_PRESS_MS);
    }
    try {
      this.svg.setPointerCapture(e.pointerId);
    } catch {
      /* synthetic pointers cannot always be captured */
    }
  }

  longPress() {
    const p = this.press;
    if (!p || p.moved || this.drag) return;
    p.hinted = true;
    this.onHint(p.letter, p.hit.square, p.x, p.y);
  }

  pointerMove(e) {
    const p = this.press;
    if (!p || p.id !== e.pointerId) {
      if (e.pointerType === "mouse" && !this.drag) this.hover(e);
      return;
    }
    const dist = Math.hypot(e.clientX - p.x, e.clientY - p.y);
    if (!p.moved && dist < DRAG_THRESHOLD) return;
    if (!p.moved) {
      p.moved = true;
      clearTimeout(this.pressTimer);
      if (p.hinted) this.onHintEnd();
      if (!this.startDrag(p)) return;
    }
    if (this.drag) {
      e.preventDefault();
      const pt = this.svgPoint(e.clientX, e.clientY);
      const { g } = this.drag;
      const half = (CELL * 1.08) / 2; // the lifted tile is a little larger, centred on the pointer
      g.style.transform = `translate(${pt.x - half}px, ${pt.y - half}px) scale(1.08)`;
      const h = this.hit(e.clientX, e.clientY);
      this.hoverTarget(h);
    }
  }

  startDrag(p) {
    const sq = p.hit.square;
    if (!sq || !p.letter || isFaceDown(p.letter) || !this.interactive) return false;
    const g = this.tiles.get(sq);
    if (!g) return false;
    this.selected = null;
    this.drag = { from: sq, g };
    g.classList.add("dragging");
    this.dragLayer.appendChild(g);
    this.renderTargets(sq);
    return true;
  }

  hoverTarget(h) {
    for (const t of this.targetLayer.children) t.classList.toggle("over", !!h && t.dataset.target === h.square);
    for (const ex of this.exitLayer.children) ex.classList.toggle("over", !!h && ex.dataset.exit === h.exit);
  }

  pointerUp(e) {
    const p = this.press;
    if (!p || p.id !== e.pointerId) return;
    this.press = null;
    clearTimeout(this.pressTimer);
    if (p.hinted) {
      this.onHintEnd();
      return;
    }
    const h = this.hit(e.clientX, e.clientY);
    if (this.drag) {
      this.drop(h);
      return;
    }
    if (!p.moved) this.click(p.hit);
  }

  cancel() {
    this.press = null;
    clearTimeout(this.pressTimer);
    this.onHintEnd();
    this.abortDrag();
    this.renderTargets(this.selected);
  }

  abortDrag() {
    if (!this.drag) return;
    const { g, from } = this.drag;
    this.drag = null;
    g.classList.remove("dragging");
    const [x, y] = squareOrigin(from);
    this.tileLayer.appendChild(g);
    g.style.transform = `translate(${x}px, ${y}px)`;
  }

  snapBack() {
    if (!this.drag) return;
    const { g, from } = this.drag;
    const start = g.style.transform;
    this.abortDrag();
    const [x, y] = squareOrigin(from);
    g.animate([{ transform: start }, { transform: `translate(${x}px, ${y}px)` }], { duration: 200, easing: "ease-out" });
    this.renderTargets(null);
  }

  /** The action of moving the tile on ``from`` to a hit square or exit, if it is legal. */
  findAction(from, h) {
    if (!h) return null;
    return this.actionsFrom(from).find((a) => (h.exit ? a.type === "exit" && a.dir === h.exit : a.to === h.square)) || null;
  }

  drop(h) {
    const { from, g } = this.drag;
    if (!h || (h.square && h.square === from)) {
      this.snapBack();
      return;
    }
    const action = this.findAction(from, h);
    if (!action) {
      this.snapBack();
      this.onIllegal(from, h.exit || h.square);
      return;
    }
    // Leave the tile where it was dropped until the server's answer redraws the board.
    this.drag = null;
    g.classList.remove("dragging");
    this.tileLayer.appendChild(g);
    if (h.square) {
      const [x, y] = squareOrigin(h.square);
      g.style.transform = `translate(${x}px, ${y}px)`;
    } else {
      g.classList.add("leaving");
    }
    this.justDropped = true;
    this.renderTargets(null);
    this.send(action.text);
  }

  click(h) {
    const sq = h.square;
    if (h.exit) {
      if (this.selected) {
        const action = this.findAction(this.selected, h);
        if (action) return this.send(action.text);
        this.onIllegal(this.selected, h.exit);
      }
      return;
    }
    const letter = this.position.board[sq];
    if (this.selected) {
      const action = this.findAction(this.selected, h);
      if (action) {
        this.selected = null;
        this.renderTargets(null);
        return this.send(action.text);
      }
      if (sq !== this.selected && !(letter && this.actionsFrom(sq).length)) {
        const from = this.selected;
        this.deselect();
        if (this.interactive) this.onIllegal(from, sq);
        return;
      }
    }
    if (letter && isFaceDown(letter)) {
      this.deselect();
      const reveal = this.legal.find((a) => a.type === "reveal" && a.to === sq);
      if (reveal) this.send(reveal.text);
      else this.onIllegal(sq, null); // a spectator's tap too: the page says why nothing happens
      return;
    }
    if (letter && this.interactive && this.actionsFrom(sq).length) {
      this.selected = this.selected === sq ? null : sq;
      this.renderTargets(this.selected);
      return;
    }
    this.deselect();
    if (letter && KINDS[letter]) this.onHint(letter, sq, null, null);
  }

  deselect() {
    if (!this.selected) return;
    this.selected = null;
    this.renderTargets(null);
  }

  hover(e) {
    const h = this.hit(e.clientX, e.clientY);
    const sq = h?.square;
    if (sq === this.hoverSquare) return;
    this.hoverEnd();
    this.hoverSquare = sq;
    const letter = sq ? this.position?.board[sq] : null;
    if (!letter || isFaceDown(letter)) return;
    this.hoverTimer = setTimeout(() => this.onHint(letter, sq, e.clientX, e.clientY), HOVER_MS);
  }

  hoverEnd() {
    clearTimeout(this.hoverTimer);
    if (this.hoverSquare) this.onHintEnd();
    this.hoverSquare = null;
  }
}
