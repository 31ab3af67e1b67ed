// Whose turn it is, how a game ended and how near its end is are said in one status line (a live
// region) and the final-turns line under it; both change with every message, apart from the seats and
// controls around them, so they are kept on their own.

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
  status.textContent = text;
  status.dataset.kind = kind;
  document.title = `${kind === "mine" ? "● " : ""}${t("title.table")}`;
  status.dataset.colour = game && !game.over ? game.to_move : "";
  renderFinalTurns(game);
}

/** Each side's final turns once the final phase has begun; before it, the stall count near its limit. */
function renderFinalTurns(game) {
  const table = state.table;
  const final = $("final-turns");
  if (game && game.final_turns_left !== null && !game.over) {
    final.hidden = false;
    final.textContent = t("status.final", finalTurns(game.final_turns_left, game.to_move));
  } else {
    const pos = game ? parsePosition(game.position) : null;
    const limit = table.rules.stall_limit;
    const near = pos && !game.over && limit && pos.stall >= Math.max(1, limit - 6);
    final.hidden = !near;
    if (near) final.textContent = t("status.stall", { n: pos.stall, limit });
  }
}
