// The panels around the table's board are redrawn whole from the table and its current game at
// every message, each on its own; keeping them out of table.js leaves that module to the connection
// and to what each message changes.

import { botBadge } from "./challenges.js";
import { colourName, el, levelName, nameEl } from "./common.js";
import { t } from "./i18n.js";
import { mayManageComputers, unbotButton } from "./lifecycle.js";
import { pileIcons } from "./piles.js";
import { currentGame, mySeat, seatName, state } from "./table-state.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);

/** Both seats: name, online dot, colour, score, clock and pile; ``send(msg)`` for a computer's removal. */
export function renderPlayers(game, send) {
  const table = state.table;
  for (const seat of [0, 1]) {
    const box = $(`seat-${seat}`);
    const s = table.seats[seat];
    const colour = game ? game.colours[seat] : seat === 0 ? "brown" : "blue";
    box.dataset.colour = colour;
    box.classList.toggle("to-move", !!game && !game.over && table.state === "playing" && game.seat_to_move === seat);
    box.classList.toggle("me", mySeat() === seat);
    box.classList.toggle("free", !s);
    const name = el("div", { class: "player-name", "data-testid": `seat-${seat}-name` },
      el("span", { class: `dot ${s && s.online ? "on" : "off"}` }), nameEl(seatName(seat)), botBadge(s),
      mySeat() === seat ? el("span", { class: "you-tag", text: t("seat.you") }) : null);
    const head = el("div", { class: "player-head" }, name,
      el("span", { class: `colour-chip ${colour}`, text: colourName(colour) }));
    const parts = [head];
    if (s && s.bot && table.state !== "playing" && mayManage()) {
      parts.push(unbotButton(seat, send));
    }
    if (game) {
      parts.push(el("div", { class: "player-score" },
        el("span", { class: "score", "data-testid": `score-${seat}`, text: String(game.score[colour]) }),
        el("span", { class: "score-label", text: t("score.points") }),
        game.clock ? el("span", { class: "clock", "data-testid": `clock-${seat}`, "aria-label": t("clock.label"), title: t("clock.label") }) : null));
      parts.push(pileIcons(game.piles[colour], { over: game.over }));
    }
    box.replaceChildren(...parts);
  }
}

/** Game 1 or 2 of the match, and the totals of a two-game match. */
export function renderMatch(game) {
  const box = $("match-info");
  const table = state.table;
  if (!game) {
    box.textContent = t(table.number_of_games === 2 ? "match.two_games" : "match.one_game");
    return;
  }
  const parts = [el("span", { text: t("match.game_of", { game: game.number, games: table.number_of_games }) })];
  if (table.number_of_games === 2 && state.match) {
    parts.push(el("span", { class: "totals", "data-testid": "match-totals",
      text: t("match.totals", { a: seatName(0), b: seatName(1), x: state.match.totals[0], y: state.match.totals[1] }) }));
  }
  box.replaceChildren(...parts);
}

/** The buttons this person has now, the link to share while a seat is free and the lifecycle block. */
export function renderControls(game, { share, lifecycle }) {
  const table = state.table;
  const seat = mySeat();
  const free = table.seats.some((s) => !s);
  const running = table.state === "playing";
  const show = (id, on) => {
    $(id).hidden = !on;
  };
  show("btn-join", seat === null && free && table.state === "waiting");
  const paired = seat !== null && !!table.tournament; // a tournament's seats stay as paired
  show("btn-watch", seat !== null && !running && !paired);
  show("btn-leave", (!running || seat === null) && !paired);
  $("btn-bot").parentElement.hidden = !(free && table.state === "waiting" && mayManage());
  show("btn-start", seat !== null && !free && table.state === "waiting");
  const asked = seat !== null && table.rematch && table.rematch[seat];
  show("btn-rematch", seat !== null && table.state === "finished" && !free);
  $("btn-rematch").disabled = !!asked;
  $("btn-rematch").textContent = asked ? t("cmd.rematch_asked") : t("cmd.rematch");
  show("btn-summary", !!game && game.over);
  share.update(table, seat);
  lifecycle.update(table, table.lifecycle?.abortable && !everySeatPlayed());
}

/** Whether this person may seat or remove computer players (the server has the last word). */
function mayManage() {
  return mayManageComputers(state.table, state.table?.you?.id ?? state.you?.id);
}

/**
 * Once both seats have played in this match, it can no longer be aborted. The `game` messages do
 * not repeat the table's `lifecycle`, so the page follows the turns: blue and brown alternate, one
 * action each, so a second action in game 1 (or any game 2) means both seats have played.
 */
function everySeatPlayed() {
  const game = currentGame();
  return !!game && (game.number > 1 || game.ply >= 2);
}

// The game's actions in notation, blue's and brown's side by side as in a chess score sheet.
export function renderHistory(game) {
  const list = $("history");
  const moves = game ? game.history : [];
  const rows = [];
  for (let i = 0; i < moves.length; i += 2) {
    rows.push(el("li", {}, el("span", { class: "h-blue", text: moves[i] }), el("span", { class: "h-brown", text: moves[i + 1] ?? "" })));
  }
  list.replaceChildren(...rows);
  list.scrollTop = list.scrollHeight;
}

export function renderSpectators() {
  const list = state.table.spectators || [];
  $("spectators").replaceChildren(
    el("span", { class: "label", text: t("table.spectators", { n: list.length }) }),
    ...list.map((p) => el("span", { class: "chip" }, nameEl(p.name), botBadge(p))),
  );
}

/** The computer levels to choose from, in the page's language; the chosen one stays chosen. */
export function fillLevels() {
  const sel = $("bot-level");
  const keep = sel.value;
  sel.replaceChildren(...state.levels.map((l) => el("option", { value: l.level, text: `${l.level} · ${levelName(l.level, l.name)}` })));
  if (keep) sel.value = keep;
  else if (state.levels.length) sel.value = state.levels[Math.min(1, state.levels.length - 1)].level;
}
