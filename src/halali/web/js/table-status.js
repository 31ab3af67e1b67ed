// Whose turn it is, how a game (or the match) ended and how near its end is are shown in one status
// line and the final-turns line under it; both change with every message, apart from the seats and
// controls around them, so they are kept on their own. Neither is read out as it changes: the live
// region says the same in one sentence per action (`nearEndWords` and table.js).

import { colourName, terminationText } from "./common.js";
import { finalTurns, parsePosition } from "./forest.js";
import { t } from "./i18n.js";
import { mySeat, seatName, state } from "./table-state.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

/** The status line (and the page's title): waiting, whose turn, or the game's result and how. */
export function renderStatus(game) {
  const status = $("status");
  const table = state.table;
  const seat = mySeat();
  let text;
  let kind = "";
  if (!game || table.state === "waiting") {
    const full = table.seats.every(Boolean);
    text = full ? t("status.ready") : t("status.waiting");
  } else if (game.over && state.match?.over && table.number_of_games === 2 && game.number === table.number_of_games) {
    // After the last game the match decides, not that game.
    const [x, y] = state.match.totals;
    text = state.match.winner === null || state.match.winner === undefined ? t("status.match_draw", { x, y })
      : t("status.match_won", { name: seatName(state.match.winner), x, y });
  } else if (game.over) {
    const r = game.result;
    text = r.winner_seat === null ? t("status.game_draw", { game: game.number }) : t("status.game_won", { game: game.number, name: seatName(r.winner_seat) });
    const how = terminationText(game.termination);
    if (how) text += ` · ${how}`;
  } else if (seat !== null && game.seat_to_move === seat) {
    text = t("status.your_turn", { colour: colourName(game.to_move) });
    kind = "mine";
  } else {
    text = t("status.to_move", { name: seatName(game.seat_to_move), colour: colourName(game.to_move) });
  }
  if (status.textContent !== text) status.textContent = text;
  status.dataset.kind = kind;
  document.title = `${kind === "mine" ? "● " : ""}${t("title.table")}`;
  status.dataset.colour = game && !game.over ? game.to_move : "";
  renderFinalTurns(game);
}

/** Each side's final turns once the final phase has begun; before it, the stall count near its limit. */
function renderFinalTurns(game) {
  const final = $("final-turns");
  if (game && game.final_turns_left !== null && !game.over) {
    final.hidden = false;
    final.textContent = t("status.final", finalTurns(game.final_turns_left, game.to_move));
  } else {
    const stall = stallNear(game);
    final.hidden = !stall;
    if (stall) final.textContent = t("status.stall", stall);
  }
}

/** The stall count once it is near the table's limit ({n, limit}), else null. */
function stallNear(game) {
  const limit = state.table?.rules?.stall_limit;
  if (!game || game.over || !limit || game.final_turns_left !== null) return null;
  const n = parsePosition(game.position).stall;
  return n >= Math.max(1, limit - 6) ? { n, limit } : null;
}

/**
 * How near the game's end is, for the live region after an action: the final phase as it begins and
 * the turns each side has left in it, or the stall warning while the count is near its limit.
 */
export function nearEndWords(before, game) {
  if (game.over) return [];
  if (game.final_turns_left !== null) {
    const left = finalTurns(game.final_turns_left, game.to_move);
    const began = !before || before.final_turns_left === null || before.number !== game.number;
    return [t(began ? "say.final_begins" : "say.final_turns", left)];
  }
  const stall = stallNear(game);
  return stall ? [t("say.stall", stall)] : [];
}
