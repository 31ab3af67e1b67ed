// Mouse, pen and finger reach the forest board through the same Pointer Events, and one press may
// turn out a click, a drag, a long press or (with a mouse) a hover. Telling them apart takes timers
// and thresholds that neither the drawing nor the board's selection should have to carry.

import { hitAt } from "./board-geometry.js";
import { isFaceDown } from "./forest.js";

const DRAG_THRESHOLD = 6;
const LONG_PRESS_MS = 550;
const HOVER_MS = 350;

export class BoardPointer {
  constructor(board) {
    this.board = board;
    this.press = null;
    this.drag = null; // {from, g}: the tile being dragged and its square
    const svg = board.svg;
    svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    svg.addEventListener("pointercancel", (e) => this.cancel(e));
    svg.addEventListener("pointerleave", (e) => {
      if (e.pointerType === "mouse" && !this.drag) this.hoverEnd();
    });
    svg.addEventListener("contextmenu", (e) => e.preventDefault());
  }

  /** The square or exit under a client point: {square} / {exit} / null. */
  hit(clientX, clientY) {
    return hitAt(this.svgPoint(clientX, clientY));
  }

  svgPoint(clientX, clientY) {
    const svg = this.board.svg;
    const p = svg.createSVGPoint();
    p.x = clientX;
    p.y = clientY;
    return p.matrixTransform(svg.getScreenCTM().inverse());
  }

  pointerDown(e) {
    const board = this.board;
    if (!e.isPrimary || !board.position || board.pending) return;
    const h = this.hit(e.clientX, e.clientY);
    this.hoverEnd();
    if (!h) {
      board.deselect();
      return;
    }
    e.preventDefault();
    const sq = h.square;
    const letter = sq ? board.position.board[sq] : null;
    this.press = { id: e.pointerId, x: e.clientX, y: e.clientY, hit: h, letter, type: e.pointerType, moved: false };
    clearTimeout(this.pressTimer);
    if (letter && !isFaceDown(letter)) {
      this.pressTimer = setTimeout(() => this.longPress(), LONG_PRESS_MS);
    }
    try {
      board.svg.setPointerCapture(e.pointerId);
    } catch {
      /* synthetic pointers cannot always be captured */
    }
  }

  longPress() {
    const p = this.press;
    if (!p || p.moved || this.drag) return;
    p.hinted = true;
    this.board.onHint(p.letter, p.hit.square, p.x, p.y);
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
      if (p.hinted) this.board.onHintEnd();
      if (!this.startDrag(p)) return;
    }
    if (this.drag) {
      e.preventDefault();
      this.board.drawing.follow(this.drag.g, this.svgPoint(e.clientX, e.clientY));
      this.board.drawing.markOver(this.hit(e.clientX, e.clientY));
    }
  }

  startDrag(p) {
    const board = this.board;
    const sq = p.hit.square;
    if (!sq || !p.letter || isFaceDown(p.letter) || !board.interactive) return false;
    const g = board.drawing.tiles.get(sq);
    if (!g) return false;
    board.selected = null;
    this.drag = { from: sq, g };
    board.drawing.lift(g);
    board.renderTargets(sq);
    return true;
  }

  pointerUp(e) {
    const p = this.press;
    if (!p || p.id !== e.pointerId) return;
    this.press = null;
    clearTimeout(this.pressTimer);
    if (p.hinted) {
      this.board.onHintEnd();
      return;
    }
    const h = this.hit(e.clientX, e.clientY);
    if (this.drag) {
      this.drop(h);
      return;
    }
    if (!p.moved) this.board.click(p.hit);
  }

  cancel() {
    this.press = null;
    clearTimeout(this.pressTimer);
    this.board.onHintEnd();
    this.abortDrag();
    this.board.renderTargets(this.board.selected);
  }

  /** Put a dragged tile back on its square at once (a new position is coming in). */
  abortDrag() {
    if (!this.drag) return;
    const { g, from } = this.drag;
    this.drag = null;
    this.board.drawing.settle(g, from);
  }

  snapBack() {
    if (!this.drag) return;
    const { g, from } = this.drag;
    this.drag = null;
    this.board.drawing.snapBack(g, from);
    this.board.renderTargets(null);
  }

  drop(h) {
    const board = this.board;
    const { from, g } = this.drag;
    if (!h || (h.square && h.square === from)) {
      this.snapBack();
      return;
    }
    const action = board.findAction(from, h);
    if (!action) {
      this.snapBack();
      board.onIllegal(from, h.exit || h.square);
      return;
    }
    // Leave the tile where it was dropped until the server's answer redraws the board.
    this.drag = null;
    board.drawing.settle(g, h.square);
    board.justDropped = true;
    board.renderTargets(null);
    board.send(action.text);
  }

  hover(e) {
    const h = this.hit(e.clientX, e.clientY);
    const sq = h?.square;
    if (sq === this.hoverSquare) return;
    this.hoverEnd();
    this.hoverSquare = sq;
    const letter = sq ? this.board.position?.board[sq] : null;
    if (!letter || isFaceDown(letter)) return;
    this.hoverTimer = setTimeout(() => this.board.onHint(letter, sq, e.clientX, e.clientY), HOVER_MS);
  }

  hoverEnd() {
    clearTimeout(this.hoverTimer);
    if (this.hoverSquare) this.board.onHintEnd();
    this.hoverSquare = null;
  }
}
