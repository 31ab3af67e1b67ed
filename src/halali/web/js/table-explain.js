// The page knows no rules, yet a drop or tap that goes nowhere must be answered with the reason. Only
// the state of the table is judged here; the rule itself is asked of the server, and the answer shown
// in the explanation box, so this is the one place where the page's "why not" is put together.

import { errorText } from "./common.js";
import { DIRS, isFaceDown, parsePosition } from "./forest.js";
import { t } from "./i18n.js";
import { currentGame, mySeat, state } from "./table-state.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

/** The attempt in notation: ``d5-N`` to an exit, ``c3xc6`` onto a face-up tile, else ``c3-c6``. */
function attemptText(pos, from, to) {
  if (to === null) return `?${from}`;
  if (DIRS.includes(to)) return `${from}-${to}`;
  const target = pos.board[to];
  return target && !isFaceDown(target) ? `${from}x${to}` : `${from}-${to}`;
}

export class Explanations {
  /** ``send(msg, onError)`` is the connection's: it answers whether the message went out. */
  constructor(send) {
    this.send = send;
    this.timer = null;
  }

  /**
   * A drop (or tap) the legal list does not hold: the tile is already back; now say why. The attempt
   * is sent as a normal action and the `error.illegal` reply carries the engine's rule key. Sending
   * it is harmless: an illegal action changes nothing, and `ply` makes it stale once the position has
   * moved on.
   */
  attempt(from, to, typed = null) {
    const game = currentGame();
    const seat = mySeat();
    const say = (key) => this.show(t(key), key);
    if (!game || state.table.state !== "playing") return say("explain.not_started");
    if (game.over) return say("explain.game_over");
    if (seat === null) return say("explain.spectator");
    if (game.seat_to_move !== seat) return say("explain.not_your_turn");
    if (from === to && !typed) return;
    const action = typed ?? attemptText(parsePosition(game.position), from, to);
    const asked = { number: game.number, ply: game.ply };
    this.send({ type: "action", action, ply: game.ply }, (err) => {
      const now = currentGame();
      // A reply about a position that is gone would explain the wrong board.
      if (err.key === "error.stale" || !now || now.number !== asked.number || now.ply !== asked.ply) return;
      this.error(err);
    });
  }

  /** A refused action's reason; the rule's key (or the error's) stays on the box for tools and tests. */
  error(err) {
    this.show(errorText(err), err.params?.rule ?? err.key);
  }

  show(text, key = "") {
    const box = $("explain");
    box.textContent = text;
    box.dataset.key = key;
    box.hidden = false;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      box.hidden = true;
    }, 5000);
  }
}
