// A hint is the engine's action for this turn, in a match against the computer that is not rated
// (the server decides, `you.hints`, and checks again when asked). It belongs to one position of one
// match, and the page must tell a stale one from the current, so asking, keeping and showing it are
// kept together here.

import { toast } from "./common.js";
import { t } from "./i18n.js";
import { currentGame, mySeat, state } from "./table-state.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

/** Which position of which match: a rematch repeats game numbers and plies. */
function positionKey(game) {
  return `${state.table.match_number}:${game.number}:${game.ply}`;
}

/** The hint for this position of ``game``, if one has come. */
export function hintFor(game) {
  const h = state.hint;
  return h && `${h.match}:${h.game}:${h.ply}` === positionKey(game) ? h.action : null;
}

/** The server's `hint` message. */
export function hintArrived(msg) {
  state.hint = { match: msg.match, game: msg.game, ply: msg.ply, action: msg.action };
  state.hintAsked = null;
}

/** The Hint button (while it may be asked for, waiting once asked) and the suggestion in words. */
export function renderHint(game) {
  const seat = mySeat();
  const mine = !!game && seat !== null && state.table.state === "playing" && !game.over
    && game.seat_to_move === seat && game.legal.length > 0;
  const button = $("btn-hint");
  const asked = mine && state.hintAsked === positionKey(game);
  const action = mine ? hintFor(game) : null;
  button.hidden = !(mine && state.table.you?.hints) || !!action;
  button.disabled = asked;
  button.textContent = t(asked ? "cmd.hint_wait" : "cmd.hint");
  const text = $("hint-text");
  text.hidden = !action;
  text.textContent = action ? t("hint.suggest", { action }) : "";
  text.dataset.action = action || "";
}

/** Ask for this turn's hint through ``send(msg, onError)``; a refusal ``redraw``s the page. */
export function askHint(send, redraw) {
  const game = currentGame();
  if (!game) return;
  state.hintAsked = positionKey(game);
  renderHint(game);
  const sent = send({ type: "hint" }, () => {
    state.hintAsked = null; // the refusal itself is shown with every other error (handle)
    redraw(false);
  });
  if (!sent) {
    state.hintAsked = null;
    renderHint(game);
    toast(t("conn.offline"), "error");
  }
}
