// The table page's modules all read the same messages: what the server last sent about this table
// lives here once, with the questions every part asks of it (which game, which seat, whose name), so
// no part keeps a copy that could fall behind.

import { computerName } from "./common.js";
import { t } from "./i18n.js";

export const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

export const state = {
  you: null,
  levels: [],
  table: null,
  games: [],
  match: null,
  clockAt: 0, // performance.now() when the current game's clock values arrived
  hint: null, // the engine's suggestion {match, game, ply, action}, shown while that position is on the board
  hintAsked: null, // positionKey() of a hint on its way
};

export function currentGame() {
  return state.games.length ? state.games[state.games.length - 1] : null;
}

export function mySeat() {
  return state.table?.you?.seat ?? null;
}

export function seatName(seat) {
  const s = state.table?.seats[seat];
  if (!s) return t("seat.free");
  return s.bot ? computerName(s.bot, s.name, s.number) : s.name;
}
