// The hare hunt table page. Everything shown comes from the server's `hare` message, built for this
// connection alone: the position as this seat may see it (its own club only), the record with who
// played each action and what it brought about, and — to the seat to move — the legal actions, from
// which every choice here is made: cells, hunters and turns on the board, the rest in its tray.

import { computerName, el, errorText, initPage, levelName, nameText, setConnection, setMe, terminationText, toast } from "./common.js";
import { botBadge } from "./challenges.js";
import { Chat } from "./chat.js";
import { HareBoard, parseHare } from "./hare-board.js";
import { renderMoves, renderOwnClub, renderResult, renderSeats, renderTray, shownDice, winnersText } from "./hare-panels.js";
import { huntItems } from "./hare-words.js";
import { t } from "./i18n.js";
import { TableLifecycle, mayManageComputers, unbotButton } from "./lifecycle.js";
import { Connection } from "./net.js";
import { ShareBox, startAgainstComputers } from "./share.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const HUNTER_ACTION = /^([a-k](?:1[01]|[1-9]))[->]/;

// ``follow``: the cell a hunter of this person's just stepped to, chosen again once it arrives.
const state = { you: null, levels: [], table: null, hunt: null, pos: null, selected: null, follow: null, waiting: false };

const conn = new Connection({
  onOpen(welcome) {
    state.you = welcome.you;
    state.levels = welcome.hare?.levels || [];
    state.waiting = false;
    setMe(welcome.you);
    fillLevels();
    chat.reconnected();
    conn.openTable(tableId, showError);
    const params = new URLSearchParams(location.search);
    const intent = params.get("do");
    if (intent === "join" || intent === "start") conn.send({ type: intent, table: tableId }, showError);
    if (intent === "computer") startAgainstComputers(params, (msg) => conn.send({ ...msg, table: tableId }, showError));
    if (intent) history.replaceState(null, "", location.pathname);
  },
  onMessage: handle,
  onStatus: setConnection,
});

const chat = new Chat({
  log: $("chat-log"),
  form: $("chat-form"),
  input: $("chat-input"),
  send: (text, onError) => conn.send({ type: "chat", table: tableId, text }, onError),
  showError,
});

const board = new HareBoard($("board-host"), {
  onCell: clickCell,
  onTurn: (action) => myLegal().includes(action) && send(action),
  onAnnounce: announce,
  onDrag(from, to) {
    if (myLegal().includes(`${from}-${to}`)) send(`${from}-${to}`);
    else clickCell(to);
  },
});

const lifecycle = new TableLifecycle({
  tableId,
  send: (msg, onError) => conn.send(msg, onError),
  seatName: (seat) => seatName(seat),
});

const share = new ShareBox($("controls"));

function showError(err) {
  toast(errorText(err), "error");
}

/** Send an action; the board takes no more input until the server answers (no double sends). */
function send(action) {
  if (state.waiting) return;
  const hunt = state.hunt;
  const m = /^[a-k](?:1[01]|[1-9])-([a-k](?:1[01]|[1-9]))$/.exec(action);
  state.follow = m ? m[1] : HUNTER_ACTION.test(action) ? action.split(">")[0] : null;
  state.waiting = true;
  conn.send({ type: "action", action, ply: hunt ? hunt.ply : undefined }, (err) => {
    state.waiting = false;
    if (err.key !== "error.stale") showError(err);
  });
}

/** Say something through the live region (a screen reader speaks it; nothing is shown). */
function announce(text) {
  $("announce").textContent = text;
}

function handle(msg) {
  switch (msg.type) {
    case "hare": {
      const moved = msg.hunt && state.hunt && msg.hunt.ply !== state.hunt.ply;
      const began = msg.hunt && !msg.hunt.over && (!state.hunt || state.hunt.over);
      state.table = msg.table;
      state.hunt = msg.hunt;
      state.pos = msg.hunt ? parseHare(msg.hunt.position) : null;
      if (moved || !msg.hunt) state.waiting = false;
      chooseAgain(moved);
      chat.history(msg.table.chat || []);
      redraw();
      // A hunt began: on a phone the person may have scrolled down to Start, so the board (which
      // fits the window) comes into view whole; where it is in view already nothing moves.
      if (began) $("board-frame").scrollIntoView({ block: "nearest" });
      break;
    }
    case "chat":
      if (msg.line && (msg.table === undefined || msg.table === tableId)) chat.add(msg.line);
      break;
    case "confirm":
      lifecycle.confirm(msg);
      break;
    case "left":
      location.href = "/";
      break;
    case "you":
      state.you = msg.you;
      setMe(msg.you);
      break;
    case "error":
      if (msg.ref === undefined) showError(msg);
      break;
    default:
  }
}

/** After a new position: keep the chosen hunter (or the one just moved) while it may still act. */
function chooseAgain(moved) {
  const legal = myLegal();
  const acts = (cell) => cell && legal.some((a) => a.startsWith(`${cell}-`) || a.startsWith(`${cell}>`));
  if (moved && acts(state.follow)) {
    state.selected = state.follow;
    if (board.svg.contains(document.activeElement)) board.keys.moveTo(state.selected);
  } else if (!acts(state.selected)) {
    state.selected = null;
  }
  if (moved) state.follow = null;
}

const mySeat = () => state.table?.you?.seat ?? null;
const myLegal = () => (state.hunt && state.hunt.to_move === mySeat() && mySeat() !== null ? state.hunt.legal : []);

function seatName(i) {
  const s = state.table?.seats?.[i];
  if (!s) return t("hare.free_seat");
  return s.bot ? computerName(s.bot, s.name, s.number) : nameText(s.name);
}

function clickCell(cell) {
  const legal = myLegal();
  for (const action of [`bush=${cell}`, `x${cell}`, state.selected ? `${state.selected}-${cell}` : null]) {
    if (action && legal.includes(action)) {
      send(action);
      return;
    }
  }
  const acts = legal.some((a) => a.startsWith(`${cell}-`) || a.startsWith(`${cell}>`));
  state.selected = acts && state.selected !== cell ? cell : null;
  redraw();
}

/** The status line, true at every moment: who is to do what, or why nothing happens yet. */
function statusText() {
  const hunt = state.hunt;
  const tb = state.table;
  if (hunt?.over) return withTermination(winnersText(hunt, state.pos, seatName));
  if (hunt && hunt.to_move !== null) {
    if (hunt.to_move === mySeat()) return t(`hare.status.you.${hunt.phase}`);
    return t("hare.status.other", { name: seatName(hunt.to_move) });
  }
  const free = tb.seats.filter((s) => !s).length;
  if (free) return t("hare.status.waiting_seats", { n: free });
  return t(mayStart() ? "hare.status.ready_start" : "hare.status.ready_wait");
}

/** A hunt ended off the board says how: "… · by resignation" (the sentence's full stop dropped). */
function withTermination(text) {
  const how = terminationText(state.hunt?.termination);
  return how ? `${text.replace(/[.!]$/, "")} · ${how}` : text;
}

/** Whether this person may start a hunt now (the server's rule: seated, or a table of computers only). */
function mayStart() {
  const tb = state.table;
  if (!tb || tb.tournament || tb.seats.some((s) => !s)) return false;
  if (tb.state !== "waiting" && tb.state !== "finished") return false;
  return mySeat() !== null || tb.seats.every((s) => s && s.bot);
}

/** The hunter cells the seat to move may choose, the chosen one's targets, its turns, the lines of fire. */
function boardMarks(legal) {
  const marks = {};
  const mark = (c, m) => (marks[c] ||= []).push(m);
  for (const a of legal) {
    let m;
    if ((m = /^bush=(.+)$/.exec(a))) mark(m[1], "target");
    else if ((m = /^x(.+)$/.exec(a))) mark(m[1], "removable");
    else if ((m = HUNTER_ACTION.exec(a))) mark(m[1], "movable");
  }
  const turns = [];
  if (state.selected) {
    mark(state.selected, "selected");
    for (const a of legal) {
      if (a.startsWith(`${state.selected}-`)) mark(a.split("-")[1], "target");
      if (a.startsWith(`${state.selected}>`)) turns.push({ cell: state.selected, dir: a.split(">")[1], action: a });
    }
  }
  return { marks, turns };
}

/** The hunters aiming, from the action that ended the movement, while the shot is due or resolved. */
function fireLines() {
  const hunt = state.hunt;
  if (!hunt || !["aim", "shoot"].includes(hunt.phase)) return [];
  for (let i = hunt.actions.length - 1; i >= 0; i--) {
    const ev = hunt.events?.[String(i)];
    if (ev?.aim) return ev.aim.filter((c) => state.pos.hunters.some((h) => h.cell === c));
  }
  return [];
}

const told = new Map(); // the actions' words already made (huntItems)

function redraw(redo = false) {
  const tb = state.table;
  if (!tb) return;
  const pos = state.pos;
  const hunt = state.hunt;
  const legal = myLegal();
  const { marks, turns } = boardMarks(legal);
  board.draw(pos, marks, { turns, fire: fireLines() });
  $("board-host").dataset.legal = JSON.stringify(legal);
  $("board-host").dataset.ply = hunt ? String(hunt.ply) : "";
  const status = statusText();
  if ($("status").textContent !== status) $("status").textContent = status;
  $("status").dataset.phase = hunt?.phase || "";
  $("status").dataset.kind = hunt && !hunt.over && hunt.to_move === mySeat() ? "mine" : "";

  const tray = legal.filter((a) => !HUNTER_ACTION.test(a) && !a.startsWith("bush=") && !a.startsWith("x"));
  const own = state.selected ? legal.filter((a) => a.startsWith(`${state.selected}>`)) : [];
  const facing = pos?.hunters.find((h) => h.cell === state.selected)?.dir ?? null;
  renderTray({ dice: shownDice(pos, hunt?.actions), actions: [...own, ...tray], phase: hunt?.phase, send, board, facing });

  const me = mySeat();
  const manage = mayManageComputers(tb, tb.you?.id ?? state.you?.id);
  renderSeats({ table: tb, hunt, pos, me, seatName, extra: (s, i) => [botBadge(s),
    s?.bot && tb.state !== "playing" && manage ? unbotButton(i, (msg) => conn.send({ ...msg, table: tableId }, showError)) : null] });
  renderOwnClub(me !== null && pos && !hunt?.over ? pos.seats[me]?.club : null);
  renderResult({ hunt, pos, seatName, termination: terminationText(hunt?.termination) });
  renderControls(manage);
  const opts = [t("hare.seats_count", { n: tb.seats.length }), t(tb.rated ? "games.rated" : "games.unrated")];
  if (tb.rules?.bush === "off") opts.push(t("hare.rule.no_bush"));
  if (tb.rules?.overshoot === "target") opts.push(t("hare.rule.overshoot_target"));
  $("rules-info").replaceChildren(...opts.map((o) => el("span", { class: "chip", text: o })));

  const items = hunt ? huntItems(hunt, { seatName, clubOf: (i) => pos?.seats[i]?.club }, told) : [];
  renderMoves(items, redo);
  chat.setActions(tb.match_number, items, { redo });
  share.update(tb, me);
  lifecycle.update(tb);
}

/** Only the buttons this person may use now. */
function renderControls(manage) {
  const tb = state.table;
  const seated = mySeat() !== null;
  const free = tb.seats.some((s) => !s);
  const running = tb.state === "playing";
  const tournament = !!tb.tournament;
  $("btn-join").hidden = seated || tb.state !== "waiting" || !free || tournament;
  $("btn-watch").hidden = !seated || running || tournament;
  $("btn-leave").hidden = !seated || running || tournament;
  $("bot-level").closest(".bot-add").hidden = tb.state !== "waiting" || !free || !manage;
  $("btn-start").hidden = !mayStart();
  $("btn-start").textContent = t(tb.state === "finished" ? "hare.again" : "cmd.start");
}

function fillLevels() {
  const sel = $("bot-level");
  const keep = sel.value;
  sel.replaceChildren(...state.levels.map((l) => el("option", { value: l.level, text: `${l.level} · ${levelName(l.level, l.name)}` })));
  if (keep) sel.value = keep;
  else if (state.levels.length) sel.value = state.levels[Math.min(1, state.levels.length - 1)].level;
}

$("controls").addEventListener("click", (e) => {
  const b = e.target.closest("button[data-cmd]");
  if (!b) return;
  const msg = { type: b.dataset.cmd, table: tableId };
  if (b.dataset.cmd === "bot") msg.level = Number($("bot-level").value);
  conn.send(msg, showError);
});

await initPage(() => {
  fillLevels();
  $("hare-actions").dataset.key = "";
  $("hare-dice").dataset.dice = "";
  redraw(true);
  chat.retranslate();
  lifecycle.retranslate();
});
conn.connect();
