// The lobby: tables with their rules, seats and spectators, a form for a new table, the name of
// this guest and who is online. It redraws from the server's `lobby` messages alone.

import { links } from "./api.js";
import { botBadge, challengeList } from "./challenges.js";
import { chosenClock, fillClockOptions, isCustom } from "./clock-choice.js";
import { computerName, el, errorText, initPage, levelName, nameEl, nameProblem, nameText, ruleSummary, setConnection, setMe, tableKind, toast,
  watchNameLength } from "./common.js";
import { showDaily } from "./daily.js";
import { formatDate } from "./people.js";
import { t } from "./i18n.js";
import { mayManageComputers } from "./lifecycle.js";
import { Connection } from "./net.js";
import { loadCards, startTicking, tournamentCard } from "./tournament-cards.js";

const $ = (id) => document.querySelector(`[data-testid="${id}"]`);
const state = { you: null, levels: [], tables: new Map(), online: [], defaults: null, myTurn: [], intent: "", renaming: false };

const conn = new Connection({
  onOpen(welcome) {
    state.you = welcome.you;
    state.levels = welcome.levels || [];
    state.hareLevels = welcome.hare?.levels || [];
    state.defaults = welcome.rules?.defaults || null;
    setMe(welcome.you);
    fillName();
    fillQuickLevels();
    conn.send({ type: "lobby" });
    loadTournaments();
  },
  onMessage: (msg) => challenges(msg) || handle(msg),
  onStatus: setConnection,
});
const challenges = challengeList($("challenges-panel"), conn, () => state.you);

function handle(msg) {
  switch (msg.type) {
    case "lobby":
      state.tables = new Map(msg.tables.map((tb) => [tb.id, tb]));
      state.online = msg.online || [];
      render();
      break;
    case "lobby_table":
      state.tables.set(msg.table.id, msg.table);
      render();
      break;
    case "lobby_remove":
      state.tables.delete(msg.id);
      render();
      break;
    case "online":
      state.online = msg.online || [];
      renderOnline();
      break;
    case "my_turn":
      state.myTurn = msg.tables || [];
      renderMyTurn();
      break;
    case "created":
      // A one-click game goes on at its table: computers to seat, the start (see quickStart).
      location.href = `/table/${encodeURIComponent(msg.table)}${state.intent}`;
      break;
    case "you":
      state.you = msg.you;
      setMe(msg.you);
      fillName();
      if (state.renaming) {
        // Said beside the field that asked, where the next error will replace it.
        state.renaming = false;
        $("name-saved").textContent = t("lobby.name_saved", { name: msg.you.name });
      }
      break;
    case "tournament_game": // a round began (net.js shows the banner): its tournament is running now
      loadTournaments();
      break;
    case "error":
      if (msg.ref === undefined) toast(errorText(msg), "error");
      break;
    default:
  }
}

function fillName() {
  const input = $("name-input");
  if (document.activeElement !== input) input.value = state.you?.name || "";
}

function mySeat(table) {
  return table.seats.findIndex((s) => s && state.you && s.id === state.you.id);
}

function seatLabel(s) {
  if (!s) return el("span", { class: "seat free", text: t("seat.free") });
  const name = s.bot ? computerName(s.bot, s.name, s.number) : s.name;
  return el("span", { class: `seat ${s.bot ? "bot" : ""}` }, el("span", { class: `dot ${s.online ? "on" : "off"}` }), nameEl(name),
    botBadge(s));
}

/** Send a table command from the lobby: open the table on this socket, act, and close it again. */
function atTable(id, msg) {
  conn.send({ type: "open", table: id }, showError);
  conn.send(msg, showError);
  conn.send({ type: "close" });
}

function showError(err) {
  toast(errorText(err), "error");
}

/** The computer players a table can seat: hare hunts have their own. */
function levelsFor(tb) {
  return tb.game === "hare" ? state.hareLevels || [] : state.levels;
}

function tableCard(tb) {
  const seat = mySeat(tb);
  const free = tb.seats.some((s) => !s);
  const href = `/table/${encodeURIComponent(tb.id)}`;
  const seats = el("div", { class: "seats" },
    el("span", { class: "seat-role", text: t("lobby.seats") }),
    ...tb.seats.flatMap((s, i) => (i ? [el("span", { class: "vs", text: "–" }), seatLabel(s)] : [seatLabel(s)])));
  const spectators = el("div", { class: "watchers", text: t("table.spectators", { n: tb.spectators.length }) + (tb.spectators.length ? `: ${tb.spectators.map((p) => p.name).join(", ")}` : "") });
  const buttons = el("div", { class: "card-buttons" });
  if (seat < 0 && free && tb.state === "waiting") {
    buttons.append(el("a", { class: "button primary", href: `${href}?do=join`, "data-testid": "join-table", text: t("cmd.join") }));
  }
  buttons.append(el("a", { class: "button", href, "data-testid": "open-table", text: seat >= 0 ? t("lobby.open") : t("cmd.watch") }));
  if (free && tb.state === "waiting" && mayManageComputers(tb, state.you?.id)) {
    const level = el("select", { "data-testid": "lobby-bot-level", "aria-label": t("cmd.bot") },
      ...levelsFor(tb).map((l) => el("option", { value: l.level, text: `${l.level} · ${levelName(l.level, l.name)}` })));
    if (levelsFor(tb).length > 1) level.value = levelsFor(tb)[1].level;
    buttons.append(el("span", { class: "bot-add" }, level,
      el("button", { "data-testid": "lobby-add-bot", text: t("cmd.bot"), onclick: () => atTable(tb.id, { type: "bot", level: Number(level.value) }) })));
  }
  if (seat >= 0 && !free && tb.state === "waiting") {
    buttons.append(el("button", { class: "primary", "data-testid": "lobby-start", text: t("cmd.start"),
      onclick: () => {
        location.href = `${href}?do=start`;
      } }));
  }
  const game = tb.state === "playing" ? t("lobby.game_of", { game: tb.game_number, games: tb.number_of_games }) : "";
  return el("li", { class: `table-card state-${tb.state}`, "data-table": tb.id, "data-testid": `table-${tb.id}` },
    el("div", { class: "card-head" },
      el("a", { href, class: "table-name", text: t("lobby.table_name", { id: tb.id.replace(/^t_/, "") }) }),
      el("span", { class: "game-name", text: t(`game.${tb.game}`) }),
      el("span", { class: `state-badge ${tb.state}`, "data-testid": "table-state", text: t(`state.${tb.state}`) }),
      game ? el("span", { class: "game-no", text: game }) : null),
    el("div", { class: "rules" }, ...tableKind(tb).map((r) => el("span", { class: "chip kind", text: r })),
      ...(tb.game === "hare" ? [] : ruleSummary(tb.rules)).map((r) => el("span", { class: "chip", text: r }))),
    seats, spectators, buttons);
}

function render() {
  const order = { waiting: 0, playing: 1, finished: 2 };
  const tables = [...state.tables.values()].sort((a, b) => order[a.state] - order[b.state] || String(b.created).localeCompare(String(a.created)));
  $("tables").replaceChildren(...tables.map(tableCard));
  $("no-tables").hidden = tables.length > 0;
  renderOnline();
}

/** Running tables where it is this player's turn (correspondence games above all; hare hunts too). */
function renderMyTurn() {
  const list = state.myTurn;
  $("my-turn-panel").hidden = !list.length;
  $("my-turn").replaceChildren(...list.map((tb) => el("li", { "data-testid": `my-turn-${tb.id}`, class: `mode-${tb.mode}` },
    el("a", { class: "button primary small", href: links.table(tb.id), text: t("lobby.table_name", { id: tb.id.replace(/^t_/, "") }) }),
    el("span", { class: "chip kind", text: t(`mode.${tb.mode || "live"}`) }),
    tb.game === "hare" ? el("span", { class: "chip kind", "data-testid": "my-turn-game", text: t("game.hare") }) : null,
    el("span", { text: t("lobby.my_turn_item", { opponent: opponentsText(tb), since: formatDate(tb.since) }) }))));
}

/** The other seats of a turn in the lobby, computers named as everywhere ("Computer 2 (random)"). */
function opponentsText(tb) {
  if (Array.isArray(tb.opponents)) return tb.opponents.length ? tb.opponents.map(nameText).join(", ") : "–";
  return tb.opponent ?? "–";
}

function fillClocks() {
  fillClockOptions($("opt-clock"));
  syncClock();
}

/** A clock only for live tables; "other…" shows minutes and increment. */
function syncClock() {
  const f = $("create-form");
  const live = f.elements.namedItem("mode").value === "live";
  $("opt-clock").disabled = !live;
  $("opt-clock").closest("label").hidden = !live;
  $("mode-help").hidden = live;
  $("clock-custom").hidden = !live || !isCustom($("opt-clock").value);
}

function formClock(f) {
  if (f.elements.namedItem("mode").value !== "live") return null;
  const field = (name) => f.elements.namedItem(name).value;
  return chosenClock(field("clock"), field("clock_minutes"), field("clock_increment"));
}

$("opt-mode").addEventListener("change", syncClock);
$("opt-clock").addEventListener("change", syncClock);

/** Upcoming and running tournaments, a few, with the way to all of them (asked at every connect). */
async function loadTournaments() {
  try {
    state.tournaments = (await loadCards()).filter((c) => c.state === "upcoming" || c.state === "running").slice(0, 5);
  } catch {
    state.tournaments = [];
  }
  renderTournaments();
}

function renderTournaments() {
  const list = state.tournaments || [];
  $("lobby-tournaments").replaceChildren(...list.map(tournamentCard));
  $("no-tournaments").hidden = list.length > 0;
}

function renderOnline() {
  $("online").replaceChildren(...state.online.map((p) => el("li", { class: p.id === state.you?.id ? "me" : "" },
    el("span", { class: "dot on" }), nameEl(p.name), botBadge(p))));
}

$("name-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const name = $("name-input").value.trim();
  const errBox = $("name-error");
  errBox.hidden = true;
  $("name-saved").textContent = "";
  const problem = nameProblem(name);
  const refuse = (text) => {
    state.renaming = false;
    errBox.textContent = text;
    errBox.hidden = false;
    $("name-input").setAttribute("aria-invalid", "true");
  };
  if (problem) return refuse(problem);
  $("name-input").setAttribute("aria-invalid", "false");
  state.renaming = true;
  conn.send({ type: "name", name }, (err) => refuse(errorText(err)));
});
watchNameLength($("name-input"), $("name-error"));
$("name-input").addEventListener("input", () => {
  $("name-saved").textContent = "";
});

$("create-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = e.target;
  const stall = Number(f.stall_limit.value);
  const rules = {
    match: f.match.value,
    green_lock: f.green_lock.value,
    no_return_neutrals: f.no_return_neutrals.checked,
    stall_limit: Number.isFinite(stall) ? stall : 30,
  };
  const msg = { type: "create", rules, join: f.join.checked, rated: f.elements.namedItem("rated").checked,
    mode: f.elements.namedItem("mode").value };
  const clock = formClock(f);
  if (clock) msg.clock = clock;
  state.intent = "";
  conn.send(msg, showError);
});

$("hare-create-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const f = e.target;
  state.intent = "";
  conn.send({ type: "create", game: "hare", seats: Number(f.seats.value), join: true,
    rated: f.elements.namedItem("rated").checked, rules: { bush: f.bush.checked ? "on" : "off", overshoot: f.overshoot.value } }, showError);
});

// One-click games --------------------------------------------------------------------------------
// A first game should be friendly: against the computer unrated (so hints are offered), seated at
// once and started by the table page itself; a friend's table is the creator's, with a link to send.

function fillQuickLevels() {
  for (const [id, levels] of [["quick-level", state.levels], ["quick-hare-level", state.hareLevels || []]]) {
    const sel = $(id);
    const keep = sel.value;
    sel.replaceChildren(...levels.map((l) => el("option", { value: l.level, text: `${l.level} · ${levelName(l.level, l.name)}` })));
    if (keep && levels.some((l) => String(l.level) === keep)) sel.value = keep;
    else if (levels.length) sel.value = levels[Math.min(1, levels.length - 1)].level;
  }
}

function quickStart(msg, intent) {
  state.intent = intent;
  conn.send({ join: true, rated: false, ...msg }, (err) => {
    state.intent = "";
    showError(err);
  });
}

$("quick-computer").addEventListener("click", () => {
  quickStart({ type: "create", mode: "live" }, `?do=computer&bots=1&level=${encodeURIComponent($("quick-level").value)}`);
});
$("quick-friend").addEventListener("click", () => quickStart({ type: "create", mode: "live" }, ""));
$("quick-hare-computer").addEventListener("click", () => {
  quickStart({ type: "create", game: "hare", seats: 3 }, `?do=computer&bots=2&level=${encodeURIComponent($("quick-hare-level").value)}`);
});
$("quick-hare-friends").addEventListener("click", () => quickStart({ type: "create", game: "hare", seats: 3 }, ""));

await initPage(() => {
  fillQuickLevels();
  fillClocks();
  render();
  renderMyTurn();
  renderTournaments();
  showDaily(true);
});
showDaily();
fillClocks();
startTicking();
setInterval(loadTournaments, 60_000); // the list is plain HTTP: a look now and then keeps it fresh
conn.connect();
