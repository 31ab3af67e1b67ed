// The one board object a page holds: it keeps the position, this seat's legal actions and the
// selection, and decides what a click, a drop or a key does with them, so that the picture
// (board-drawing.js), the pointer's gestures (board-pointer.js) and the keyboard (board-keys.js) need
// not. The board only shows what it is given; whether an action is legal comes from the server's
// list, and anything else is explained and snapped back.

import { KINDS } from "./art.js";
import { BoardDrawing } from "./board-drawing.js";
import { boxOf } from "./board-geometry.js";
import { BoardKeys } from "./board-keys.js";
import { BoardPointer } from "./board-pointer.js";
import { isFaceDown, parseAction } from "./forest.js";

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
    this.shown = ""; // what the picture shows (position, tiles, ply, actions): the same again redraws nothing
    this.lastAction = null;
    this.selected = null;
    this.offered = null; // a tile the page selected for the player (a puzzle's hint): see ``offer``
    this.drawing = new BoardDrawing(host);
    this.svg = this.drawing.svg;
    this.keys = new BoardKeys(this, boxOf, (text) => this.onAnnounce(text));
    this.pointer = new BoardPointer(this);
  }

  /** Show a position (parsed view), the legal actions of this seat and the last action played. */
  update({ position, legal = [], interactive = false, lastAction = null, positionText = "", ply = 0, animate = true,
    over = false }) {
    const legalText = legal.join(" ");
    // The drawn tiles count too: the replay shows the same position with and without the deal.
    const shown = [positionText, ply, legalText, interactive, over, JSON.stringify(position.board)].join("|");
    if (positionText && shown === this.shown && !this.pending && !this.justDropped) {
      return; // nothing on the board changed (a spectator came, say): a drag or a selection goes on
    }
    this.shown = shown;
    const previous = this.position;
    this.position = position;
    this.legal = legal.map(parseAction).filter(Boolean);
    this.interactive = interactive;
    this.lastAction = lastAction ? parseAction(lastAction) : null;
    this.selected = null;
    this.offered = null;
    this.pending = false;
    this.pointer.abortDrag();
    this.svg.dataset.position = positionText;
    this.svg.dataset.legal = legalText;
    this.svg.dataset.ply = String(ply);
    this.svg.classList.toggle("my-turn", interactive && legal.length > 0);
    // The exits are lit for the final phase only while it is played: a game that is over has none.
    this.svg.classList.toggle("final-phase", position.final !== null && !over);
    // A tile the player dropped is already where it belongs: no slide for it.
    const dropped = this.justDropped;
    this.justDropped = false;
    this.drawing.drawTiles(position, this.legal, this.lastAction, previous && animate ? previous : null, dropped);
    this.drawing.drawMarks(this.lastAction);
    this.renderTargets();
  }

  /** The square (or exit) holding the board's tab stop, for the focus to come back to. */
  tabStop() {
    return this.keys.tabStop();
  }

  /** The labels are in the page's language: redraw them after a switch. */
  retranslate() {
    this.keys.refresh();
  }

  /** The engine's suggestion over the board (board-drawing.js); ``null`` clears it. */
  suggest(text) {
    this.drawing.suggest(text);
  }

  actionsFrom(sq) {
    return this.legal.filter((a) => a.from === sq);
  }

  /** The tile on ``from`` selected with its targets shown (none: nothing selected), in words too. */
  renderTargets(from = null) {
    this.drawing.drawTargets(from, from ? this.actionsFrom(from) : []);
    this.keys?.refresh();
  }

  /** Hand an action to the page, once: input waits for the server's next word. */
  send(text) {
    this.pending = true;
    this.onAction(text);
  }

  /** The server refused the action: input is open again (the page redraws the last position). */
  refused() {
    this.pending = false;
    this.shown = ""; // the page's redraw puts everything back as it was, selection and all
  }

  /** The action of moving the tile on ``from`` to a hit square or exit, if it is legal. */
  findAction(from, h) {
    if (!h) return null;
    return this.actionsFrom(from).find((a) => (h.exit ? a.type === "exit" && a.dir === h.exit : a.to === h.square)) || null;
  }

  /** The page points the player at the tile on ``sq`` (null: at none), as a puzzle's hint does: it is
   * selected with its targets shown, and the player's next click on it keeps it selected instead of
   * putting it down, since that click follows the hint. */
  offer(sq) {
    this.selected = sq;
    this.offered = sq;
    this.renderTargets(sq);
  }

  /** A click, a tap or Enter on a square or exit ({square} / {exit}): select, move, reveal or explain. */
  click(h) {
    const sq = h.square;
    const offered = this.offered;
    this.offered = null;
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
      this.selected = this.selected === sq && offered !== sq ? null : sq;
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
}
