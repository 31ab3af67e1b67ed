// The table page: the board, both players with their scores and piles, the match, the controls,
// the chat and the end-of-game summary. Everything shown comes from the server's `table` and
// `game` messages; the page keeps no state the server would not send again after a reload.

import { Board } from "./board.js";
import { Chat } from "./chat.js";
import { links } from "./api.js";
import { botBadge } from "./challenges.js";
import {
  colourName, el, errorText, initPage, levelName, ruleSummary, setConnection, setMe, tableKind, terminationText,
  toast,
} from "./common.js";
import { DIRS, finalTurns, isFaceDown, parsePosition } from "./forest.js";
import { t } from "./i18n.js";
import { TableLifecycle, mayManageComputers, unbotButton } from "./lifecycle.js";
import { Connection } from "./net.js";
import { pileIcons } from "./piles.js";
import { ShareBox, startAgainstComputers } from "./share.js";
import { Summary } from "./summary.js";
import { hideTileHint, showTileHint } from "./tile-hint.js";
import { showClocks } from "./clocks.js";
import { actionWords, notationBox } from "./words.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const params = new URLSearchParams(location.search);

const state = {
  you: null,
  levels: [],
  table: null,
  games: [],
  match: null,
  explainTimer: null,
  clockAt: 0, // performance.now() when the current game's clock values arrived
  hint: null, // the engine's suggestion {match, game, ply, action}, shown while that position is on the board
  hintAsked: null, // positionKey() of a hint on its way
};

const conn = new Connection({
  onOpen(welcome) {
    state.you = welcome.you;
    state.levels = welcome.levels || [];
    setMe(welcome.you);
    fillLevels();
    chat.reconnected();
    conn.openTable(tableId, (err) => {
      $("status").textContent = errorText(err);
      toast(errorText(err), "error");
    });
    const intent = params.get("do");
    if (intent === "join" || intent === "start") conn.send({ type: intent }, showError);
    if (intent === "computer") startAgainstComputers(params, (msg) => conn.send(msg, showError));
    if (intent) history.replaceState(null, "", location.pathname);
  },
  onMessage: handle,
  onStatus: setConnection,
});

const chat = new Chat({
  log: $("chat-log"),
  form: $("chat-form"),
  input: $("chat-input"),
  send: (text) => conn.send({ type: "chat", text }, showError),
});

const board = new Board($("board-host"), {
  onAction(action) {
    const game = currentGame();
    const sent = conn.send({ type: "action", action, ply: game ? game.ply : undefined }, (err) => {
      board.refused();
      // A stale ply means the page is about to get the newer position anyway.
      if (err.key !== "error.stale") explainError(err);
      redraw(false);
    });
    if (!sent) {
      board.refused();
      redraw(false);
      toast(t("conn.offline"), "error");
    }
  },
  onIllegal(from, to) {
    explainAttempt(from, to);
  },
  onHint: showTileHint,
  onHintEnd: hideTileHint,
  onAnnounce: announce,
});

/** Say something through the live region (a screen reader speaks it; nothing is shown). */
function announce(text) {
  $("announce").textContent = text;
}

/**
 * The action a new `game` message brings, in words. Whose turn it is and the result are the status
 * line's, itself a live region, so nothing is said twice.
 */
function announceGame(before, game) {
  if (before && game.ply === before.ply + 1 && game.last_action) {
    const side = parsePosition(before.position).turn;
    announce(actionWords(game.last_action, side, parsePosition(before.position), parsePosition(game.position)));
  }
}

notationBox($("notation-form"), $("notation-input"), {
  legal: () => {
    const game = currentGame();
    return game && mySeat() !== null && game.seat_to_move === mySeat() && !game.over ? game.legal : [];
  },
  play: (action) => board.send(action),
  tryAction: (text) => explainAttempt(null, null, text),
  onBad: () => showExplain(t("kb.not_notation"), "kb.not_notation"),
});

const share = new ShareBox($("controls"));
const summary = new Summary({ state, seatName: (seat) => seatName(seat), mySeat: () => mySeat(), chatLines: () => chat.lines() });

const lifecycle = new TableLifecycle({
  tableId,
  send: (msg, onError) => conn.send(msg, onError),
  seatName: (seat) => seatName(seat),
});

function showError(err) {
  toast(errorText(err), "error");
}

function currentGame() {
  return state.games.length ? state.games[state.games.length - 1] : null;
}

function mySeat() {
  return state.table?.you?.seat ?? null;
}

function handle(msg) {
  switch (msg.type) {
    case "table":
      state.table = msg.table;
      state.games = msg.games || [];
      state.match = msg.match || null;
      state.clockAt = performance.now();
      chat.history(msg.table.chat || []);
      redraw(false);
      summary.maybe(true);
      break;
    case "game": {
      if (msg.table !== tableId) return;
      const g = msg.game;
      const before = state.games[g.number - 1];
      state.games[g.number - 1] = g;
      state.games.length = Math.max(state.games.length, g.number);
      state.match = msg.match;
      state.clockAt = performance.now();
      if (state.table && state.table.state === "waiting") state.table.state = "playing";
      redraw(!before || before.ply < g.ply);
      announceGame(before, g);
      summary.maybe(false);
      break;
    }
    case "chat":
      if (msg.table !== tableId) return;
      chat.add(msg.line);
      if (msg.line.key === "chat.rating") summary.ratingArrived();
      break;
    case "confirm":
      lifecycle.confirm(msg);
      break;
    case "hint":
      if (msg.table !== tableId) return;
      state.hint = { match: msg.match, game: msg.game, ply: msg.ply, action: msg.action };
      state.hintAsked = null;
      redraw(false);
      break;
    case "you":
      state.you = msg.you;
      setMe(msg.you);
      break;
    case "left":
      location.href = "/";
      break;
    case "error":
      if (msg.ref === undefined) toast(errorText(msg), "error");
      else if (!["error.illegal", "error.stale", "error.not_your_turn"].includes(msg.key)) showError(msg);
      break;
    default:
  }
}

function redraw(animate) {
  const table = state.table;
  if (!table) return;
  const game = currentGame();
  const seat = mySeat();
  if (game) {
    const running = table.state === "playing" && !game.over;
    const mine = seat !== null && running && game.seat_to_move === seat;
    board.update({
      position: parsePosition(game.position),
      positionText: game.position,
      legal: mine ? game.legal : [],
      interactive: seat !== null && running,
      lastAction: game.last_action,
      ply: game.ply,
      animate,
    });
    board.suggest(mine ? hintFor(game) : null);
  } else {
    board.update({ position: parsePosition("???????/???????/???????/???1???/???????/???????/??????? blue - - - - 0 - -"), ply: 0 });
    board.suggest(null);
  }
  renderStatus(game);
  const canPass = !!game && seat !== null && table.state === "playing" && !game.over
    && game.seat_to_move === seat && game.legal.includes("pass");
  $("btn-pass").hidden = !canPass;
  renderHint(game);
  renderPlayers(game);
  renderMatch(game);
  renderControls(game);
  renderSpectators();
  renderHistory(game);
  $("rules-info").replaceChildren(...tableKind(table).map((r) => el("span", { class: "chip kind", text: r })),
    ...ruleSummary(table.rules).map((r) => el("span", { class: "chip", text: r })));
  $("link-table-games").href = links.history({ table: tableId });
  tickClocks();
  document.body.dataset.state = table.state;
}

// Hints: the engine's action for this turn, in a match against the computer that is not rated
// (the server decides, `you.hints`, and checks again when asked).

/** Which position of which match: a rematch repeats game numbers and plies. */
function positionKey(game) {
  return `${state.table.match_number}:${game.number}:${game.ply}`;
}

function hintFor(game) {
  const h = state.hint;
  return h && `${h.match}:${h.game}:${h.ply}` === positionKey(game) ? h.action : null;
}

function renderHint(game) {
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

$("btn-hint").addEventListener("click", () => {
  const game = currentGame();
  if (!game) return;
  state.hintAsked = positionKey(game);
  renderHint(game);
  const sent = conn.send({ type: "hint" }, () => {
    state.hintAsked = null; // the refusal itself is shown with every other error (handle)
    redraw(false);
  });
  if (!sent) {
    state.hintAsked = null;
    renderHint(game);
    toast(t("conn.offline"), "error");
  }
});

function seatName(seat) {
  const s = state.table?.seats[seat];
  if (!s) return t("seat.free");
  return s.bot ? t("seat.bot_name", { name: levelName(s.bot, s.name), level: s.bot }) : s.name;
}

function renderStatus(game) {
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

function renderPlayers(game) {
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
      el("span", { class: `dot ${s && s.online ? "on" : "off"}` }), seatName(seat), botBadge(s),
      mySeat() === seat ? el("span", { class: "you-tag", text: t("seat.you") }) : null);
    const head = el("div", { class: "player-head" }, name,
      el("span", { class: `colour-chip ${colour}`, text: colourName(colour) }));
    const parts = [head];
    if (s && s.bot && table.state !== "playing" && mayManage()) {
      parts.push(unbotButton(seat, (msg) => conn.send(msg, showError)));
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

// Clocks: clocks.js ---------------------------------------------------------------------------

function tickClocks() {
  showClocks(currentGame(), state.table, state.clockAt);
}

setInterval(tickClocks, 100);

function renderMatch(game) {
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

function renderControls(game) {
  const table = state.table;
  const seat = mySeat();
  const free = table.seats.some((s) => !s);
  const running = table.state === "playing";
  const show = (id, on) => {
    $(id).hidden = !on;
  };
  show("btn-join", seat === null && free && table.state === "waiting");
  show("btn-watch", seat !== null && !running);
  show("btn-leave", !running || seat === null);
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
function renderHistory(game) {
  const list = $("history");
  const moves = game ? game.history : [];
  const rows = [];
  for (let i = 0; i < moves.length; i += 2) {
    rows.push(el("li", {}, el("span", { class: "h-blue", text: moves[i] }), el("span", { class: "h-brown", text: moves[i + 1] ?? "" })));
  }
  list.replaceChildren(...rows);
  list.scrollTop = list.scrollHeight;
}

function renderSpectators() {
  const list = state.table.spectators || [];
  $("spectators").replaceChildren(
    el("span", { class: "label", text: t("table.spectators", { n: list.length }) }),
    ...list.map((p) => el("span", { class: "chip" }, p.name, botBadge(p))),
  );
}

function fillLevels() {
  const sel = $("bot-level");
  const keep = sel.value;
  sel.replaceChildren(...state.levels.map((l) => el("option", { value: l.level, text: `${l.level} · ${levelName(l.level, l.name)}` })));
  if (keep) sel.value = keep;
  else if (state.levels.length) sel.value = state.levels[Math.min(1, state.levels.length - 1)].level;
}

// Controls -----------------------------------------------------------------------------------

$("btn-pass").addEventListener("click", () => {
  const game = currentGame();
  $("btn-pass").hidden = true;
  conn.send({ type: "action", action: "pass", ply: game ? game.ply : undefined }, (err) => {
    explainError(err);
    redraw(false);
  });
});

$("controls").addEventListener("click", (e) => {
  const b = e.target.closest("button[data-cmd]");
  if (!b) return;
  const cmd = b.dataset.cmd;
  if (cmd === "summary") return summary.show(currentGame(), true);
  if (cmd === "bot") return conn.send({ type: "bot", level: Number($("bot-level").value) }, showError);
  conn.send({ type: cmd }, showError);
});

// Explanations and hints ----------------------------------------------------------------------

/**
 * A drop (or tap) the legal list does not hold: the tile is already back; now say why. Only the
 * state of the table is judged here; the rules are the server's, so the attempt is sent as a normal
 * action and the `error.illegal` reply carries the engine's rule key. Sending it is harmless: an
 * illegal action changes nothing, and `ply` makes it stale once the position has moved on.
 */
function explainAttempt(from, to, typed = null) {
  const game = currentGame();
  const seat = mySeat();
  const say = (key) => showExplain(t(key), key);
  if (!game || state.table.state !== "playing") return say("explain.not_started");
  if (game.over) return say("explain.game_over");
  if (seat === null) return say("explain.spectator");
  if (game.seat_to_move !== seat) return say("explain.not_your_turn");
  if (from === to && !typed) return;
  const action = typed ?? attemptText(parsePosition(game.position), from, to);
  const asked = { number: game.number, ply: game.ply };
  const sent = conn.send({ type: "action", action, ply: game.ply }, (err) => {
    const now = currentGame();
    // A reply about a position that is gone would explain the wrong board.
    if (err.key === "error.stale" || !now || now.number !== asked.number || now.ply !== asked.ply) return;
    explainError(err);
  });
  if (!sent) toast(t("conn.offline"), "error");
}

/** The attempt in notation: ``d5-N`` to an exit, ``c3xc6`` onto a face-up tile, else ``c3-c6``. */
function attemptText(pos, from, to) {
  if (to === null) return `?${from}`;
  if (DIRS.includes(to)) return `${from}-${to}`;
  const target = pos.board[to];
  return target && !isFaceDown(target) ? `${from}x${to}` : `${from}-${to}`;
}

/** A refused action's reason; the rule's key (or the error's) stays on the box for tools and tests. */
function explainError(err) {
  showExplain(errorText(err), err.params?.rule ?? err.key);
}

function showExplain(text, key = "") {
  const box = $("explain");
  box.textContent = text;
  box.dataset.key = key;
  box.hidden = false;
  clearTimeout(state.explainTimer);
  state.explainTimer = setTimeout(() => {
    box.hidden = true;
  }, 5000);
}

// End of game / match: summary.js ---------------------------------------------------------------

$("summary-rematch").addEventListener("click", () => {
  conn.send({ type: "rematch" }, showError);
  $("summary").hidden = true;
});

await initPage(() => {
  board.retranslate();
  fillLevels();
  redraw(false);
  chat.retranslate();
  lifecycle.retranslate();
  if (!$("summary").hidden) summary.show(currentGame(), false);
});
conn.connect();
