// The table page: the board, both players with their scores and piles, the match, the controls,
// the chat and the end-of-game summary. Everything shown comes from the server's `table` and
// `game` messages; the page keeps no state the server would not send again after a reload. This
// module holds the connection and what each message changes; the parts it redraws are
// table-status.js, table-panels.js and table-hints.js, and table-explain.js answers a refused move.

import { Board } from "./board.js";
import { Chat } from "./chat.js";
import { links } from "./api.js";
import { el, errorText, initPage, ruleSummary, setConnection, setMe, tableKind, toast } from "./common.js";
import { parsePosition } from "./forest.js";
import { t } from "./i18n.js";
import { TableLifecycle } from "./lifecycle.js";
import { Connection } from "./net.js";
import { ShareBox, startAgainstComputers } from "./share.js";
import { Summary } from "./summary.js";
import { Explanations } from "./table-explain.js";
import { askHint, hintArrived, hintFor, renderHint } from "./table-hints.js";
import { fillLevels, renderControls, renderHistory, renderMatch, renderPlayers, renderSpectators } from "./table-panels.js";
import { currentGame, mySeat, seatName, state, tableId } from "./table-state.js";
import { nearEndWords, renderStatus } from "./table-status.js";
import { hideTileHint, showTileHint } from "./tile-hint.js";
import { showClocks } from "./clocks.js";
import { actionWords, notationBox } from "./words.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const params = new URLSearchParams(location.search);

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
  send: (text, onError) => conn.send({ type: "chat", text }, onError),
  showError,
});

const explain = new Explanations((msg, onError) => conn.send(msg, onError));

const board = new Board($("board-host"), {
  onAction(action) {
    const game = currentGame();
    conn.send({ type: "action", action, ply: game ? game.ply : undefined }, (err) => {
      board.refused();
      // A stale ply means the page is about to get the newer position anyway.
      if (err.key !== "error.stale") explain.error(err);
      redraw(false);
    });
  },
  onIllegal(from, to) {
    explain.attempt(from, to);
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
 * What a new `game` message brings, in one sentence for the live region, the page's one voice for the
 * game: the action in words, the final phase's turns or the stall count near its limit, and "Your
 * turn." The status line shows the same but is not read out, and the result is the summary dialog's,
 * so nothing is said twice.
 */
function announceGame(before, game) {
  const fresh = !before || before.ply !== game.ply || before.over !== game.over;
  if (!fresh) return;
  const parts = [];
  if (before && game.ply === before.ply + 1 && game.last_action) {
    const side = parsePosition(before.position).turn;
    parts.push(actionWords(game.last_action, side, parsePosition(before.position), parsePosition(game.position)));
  }
  parts.push(...nearEndWords(before, game));
  const seat = mySeat();
  if (!game.over && seat !== null && game.seat_to_move === seat && state.table?.state === "playing") parts.push(t("say.your_turn"));
  if (parts.length) announce(parts.join(" "));
}

/**
 * A game began, or the control that had the focus went away with the start (Start, the seat
 * buttons): the focus goes to the board, so the first key plays rather than 12 Tabs.
 */
function focusBoard(started) {
  if (summary.open || mySeat() === null) return;
  const active = document.activeElement;
  const lost = !active || active === document.body || !active.getClientRects().length;
  if (started ? lost || active.closest(".controls") : lost) board.tabStop()?.focus();
}

notationBox($("notation-form"), $("notation-input"), {
  legal: () => {
    const game = currentGame();
    return game && mySeat() !== null && game.seat_to_move === mySeat() && !game.over ? game.legal : [];
  },
  play: (action) => board.send(action),
  tryAction: (text) => explain.attempt(null, null, text),
  onBad: () => explain.show(t("kb.not_notation"), "kb.not_notation"),
});

const share = new ShareBox($("controls"));
const summary = new Summary({ state, seatName: (seat) => seatName(seat), mySeat: () => mySeat(), chatLines: () => chat.lines(),
  boardFocus: () => board.tabStop() });

const lifecycle = new TableLifecycle({
  tableId,
  send: (msg, onError) => conn.send(msg, onError),
  seatName: (seat) => seatName(seat),
});

function showError(err) {
  toast(errorText(err), "error");
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
      announceGame(before, g); // before the status line changes: what happened, then whose turn
      redraw(!before || before.ply < g.ply);
      summary.maybe(false);
      if (!g.over) focusBoard(!before);
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
      hintArrived(msg);
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
      over: game.over,
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
  renderPlayers(game, (msg) => conn.send(msg, showError));
  renderMatch(game);
  renderControls(game, { share, lifecycle });
  renderSpectators();
  renderHistory(game);
  $("rules-info").replaceChildren(...tableKind(table).map((r) => el("span", { class: "chip kind", text: r })),
    ...ruleSummary(table.rules).map((r) => el("span", { class: "chip", text: r })));
  $("link-table-games").href = links.history({ table: tableId });
  tickClocks();
  document.body.dataset.state = table.state;
}

// Clocks: clocks.js ---------------------------------------------------------------------------

function tickClocks() {
  showClocks(currentGame(), state.table, state.clockAt);
}

setInterval(tickClocks, 100);

// Controls -----------------------------------------------------------------------------------

$("btn-hint").addEventListener("click", () => askHint((msg, onError) => conn.send(msg, onError), redraw));

$("btn-pass").addEventListener("click", () => {
  const game = currentGame();
  $("btn-pass").hidden = true;
  conn.send({ type: "action", action: "pass", ply: game ? game.ply : undefined }, (err) => {
    explain.error(err);
    redraw(false);
  });
});

$("controls").addEventListener("click", (e) => {
  const b = e.target.closest("button[data-cmd]");
  if (!b) return;
  const cmd = b.dataset.cmd;
  if (cmd === "summary") return summary.show(currentGame());
  if (cmd === "bot") return conn.send({ type: "bot", level: Number($("bot-level").value) }, showError);
  conn.send({ type: cmd }, showError);
});

// End of game / match: summary.js ---------------------------------------------------------------

$("summary-rematch").addEventListener("click", () => {
  conn.send({ type: "rematch" }, showError);
  summary.hide();
});

await initPage(() => {
  board.retranslate();
  fillLevels();
  redraw(false);
  chat.retranslate();
  lifecycle.retranslate();
  if (summary.open) summary.show(currentGame());
});
conn.connect();
