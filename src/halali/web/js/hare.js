// The hare hunt table page. Everything shown comes from the server's `hare` message, built for this
// connection alone: the position as this seat may see it (its own club only), the record, and — to
// the seat to move — the legal actions, from which every control here is made.

import { el, errorText, initPage, levelName, setConnection, setMe, terminationText, toast } from "./common.js";
import { botBadge } from "./challenges.js";
import { Chat } from "./chat.js";
import { CLUB_COLOURS, HareBoard, parseHare } from "./hare-board.js";
import { hareButtons, hareClick, hareMarks } from "./hare-controls.js";
import { hareActionWords } from "./hare-words.js";
import { t } from "./i18n.js";
import { TableLifecycle, mayManageComputers, unbotButton } from "./lifecycle.js";
import { Connection } from "./net.js";
import { ShareBox, startAgainstComputers } from "./share.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");

const state = { you: null, levels: [], table: null, hunt: null, pos: null, selected: null };

const conn = new Connection({
  onOpen(welcome) {
    state.you = welcome.you;
    state.levels = welcome.hare?.levels || [];
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
  send: (text) => conn.send({ type: "chat", table: tableId, text }, showError),
});

const board = new HareBoard($("board-host"), {
  onCell: clickCell,
  onAnnounce: announce,
  onDrag(from, to) {
    const legal = myLegal();
    if (legal.includes(`${from}-${to}`)) send(`${from}-${to}`);
    else clickCell(to);
  },
});

const lifecycle = new TableLifecycle({
  tableId,
  send: (msg, onError) => conn.send(msg, onError),
  seatName: (seat) => seatName(seat),
});

function showError(err) {
  toast(errorText(err), "error");
}

function send(action) {
  const hunt = state.hunt;
  conn.send({ type: "action", action, ply: hunt ? hunt.ply : undefined }, (err) => {
    if (err.key !== "error.stale") showError(err);
  });
}

/** Say something through the live region (a screen reader speaks it; nothing is shown). */
function announce(text) {
  $("announce").textContent = text;
}

/** The actions a new `hare` message adds, in words (the status line speaks for itself). */
function announceHunt(before, hunt) {
  if (!hunt || !before || hunt.ply <= before.ply) return;
  const actor = seatName(parseHare(before.position).toMove ?? 0);
  announce((hunt.actions || []).slice(before.ply).map((a) => hareActionWords(a, actor)).join(" "));
}

function handle(msg) {
  switch (msg.type) {
    case "hare": {
      const before = state.hunt;
      state.table = msg.table;
      state.hunt = msg.hunt;
      state.pos = msg.hunt ? parseHare(msg.hunt.position) : null;
      if (state.selected && !myLegal().some((a) => a.startsWith(state.selected))) state.selected = null;
      chat.history(msg.table.chat || []);
      redraw();
      announceHunt(before, msg.hunt);
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

const mySeat = () => state.table?.you?.seat ?? null;
const myLegal = () => (state.hunt && state.hunt.to_move === mySeat() && mySeat() !== null ? state.hunt.legal : []);

function seatName(i) {
  const s = state.table?.seats?.[i];
  if (!s) return t("hare.free_seat");
  return s.bot ? levelName(s.bot, s.name) : s.name;
}

const clubName = (club) => t(`hare.club.${club}`);

function clickCell(cell) {
  const click = hareClick(myLegal(), state.selected, cell);
  if (click.action) {
    send(click.action);
    return;
  }
  state.selected = click.select;
  redraw();
}

function lastRoll() {
  const acts = state.hunt?.actions || [];
  for (let i = acts.length - 1; i >= 0; i--) {
    const m = /^roll=(\d),(\d)$/.exec(acts[i]);
    if (m) return [m[1], m[2]];
  }
  return null;
}

function statusText() {
  const hunt = state.hunt;
  if (!hunt) return t(state.table?.state === "waiting" ? "hare.status.waiting" : "hare.status.none");
  if (hunt.over) return withTermination(t("hare.status.over"));
  const mover = hunt.to_move;
  if (mover === mySeat()) return t(`hare.status.you.${hunt.phase}`);
  return t("hare.status.other", { name: seatName(mover), phase: t(`hare.phase.${hunt.phase}`) });
}

/** A hunt ended off the board says how: "The hunt is over · by resignation" (the sentence's full stop dropped). */
function withTermination(text) {
  const how = terminationText(state.hunt?.termination);
  return how ? `${text.replace(/[.!]$/, "")} · ${how}` : text;
}

function redraw() {
  const tb = state.table;
  if (!tb) return;
  const pos = state.pos;
  const legal = myLegal();
  const marks = hareMarks(legal, state.selected);
  board.draw(pos, marks);
  $("board-host").dataset.legal = JSON.stringify(legal);
  $("board-host").dataset.ply = state.hunt ? String(state.hunt.ply) : "";
  $("status").textContent = statusText();
  $("status").dataset.phase = state.hunt?.phase || "";

  const roll = pos && (pos.phase === "assign" || pos.phase === "shoot") ? pos.detail.split("/")[0].split(",") : lastRoll();
  $("hare-dice").replaceChildren(...(roll ? [el("span", { text: `${t("hare.dice")}: ` }),
    ...roll.map((d) => el("span", { class: "die", "data-testid": "die", text: d === "0" ? "–" : d }))] : []));

  // Choices that are not a hunter's step or turn: roll, which die counts what, end, bush, removals.
  const buttons = hareButtons(legal, state.selected, send);
  $("hare-actions").replaceChildren(...buttons.general);
  $("hare-hunter-controls").replaceChildren(...buttons.own);

  // Seats: names, clubs once this viewer may know them, who is out, whose turn.
  const manage = mayManageComputers(tb, tb.you?.id ?? state.you?.id);
  const seatsEl = tb.seats.map((s, i) => {
    const info = pos ? pos.seats[i] : null;
    const club = info?.club;
    const li = el("li", { "data-testid": `hare-seat-${i}`, class: [info?.out !== null && info?.out !== undefined ? "out" : "",
      state.hunt?.to_move === i ? "to-move" : ""].join(" ").trim(), "data-club": club || "" },
    club ? el("span", { class: "swatch", style: `background:${CLUB_COLOURS[club]}`, title: clubName(club) }) : el("span", { class: "swatch", text: "?" }),
    el("span", { text: `${i + 1}. ${seatName(i)}${i === mySeat() ? ` (${t("hare.you")})` : ""}` }),
    botBadge(state.table?.seats?.[i]),
    club ? el("span", { class: "chip", text: clubName(club) }) : null,
    info?.out !== null && info?.out !== undefined ? el("span", { class: "chip", text: t("hare.out") }) : null,
    state.hunt?.result && state.hunt.result[i] > 0 ? el("span", { class: "chip", "data-testid": "hare-winner", text: t("hare.winner") }) : null,
    s?.bot && tb.state !== "playing" && manage ? unbotButton(i, (msg) => conn.send({ ...msg, table: tableId }, showError)) : null);
    return li;
  });
  $("hare-seats").replaceChildren(...seatsEl);

  const me = mySeat();
  const myClub = me !== null && pos ? pos.seats[me]?.club : null;
  $("hare-own-club").hidden = !myClub;
  if (myClub) {
    $("hare-own-club").replaceChildren(el("span", { class: "swatch", style: `background:${CLUB_COLOURS[myClub]}` }),
      " ", t("hare.your_club", { club: clubName(myClub) }));
    $("hare-own-club").dataset.club = myClub;
  }
  const res = $("hare-result");
  res.hidden = !state.hunt?.over;
  if (state.hunt?.over) {
    const winners = state.hunt.result.map((r, i) => (r > 0 ? seatName(i) : null)).filter(Boolean);
    res.replaceChildren(withTermination(t("hare.result", { winners: winners.join(", ") })), " ",
      state.hunt.replay ? el("a", { href: state.hunt.replay, "data-testid": "hare-replay-link", text: t("games.replay") }) : "");
  }

  const seated = me !== null;
  const waiting = tb.state !== "playing";
  $("btn-join").hidden = seated || !waiting || !tb.seats.some((s) => s === null);
  $("btn-watch").hidden = !seated || !waiting;
  $("btn-leave").hidden = !waiting;
  $("btn-start").hidden = !waiting || tb.seats.some((s) => s === null);
  $("bot-level").closest(".bot-add").hidden = !waiting || !tb.seats.some((s) => s === null) || !manage;
  const opts = [t("hare.seats_count", { n: tb.seats.length }), t(tb.rated ? "games.rated" : "games.unrated")];
  if (tb.rules?.bush === "off") opts.push(t("hare.rule.no_bush"));
  if (tb.rules?.overshoot === "target") opts.push(t("hare.rule.overshoot_target"));
  $("rules-info").replaceChildren(...opts.map((o) => el("span", { class: "chip", text: o })));
  $("history").replaceChildren(...(state.hunt?.actions || []).map((a) => el("li", { text: a })));
  share.update(tb, me);
  lifecycle.update(tb);
}

function fillLevels() {
  const sel = $("bot-level");
  const keep = sel.value;
  sel.replaceChildren(...state.levels.map((l) => el("option", { value: l.level, text: `${l.level} · ${levelName(l.level, l.name)}` })));
  if (keep) sel.value = keep;
  else if (state.levels.length) sel.value = state.levels[Math.min(1, state.levels.length - 1)].level;
}

const share = new ShareBox($("controls"));

// Chat -------------------------------------------------------------------------------------------

$("controls").addEventListener("click", (e) => {
  const b = e.target.closest("button[data-cmd]");
  if (!b) return;
  const msg = { type: b.dataset.cmd, table: tableId };
  if (b.dataset.cmd === "bot") msg.level = Number($("bot-level").value);
  conn.send(msg, showError);
});

await initPage(() => {
  fillLevels();
  redraw();
  chat.retranslate();
  lifecycle.retranslate();
});
conn.connect();
